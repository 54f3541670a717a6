/**
 * `ops problems …`: the problems the pipeline opens, from the public API (issue #30,
 * /api/public/sm/v1/problems). The token's user sees the problems of the CIs it may read; ack
 * and resolve need the right to change the CI.
 */
import { type CommandInput, defined, type Execute, flag, type NounSpec, type Prepared, type Render, seg, str, strs } from '../spec.js';
import { cell, isRecord, keyValue, printable, table } from '../table.js';

const PREFIX = '/api/public/sm/v1';
const PROBLEM_ID = { name: 'id', description: 'The problem id (a UUID)' };
/** Hits `problems get` asks for unless --hits says otherwise. */
export const DEFAULT_HITS = 10;

const call = (method: 'GET' | 'POST', path: string, body?: unknown): Prepared => ({
  ok: true,
  request: { method, path, prefix: PREFIX, ...(body === undefined ? {} : { body }) },
});

const UNITS = { d: 86_400, h: 3600, m: 60, s: 1 } as const;

/** `12d 3h`, `1h 30m`, `4m 0s`, `45s`: the two largest units of a duration in milliseconds. */
export function durationText(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '-';
  let rest = Math.floor(ms / 1000);
  const parts: string[] = [];
  for (const [unit, seconds] of Object.entries(UNITS)) {
    const n = Math.floor(rest / seconds);
    rest -= n * seconds;
    if (n > 0 || parts.length > 0) parts.push(`${n}${unit}`);
  }
  return parts.length === 0 ? '0s' : parts.slice(0, 2).join(' ');
}

const named = (value: unknown): string | undefined => (isRecord(value) && typeof value['name'] === 'string' ? value['name'] : undefined);
const idOf = (value: unknown): unknown => (isRecord(value) ? value['id'] : undefined);
/** A deleted CI keeps its id but has no name any more. */
const ciText = (ci: unknown): string => named(ci) || `#${String(idOf(ci) ?? '?')}`;

/** The list's query: ids and priorities comma-separated (a repeated option joins them), tags repeated. */
export function listQuery(input: CommandInput): URLSearchParams {
  const query = new URLSearchParams();
  const put = (name: string, value: string | undefined): void => {
    if (value !== undefined) query.set(name, value);
  };
  put('state', str(input, 'state'));
  put('configItemIds', strs(input, 'ci')?.join(','));
  if (flag(input, 'descendants')) query.set('withDescendants', 'true');
  put('triggerIds', strs(input, 'trigger')?.join(','));
  put('priorities', strs(input, 'priority')?.join(','));
  for (const tag of strs(input, 'tag') ?? []) query.append('tags', tag);
  put('acknowledged', str(input, 'acknowledged'));
  put('inMaintenance', str(input, 'in-maintenance'));
  put('from', str(input, 'from'));
  put('to', str(input, 'to'));
  put('search', str(input, 'search'));
  put('sort', str(input, 'sort'));
  put('limit', str(input, 'limit'));
  put('cursor', str(input, 'cursor'));
  return query;
}

const withQuery = (path: string, query: URLSearchParams): string => (query.size === 0 ? path : `${path}?${query}`);

/** A page's problems as a table: id, priority, trigger, CI, start, duration, who acknowledged. */
export const renderList: Render = (data) => {
  const items = isRecord(data) && Array.isArray(data['items']) ? data['items'] : [];
  const rows = items.map((p) =>
    isRecord(p)
      ? {
          id: p['id'],
          priority: p['priority'],
          trigger: named(p['trigger']),
          ci: ciText(p['configItem']),
          start: p['dateStart'],
          duration: durationText(p['duration']),
          ackBy: isRecord(p['acknowledged']) ? p['acknowledged']['byName'] : undefined,
        }
      : {},
  );
  return table(rows, { ID: 'id', PRIORITY: 'priority', TRIGGER: 'trigger', CI: 'ci', START: 'start', DURATION: 'duration', 'ACKNOWLEDGED BY': 'ackBy' });
};

/** One problem as key/value lines, its nested values in a few words. */
export function problemSummary(p: Record<string, unknown>): string {
  const ci = isRecord(p['configItem']) ? p['configItem'] : {};
  const ciType = named(ci['configItemType']);
  const ack = isRecord(p['acknowledged']) ? p['acknowledged'] : undefined;
  const influence = isRecord(p['influence']) ? p['influence'] : undefined;
  const incidents = Array.isArray(p['incidents']) ? p['incidents'] : [];
  return keyValue({
    id: p['id'],
    priority: p['priority'],
    trigger: `${named(p['trigger']) ?? '-'} (${String(idOf(p['trigger']))})`,
    configItem: `${named(ci) || '(deleted)'} (${String(ci['id'])}${ciType ? `, ${ciType}` : ''})`,
    dateStart: p['dateStart'],
    dateEnd: p['dateEnd'] ?? 'open',
    duration: durationText(p['duration']),
    influence: influence ? `${String(influence['value'])}${influence['maxInfluence'] === true ? ' (max)' : ''}` : undefined,
    tags: Array.isArray(p['tags']) ? p['tags'].map(named) : undefined,
    incidents: incidents.flatMap((c) => (isRecord(c) && Array.isArray(c['incidents']) ? c['incidents'].map((i) => `${named(c['connector']) ?? '?'}: ${String(idOf(i))}`) : [])),
    acknowledged: ack ? `by ${String(ack['byName'])} at ${String(ack['at'])}${typeof ack['comment'] === 'string' ? `: ${ack['comment']}` : ''}` : 'no',
    inMaintenance: p['inMaintenance'],
    commentsCount: p['commentsCount'],
  });
}

const renderItem: Render = (data) => (isRecord(data) ? problemSummary(data) : `${cell(data)}\n`);

const section = (title: string, items: unknown, columns: Record<string, string>): string =>
  Array.isArray(items) && items.length > 0 ? `\n${title}:\n${table(items, columns)}` : `\n${title}: none\n`;

/** The problem, then its last hits, its comments and its history. */
export const renderDetail: Render = (data) => {
  if (!isRecord(data)) return `${cell(data)}\n`;
  const hits = isRecord(data['hits']) ? data['hits'] : {};
  const more = typeof hits['nextCursor'] === 'string' ? ' (older ones with --hits <n>)' : '';
  return [
    problemSummary(data),
    section(`Last hits, newest first${more}`, hits['items'], { AT: 'at', EVENT: 'eventId', RESOLVE: 'resolve' }),
    section('Comments', data['comments'], { AT: 'at', BY: 'byName', TEXT: 'text' }),
    section('History', data['history'], { AT: 'at', ACTION: 'action', BY: 'byName', TEXT: 'text' }),
  ].join('');
};

/** One page, or with --all every page (following nextCursor), printed once all have come. */
const listPages: Execute = async (request, ctx) => {
  const all = flag(ctx.input, 'all');
  const items: unknown[] = [];
  const cursors = new Set<string>();
  const [path, search] = request.path.split('?');
  let page = request;
  for (;;) {
    const result = await ctx.client.send(page);
    if (!result.ok) return result.failure;
    const body = isRecord(result.data) ? result.data : {};
    const next = typeof body['nextCursor'] === 'string' && body['nextCursor'] !== '' ? body['nextCursor'] : undefined;
    if (!all) {
      ctx.stdout.write(ctx.json ? `${JSON.stringify(result.data, null, 2)}\n` : renderList(body, ctx.input));
      if (next !== undefined && !ctx.json) ctx.stderr.write(`More problems: add --all for every page, or --cursor ${printable(next)} for the next one.\n`);
      return undefined;
    }
    if (Array.isArray(body['items'])) items.push(...body['items']);
    if (next === undefined) break;
    if (cursors.has(next)) return { kind: 'network', message: 'the API gave the same cursor twice; stopped paging' };
    cursors.add(next);
    const query = new URLSearchParams(search);
    query.set('cursor', next);
    page = { ...request, path: withQuery(path!, query) };
  }
  const answer = { items, nextCursor: null };
  ctx.stdout.write(ctx.json ? `${JSON.stringify(answer, null, 2)}\n` : renderList(answer, ctx.input));
  return undefined;
};

const problemPath = (input: CommandInput, action = ''): string => `/problems/${seg(input.args['id']!)}${action}`;

export const problems: NounSpec = {
  name: 'problems',
  summary: 'Problems on the CIs your token may read (public API /api/public/sm/v1/problems)',
  commands: [
    {
      verb: 'list',
      summary: 'List problems, newest first: open ones unless --state says otherwise',
      options: {
        state: { type: 'string', value: 'open|closed|all', description: 'Which problems (default open)' },
        ci: { type: 'string', value: 'ids', multiple: true, description: 'Only on these CIs (comma-separated ids)' },
        descendants: { type: 'boolean', description: 'With --ci: the CIs below them too' },
        trigger: { type: 'string', value: 'ids', multiple: true, description: 'Only of these triggers (comma-separated ids)' },
        priority: { type: 'string', value: 'p', multiple: true, description: 'Only of these priorities: 1-4 or Problem1-Problem4, comma-separated' },
        tag: { type: 'string', value: 't', multiple: true, description: 'Only with this tag (name, or name=value); all given must match' },
        acknowledged: { type: 'string', value: 'true|false', description: 'Only acknowledged (true) or unacknowledged (false) ones' },
        'in-maintenance': { type: 'string', value: 'true|false', description: 'Only ones whose CI a maintenance mode covers now (true), or not (false)' },
        from: { type: 'string', value: 'time', description: 'Only ones still open at or after this ISO 8601 instant' },
        to: { type: 'string', value: 'time', description: 'Only ones started before this ISO 8601 instant' },
        search: { type: 'string', value: 's', description: 'Case-insensitive part of the trigger or CI name' },
        sort: { type: 'string', value: 'key', description: 'dateStart, priority or duration; a leading - for descending (default -dateStart)' },
        limit: { type: 'string', value: 'n', description: 'Problems per page, 1-1000 (default 100)' },
        cursor: { type: 'string', value: 'cursor', description: 'The nextCursor of the page before' },
        all: { type: 'boolean', description: 'Every page, following nextCursor to the end' },
      },
      exclusive: [['all', 'cursor']],
      prepare: (i) => call('GET', withQuery('/problems', listQuery(i))),
      render: renderList,
      execute: listPages,
    },
    {
      verb: 'get',
      summary: 'Show one problem with its last hits, comments and history',
      args: [PROBLEM_ID],
      options: { hits: { type: 'string', value: 'n', kind: 'id', description: `How many of the last hits to show, up to 1000 (default ${DEFAULT_HITS})` } },
      prepare: (i) => call('GET', `${problemPath(i)}?hitsLimit=${str(i, 'hits') ?? DEFAULT_HITS}`),
      render: renderDetail,
    },
    {
      verb: 'ack',
      summary: 'Acknowledge an open problem (someone is on it)',
      args: [PROBLEM_ID],
      options: { comment: { type: 'string', value: 'text', description: 'A comment to go with it' } },
      prepare: (i) => call('POST', problemPath(i, '/acknowledge'), defined({ comment: str(i, 'comment') })),
      render: renderItem,
    },
    {
      verb: 'resolve',
      summary: 'Close an open problem by hand; a later firing record opens a new one',
      args: [PROBLEM_ID],
      options: { comment: { type: 'string', value: 'text', required: true, description: 'Why it is resolved' } },
      prepare: (i) => call('POST', problemPath(i, '/resolve'), { comment: str(i, 'comment') }),
      render: renderItem,
    },
  ],
};

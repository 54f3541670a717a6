/**
 * `ops problems list|get|ack|resolve` end to end, in-process, against a tiny HTTP server that
 * answers the public problem paths as the API does (items shaped like its schema's example,
 * errors as problem+json with their codes).
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { durationText } from '../../../../../services/cli/commands/problems.js';
import { run } from '../../../../../services/cli/main.js';
import { problemItemExample } from '../../../../../schemas/problems.schema.js';

const TOKEN = 'test-token-0123456789abcdef';
const PREFIX = '/api/public/sm/v1/problems';
const OPEN = problemItemExample;
const ORPHAN = {
  ...OPEN,
  id: '1c000000-0000-4000-8000-000000000002',
  priority: 'Problem1',
  configItem: { id: 7, name: '', configItemType: null },
  duration: 45_000,
  acknowledged: null,
};
const CLOSED = { ...OPEN, id: '1c000000-0000-4000-8000-000000000003', dateEnd: '2026-11-26T09:12:00.000Z', duration: 86_400_000 + 7_200_000, acknowledged: null };
const UNKNOWN = '1c000000-0000-4000-8000-00000000ffff';
const FORBIDDEN = '1c000000-0000-4000-8000-00000000fff3';

const detail = {
  ...OPEN,
  hits: {
    items: [
      { at: '2026-11-25T09:40:00.000Z', eventId: 'e2', resolve: false },
      { at: '2026-11-25T09:12:00.000Z', eventId: 'e1', resolve: false },
    ],
    nextCursor: 'older',
  },
  comments: [{ id: 'c1', by: 5, byName: 'alice', at: '2026-11-25T09:20:00.000Z', text: 'looking' }],
  history: [
    { action: 'acknowledge', by: 5, byName: 'alice', at: '2026-11-25T09:20:00.000Z', text: 'looking' },
    { action: 'comment', by: 5, byName: 'alice', at: '2026-11-25T09:20:00.000Z', text: 'looking' },
  ],
};

const problem = (status: number, title: string, code: string, detail: string) => ({ status, body: { type: `urn:ops:problem:x`, title, status, detail, code } });

/** The answer to one request, as the problem routes give it. */
function answer(method: string, path: string, query: URLSearchParams, body: string): { status: number; body: unknown } {
  if (method === 'GET' && path === PREFIX) {
    if (query.get('search') === 'x'.repeat(256)) return problem(400, 'Bad request', 'problem.query_invalid', 'Invalid search: "256 characters"; at most 255 characters');
    const cursor = query.get('cursor');
    if (query.get('state') === 'all' && cursor === null) return { status: 200, body: { items: [OPEN], nextCursor: 'stale' } };
    if (cursor === 'stale') return problem(400, 'Bad request', 'problem.cursor_invalid', 'The cursor is not one this list gave');
    if (query.get('state') === 'closed' && cursor !== null) return { status: 200, body: { items: [CLOSED], nextCursor: 'c2' } };
    if (cursor === null) return { status: 200, body: { items: [OPEN, ORPHAN], nextCursor: 'c2' } };
    if (cursor === 'c2') return { status: 200, body: { items: [CLOSED], nextCursor: 'c3' } };
    return { status: 200, body: { items: [], nextCursor: null } };
  }
  if (method === 'GET' && path === `${PREFIX}/${OPEN.id}`) return { status: 200, body: detail };
  if (method === 'GET' && path === `${PREFIX}/${UNKNOWN}`) return problem(404, 'Not found', 'problem.not_found', `Problem ${UNKNOWN} not found`);
  const comment = body === '' ? undefined : (JSON.parse(body) as { comment?: string }).comment;
  const acknowledged = { by: 1, byName: 'admin', at: '2026-11-25T10:00:00.000Z', comment: comment ?? null };
  if (method === 'POST' && path === `${PREFIX}/${OPEN.id}/acknowledge`) return { status: 200, body: { ...OPEN, acknowledged } };
  if (method === 'POST' && path === `${PREFIX}/${CLOSED.id}/acknowledge`) {
    return problem(409, 'Conflict', 'problem.closed', `Problem ${CLOSED.id} is closed: only an open problem can be acknowledged, unacknowledged or resolved`);
  }
  if (method === 'POST' && path === `${PREFIX}/${OPEN.id}/resolve`) return { status: 200, body: { ...OPEN, dateEnd: '2026-11-25T10:00:00.000Z', duration: 2_880_000 } };
  if (method === 'POST' && path === `${PREFIX}/${FORBIDDEN}/resolve`) {
    return problem(403, 'Insufficient rights', 'problem.write_forbidden', 'Insufficient privileges on CI 9: acting on its problems needs the right to change it');
  }
  return problem(404, 'No such route', 'http.route_not_found', `${method} ${path}`);
}

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  authorization?: string;
}

const seen: Seen[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const url = new URL(req.url ?? '', 'http://x');
    seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, body, authorization: req.headers.authorization });
    const a = answer(req.method ?? '', url.pathname, url.searchParams, body);
    res.writeHead(a.status, { 'content-type': a.status < 300 ? 'application/json' : 'application/problem+json' });
    res.end(JSON.stringify(a.body));
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
t.teardown(() => {
  server.closeAllConnections();
  server.close();
});

async function ops(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const before = seen.length;
  const code = await run(argv, { OPS_URL: url, OPS_TOKEN: TOKEN }, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr, requests: seen.slice(before) };
}

const LIST_HEAD = 'ID                                    PRIORITY  TRIGGER   CI     START                     DURATION  ACKNOWLEDGED BY';
const OPEN_ROW = '0b6f7c1e-6f0e-4b8a-9d3c-2a1f4e5d6c7b  Problem2  cpu-high  db-01  2026-11-25T09:12:00.000Z  30m 0s    alice';
const ORPHAN_ROW = '1c000000-0000-4000-8000-000000000002  Problem1  cpu-high  #7     2026-11-25T09:12:00.000Z  45s       -';
const CLOSED_ROW = '1c000000-0000-4000-8000-000000000003  Problem2  cpu-high  db-01  2026-11-25T09:12:00.000Z  1d 2h     -';

t.test('list: the options become the query, and the page prints as a table', async (t) => {
  const r = await ops(
    ...['problems', 'list', '--state', 'open', '--ci', '42,43', '--ci', '44', '--descendants', '--trigger', '3', '--priority', '1,Problem2'],
    ...['--tag', 'cpu', '--tag', 'env=prod', '--acknowledged', 'true', '--in-maintenance', 'false', '--search', 'db', '--sort', 'priority', '--limit', '2'],
    ...['--from', '2026-11-01T00:00:00Z', '--to', '2026-12-01T00:00:00Z'],
  );
  t.same([r.code, r.requests.length], [0, 1]);
  const q = r.requests[0]!;
  t.same([q.method, q.path, q.authorization], ['GET', PREFIX, `Bearer ${TOKEN}`]);
  t.same(
    [...q.query],
    [
      ['state', 'open'],
      ['configItemIds', '42,43,44'],
      ['withDescendants', 'true'],
      ['triggerIds', '3'],
      ['priorities', '1,Problem2'],
      ['tags', 'cpu'],
      ['tags', 'env=prod'],
      ['acknowledged', 'true'],
      ['inMaintenance', 'false'],
      ['from', '2026-11-01T00:00:00Z'],
      ['to', '2026-12-01T00:00:00Z'],
      ['search', 'db'],
      ['sort', 'priority'],
      ['limit', '2'],
    ],
  );
  t.equal(r.stdout, [LIST_HEAD, OPEN_ROW, ORPHAN_ROW, ''].join('\n'));
  t.equal(r.stderr, 'More problems: add --all for every page, or --cursor c2 for the next one.\n');
});

t.test('list --json prints the page as the API answered it; --cursor asks for the next', async (t) => {
  const r = await ops('problems', 'list', '--json');
  t.same([r.code, r.stderr, r.requests[0]!.query.size], [0, '', 0]);
  t.same(JSON.parse(r.stdout), { items: [OPEN, ORPHAN], nextCursor: 'c2' });
  const next = await ops('problems', 'list', '--cursor', 'c2');
  t.same([next.code, next.requests[0]!.query.get('cursor'), next.stdout], [0, 'c2', [LIST_HEAD, CLOSED_ROW, ''].join('\n')]);
});

t.test('list --all follows nextCursor to the last page, keeping the filters', async (t) => {
  const r = await ops('problems', 'list', '--all', '--search', 'db');
  t.same([r.code, r.stderr], [0, '']);
  t.same(
    r.requests.map((q) => q.query.toString()),
    ['search=db', 'search=db&cursor=c2', 'search=db&cursor=c3'],
  );
  t.equal(r.stdout, [LIST_HEAD, OPEN_ROW, ORPHAN_ROW, CLOSED_ROW, ''].join('\n'));
  const j = await ops('problems', 'list', '--all', '--json');
  t.same(JSON.parse(j.stdout), { items: [OPEN, ORPHAN, CLOSED], nextCursor: null });
  t.equal(usage(await ops('problems', 'list', '--all', '--cursor', 'c2')), 'error: options --all and --cursor cannot be used together');
});

t.test('list: a refused filter prints the problem with its code and exits 1', async (t) => {
  const r = await ops('problems', 'list', '--search', 'x'.repeat(256));
  t.same([r.code, r.stdout], [1, '']);
  t.equal(r.stderr, 'error: 400 Bad request: Invalid search: "256 characters"; at most 255 characters [problem.query_invalid]\n');
});

t.test('list --all: a page that fails stops the paging with its problem, and nothing is printed', async (t) => {
  const r = await ops('problems', 'list', '--all', '--state', 'all');
  t.same([r.code, r.stdout, r.requests.length], [1, '', 2]);
  t.equal(r.stderr, 'error: 400 Bad request: The cursor is not one this list gave [problem.cursor_invalid]\n');
});

t.test('list --all: a cursor given twice stops the paging instead of looping', async (t) => {
  const r = await ops('problems', 'list', '--all', '--state', 'closed');
  t.same([r.code, r.stdout, r.requests.length], [1, '', 2]);
  t.equal(r.stderr, 'error: the API gave the same cursor twice; stopped paging\n');
});

t.test('get prints the problem, its last hits, its comments and its history', async (t) => {
  const r = await ops('problems', 'get', OPEN.id);
  t.same([r.code, r.stderr], [0, '']);
  t.same([r.requests[0]!.path, r.requests[0]!.query.toString()], [`${PREFIX}/${OPEN.id}`, 'hitsLimit=10']);
  t.equal(
    r.stdout,
    [
      'id             0b6f7c1e-6f0e-4b8a-9d3c-2a1f4e5d6c7b',
      'priority       Problem2',
      'trigger        cpu-high (3)',
      'configItem     db-01 (42, Database)',
      'dateStart      2026-11-25T09:12:00.000Z',
      'dateEnd        open',
      'duration       30m 0s',
      'influence      30',
      'tags           cpu',
      'incidents      tracker: INC-1',
      'acknowledged   by alice at 2026-11-25T09:20:00.000Z: looking',
      'inMaintenance  false',
      'commentsCount  1',
      '',
      'Last hits, newest first (older ones with --hits <n>):',
      'AT                        EVENT  RESOLVE',
      '2026-11-25T09:40:00.000Z  e2     false',
      '2026-11-25T09:12:00.000Z  e1     false',
      '',
      'Comments:',
      'AT                        BY     TEXT',
      '2026-11-25T09:20:00.000Z  alice  looking',
      '',
      'History:',
      'AT                        ACTION       BY     TEXT',
      '2026-11-25T09:20:00.000Z  acknowledge  alice  looking',
      '2026-11-25T09:20:00.000Z  comment      alice  looking',
      '',
    ].join('\n'),
  );
  const few = await ops('problems', 'get', OPEN.id, '--hits', '3', '--json');
  t.same([few.code, few.requests[0]!.query.get('hitsLimit')], [0, '3']);
  t.same(JSON.parse(few.stdout), detail);
});

t.test('get: an unknown problem prints the 404 problem and exits 1', async (t) => {
  const r = await ops('problems', 'get', UNKNOWN);
  t.same([r.code, r.stdout], [1, '']);
  t.equal(r.stderr, `error: 404 Not found: Problem ${UNKNOWN} not found [problem.not_found]\n`);
});

t.test('ack posts the comment (or an empty object) and prints the acknowledged problem', async (t) => {
  const r = await ops('problems', 'ack', OPEN.id, '--comment', 'on it');
  t.same([r.code, r.stderr, r.requests[0]!.method, r.requests[0]!.path], [0, '', 'POST', `${PREFIX}/${OPEN.id}/acknowledge`]);
  t.same(JSON.parse(r.requests[0]!.body), { comment: 'on it' });
  t.match(r.stdout, /^id {13}0b6f7c1e-6f0e-4b8a-9d3c-2a1f4e5d6c7b\n/);
  t.match(r.stdout, /\nacknowledged {3}by admin at 2026-11-25T10:00:00\.000Z: on it\n/);
  const bare = await ops('problems', 'ack', OPEN.id);
  t.same([bare.code, JSON.parse(bare.requests[0]!.body)], [0, {}]);
  t.match(bare.stdout, /\nacknowledged {3}by admin at 2026-11-25T10:00:00\.000Z\n/);
});

t.test('ack: a closed problem prints the 409 problem and exits 1', async (t) => {
  const r = await ops('problems', 'ack', CLOSED.id);
  t.same([r.code, r.stdout], [1, '']);
  t.equal(r.stderr, `error: 409 Conflict: Problem ${CLOSED.id} is closed: only an open problem can be acknowledged, unacknowledged or resolved [problem.closed]\n`);
});

t.test('resolve posts the comment and prints the closed problem', async (t) => {
  const r = await ops('problems', 'resolve', OPEN.id, '--comment', 'fixed the disk');
  t.same([r.code, r.stderr, r.requests[0]!.path], [0, '', `${PREFIX}/${OPEN.id}/resolve`]);
  t.same(JSON.parse(r.requests[0]!.body), { comment: 'fixed the disk' });
  t.match(r.stdout, /\ndateEnd {8}2026-11-25T10:00:00\.000Z\nduration {7}48m 0s\n/);
});

t.test('resolve: without --comment a usage error (exit 2, no request); without the right the 403 problem', async (t) => {
  const r = await ops('problems', 'resolve', OPEN.id);
  t.same([r.code, r.stdout, r.requests.length], [2, '', 0]);
  t.match(r.stderr, /^error: missing option --comment\n\nUsage: ops problems resolve <id> --comment <text>\n/);
  const f = await ops('problems', 'resolve', FORBIDDEN, '--comment', 'x');
  t.same([f.code, f.stdout], [1, '']);
  t.equal(f.stderr, 'error: 403 Insufficient rights: Insufficient privileges on CI 9: acting on its problems needs the right to change it [problem.write_forbidden]\n');
});

t.test('durations show their two largest units', async (t) => {
  t.same([0, 999, 45_000, 240_000, 5_400_000, 86_400_000 + 7_260_000, 'x', -1].map(durationText), ['0s', '0s', '45s', '4m 0s', '1h 30m', '1d 2h', '-', '-']);
});

function usage(r: { code: number; stderr: string; requests: unknown[] }): string {
  return r.code === 2 && r.requests.length === 0 ? r.stderr.split('\n')[0]! : `exit ${r.code}`;
}

/**
 * The HTTP scenarios of the problems API benchmark on the embedded platform (1, 2, 3 and 5 of
 * bench/problems-api.bench.ts) as rows to time, each request first made once as the non-admin
 * caller and its answer checked against the dataset (a wrong answer would make the timing
 * meaningless): the open list holds exactly the open problems of the caller's CIs, the subtree
 * answer only problems of that tree, priority and dates, the deep page a full page, the event
 * page only error events of the hour. What the checks found goes into `notes`.
 */
import type { BaselineCommand } from './problems-api-baseline.js';
import { DAY_MS, hasOpenProblem, readable, readableIds, SHARED_SITE, siteRoot, subtreeIds } from './problems-api-dataset.js';
import type { Figures } from './problems-api-report.js';
import type { SeedInfo } from './problems-api-seed.js';

export interface Row {
  /** `open:api1`, `open:apiN`, `open:sql`, …: how the targets find their rows. */
  key: string;
  scenario: string;
  what: string;
  connections: number;
  measure: () => Promise<Figures>;
}

export interface ScenarioContext {
  scenarios: ReadonlySet<string>;
  seed: SeedInfo;
  perCi: number;
  pageLimit: number;
  /** Connections of the concurrent rows (1: none). */
  concurrent: number;
  seconds: number;
  /** One GET as the caller; throws unless 200. */
  get: (path: string) => Promise<{ text: string; body: any }>;
  /** Times GETs of `paths` (rotating) as the caller over `connections`. */
  http: (paths: string[], connections: number) => () => Promise<Figures>;
  sql: (command: BaselineCommand) => () => Promise<Figures>;
  /** Starts the bare route answering `body`; times it like `http`. */
  bare: (body: string) => Promise<(connections: number) => () => Promise<Figures>>;
  notes: string[];
}

const PROBLEMS = '/api/public/sm/v1/problems';
const iso = (ms: number): string => new Date(ms).toISOString();
const shorten = (path: string): string => (path.length > 100 ? `${path.slice(0, 100)}…` : path);

export async function embeddedRows(c: ScenarioContext): Promise<Row[]> {
  const rows: Row[] = [];
  const visible = readableIds();
  const now = Date.now();
  const apiAndSql = (key: string, scenario: string, path: string, sql: BaselineCommand): void => {
    rows.push({ key: `${key}:api1`, scenario, what: `API \`${shorten(path)}\``, connections: 1, measure: c.http([path], 1) });
    if (c.concurrent > 1) rows.push({ key: `${key}:apiN`, scenario, what: 'API, the same', connections: c.concurrent, measure: c.http([path], c.concurrent) });
    rows.push({ key: `${key}:sql`, scenario, what: 'SQL baseline: the same statement(s) on chDB', connections: 1, measure: c.sql(sql) });
  };

  if (c.scenarios.has('open')) {
    const path = `${PROBLEMS}?limit=100`;
    const { body } = await c.get(`${path}&withTotal=true`);
    const expected = visible.filter(hasOpenProblem).length;
    if (body.total !== expected || body.items.some((i: any) => !readable(i.configItem.id) || i.dateEnd !== null)) {
      throw new Error(`open list: total ${body.total}, expected ${expected}, or an item on a CI the caller cannot read, or closed`);
    }
    const page = await c.get(path);
    c.notes.push(`1. open list: ${expected} open problems on the caller's CIs (of ${c.seed.openProblems} open); a page of 100 is ${Buffer.byteLength(page.text)} bytes`);
    apiAndSql('open', '1. open list, limit 100', path, { cmd: 'problems', query: 'state=open&limit=100', cis: visible, now, seconds: c.seconds });
    const bare = await c.bare(page.text);
    rows.push({ key: 'bare:1', scenario: 'load check', what: 'bare uWS route answering the open list JSON', connections: 1, measure: bare(1) });
    if (c.concurrent > 1) rows.push({ key: 'bare:N', scenario: 'load check', what: 'the same', connections: c.concurrent, measure: bare(c.concurrent) });
  }

  if (c.scenarios.has('subtree')) {
    const from = iso(now - 7 * DAY_MS);
    const path = `${PROBLEMS}?configItemIds=${siteRoot(SHARED_SITE)}&withDescendants=true&priorities=1,2&state=all&from=${encodeURIComponent(from)}`;
    const { body } = await c.get(`${path}&withTotal=true`);
    const tree = new Set(subtreeIds(SHARED_SITE));
    const wrong = body.items.filter((i: any) => !tree.has(i.configItem.id) || !['Problem1', 'Problem2'].includes(i.priority) || (i.dateEnd !== null && i.dateEnd <= from));
    if (body.items.length === 0 || wrong.length > 0) throw new Error(`subtree: ${body.items.length} items, ${wrong.length} outside the filter`);
    c.notes.push(
      `2. subtree: site ${SHARED_SITE}'s tree (${tree.size} CIs, read through a Tree grant on its root): ${body.total} problems match, the first ${body.items.length} returned`,
    );
    apiAndSql('subtree', '2. subtree + priorities 1,2 + 7 days', path, { cmd: 'problems', query: path.split('?')[1]!, cis: [...tree].filter(readable), now, seconds: c.seconds });
  }

  if (c.scenarios.has('cursor')) {
    const first = `${PROBLEMS}?state=all&limit=${c.pageLimit}`;
    const target = Math.min(1000, Math.floor((visible.length * c.perCi) / c.pageLimit));
    let cursor: string | null = null;
    const walkStart = performance.now();
    for (let page = 1; page < target; page++) {
      cursor = (await c.get(cursor ? `${first}&cursor=${cursor}` : first)).body.nextCursor as string | null;
      if (!cursor) throw new Error(`the cursor walk ended at page ${page}`);
    }
    const walkSeconds = (performance.now() - walkStart) / 1000;
    const deep = `${first}&cursor=${cursor}`;
    const deepPage = (await c.get(deep)).body;
    if (deepPage.items.length !== c.pageLimit) throw new Error(`page ${target}: ${deepPage.items.length} items`);
    c.notes.push(
      `3. cursor: ${visible.length * c.perCi} problems on the caller's CIs, pages of ${c.pageLimit} newest first; page ${target} reached by walking pages 1…${target - 1} one at a time in ${walkSeconds.toFixed(1)} s (${((1000 * walkSeconds) / Math.max(1, target - 1)).toFixed(1)} ms a page)`,
    );
    const scenario = '3. cursor walk, state=all';
    rows.push({ key: 'page1:api1', scenario, what: `API page 1 \`${first}\``, connections: 1, measure: c.http([first], 1) });
    rows.push({ key: 'pageN:api1', scenario, what: `API page ${target}, with its cursor`, connections: 1, measure: c.http([deep], 1) });
    rows.push({
      key: 'page1:sql',
      scenario,
      what: 'SQL baseline: page 1',
      connections: 1,
      measure: c.sql({ cmd: 'problems', query: first.split('?')[1]!, cis: visible, now, seconds: c.seconds }),
    });
    rows.push({
      key: 'pageN:sql',
      scenario,
      what: `SQL baseline: page ${target}`,
      connections: 1,
      measure: c.sql({ cmd: 'problems', query: deep.split('?')[1]!, cis: visible, now, seconds: c.seconds }),
    });
  }

  if (c.scenarios.has('events')) {
    const to = c.seed.endMs - 3_600_000;
    const from = to - 3_600_000;
    const stream = c.seed.streamIds[0]!;
    const path = `/api/public/cl/v1/streams/${stream}/events?from=${iso(from)}&to=${iso(to)}&filter=${encodeURIComponent('level=error')}`;
    const { body, text } = await c.get(path);
    if (body.items.length === 0 || body.items.some((e: any) => e.record.level !== 'error' || Date.parse(e.ts) < from || Date.parse(e.ts) >= to)) {
      throw new Error('events: no item, or one outside the filter');
    }
    c.notes.push(
      `5. events: ${c.seed.events} events over 24 h in stream ${stream}, about ${Math.round(c.seed.events / 24)} in the hour read, 10 % of them level=error; a page of ${body.items.length} is ${Buffer.byteLength(text)} bytes`,
    );
    apiAndSql('events', '5. events, 1 h, filter level=error', path, { cmd: 'events', streamId: stream, from, to, filters: ['level=error'], limit: 100, seconds: c.seconds });
  }
  return rows;
}

/**
 * Issue #30: the problem list's pure parts: its query parameters (problem-filter.ts), keyset
 * cursors (problem-cursor.ts), filters and order over rows (problem-match.ts), the CIs a query
 * may return (problem-scope.ts) and the in-memory index of open problems (open-problems.ts).
 */
import t from 'tap';
import type { ProblemRow } from '../../../../../pipelines/problems/problem-row.js';
import { problemId } from '../../../../../pipelines/problems/problem-timeline.js';
import { clickhouseDateTime } from '../../../../../pipelines/records/timestamps.js';
import { OpenProblems } from '../../../../../services/api/problems/open-problems.js';
import { decodeCursor, encodeCursor } from '../../../../../services/api/problems/problem-cursor.js';
import { parseProblemFilter, type ProblemFilter } from '../../../../../services/api/problems/problem-filter.js';
import { factsOf, type RowFacts } from '../../../../../services/api/problems/problem-item.js';
import { afterCursor, compareProblems, cursorOf, matchesProblem, tagMatches } from '../../../../../services/api/problems/problem-match.js';
import { type ProblemScope, resolveScope } from '../../../../../services/api/problems/problem-scope.js';
import type { AnalyticsStore } from '../../../../../services/runtime/adapters/analytics/analytics.port.js';
import { messageOf } from '../../../../../schemas/errors.js';
import { buildModel, H, modeRecord, T0 } from '../../../../support/model-fixture.js';

const MIN = 60_000;
const at = (minutes: number) => T0 + minutes * MIN;
const NOW = at(100);
const P = problemId(1, 1, 'a');
const ADMIN: ProblemScope = { now: NOW };
const parse = (query: string) => parseProblemFilter(new URLSearchParams(query));

interface Shape {
  id?: string;
  ci?: number;
  trigger?: number;
  name?: string;
  priority?: number;
  start?: number;
  end?: number | null;
  acknowledged?: boolean;
  tags?: string[];
  deleted?: boolean;
  version?: number;
}
function row(s: Shape = {}): ProblemRow {
  const start = s.start ?? at(10);
  return {
    id: s.id ?? P,
    trigger_id: s.trigger ?? 1,
    trigger_name: s.name ?? 'Disk full',
    ci_id: s.ci ?? 1,
    date_start: clickhouseDateTime(start),
    date_end: s.end == null ? null : clickhouseDateTime(s.end),
    last_event_at: clickhouseDateTime(start),
    priority: s.priority ?? 2,
    tags: JSON.stringify((s.tags ?? []).map((name, i) => ({ id: i + 1, name, colorName: 'red' }))),
    incidents: '[]',
    influence_value: 0,
    influence_max: 0,
    with_maintenance: 0,
    acknowledged: s.acknowledged ? '{"by":7,"byName":"Ada","at":"2026-11-01T00:15:00.000Z","comment":null}' : '',
    comments_count: 0,
    version: s.version ?? 1,
    is_deleted: s.deleted ? 1 : 0,
  };
}
const facts = (s: Shape = {}): RowFacts => factsOf(row(s));
const matches = (query: string, s: Shape, scope: ProblemScope = ADMIN) => matchesProblem(facts(s), parse(query), scope);

t.test('the filter’s defaults: open problems, newest first, 100 a page', async (t) => {
  t.strictSame(parse(''), { state: 'open', withDescendants: false, tags: [], sort: { key: 'dateStart', desc: true }, limit: 100, withTotal: false });
  t.strictSame(
    parse(
      'state=all&configItemIds=1,%202&withDescendants=true&triggerIds=3&priorities=1,Problem3&tags=env&tags=team=db&acknowledged=false&inMaintenance=true' +
        '&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&search=Disk&sort=priority&limit=1000&withTotal=true',
    ),
    {
      state: 'all',
      withDescendants: true,
      tags: ['env', 'team=db'],
      sort: { key: 'priority', desc: false },
      limit: 1000,
      withTotal: true,
      configItemIds: [1, 2],
      triggerIds: [3],
      priorities: [1, 3],
      acknowledged: false,
      inMaintenance: true,
      from: Date.parse('2026-11-01T00:00:00Z'),
      to: Date.parse('2026-11-02T00:00:00Z'),
      search: 'disk',
    },
    'every parameter given',
  );
});

t.test('every bad parameter is refused with problem.query_invalid naming it, its value and its rule', async (t) => {
  const WHOLE = 'a whole number from 1 to 1000';
  const PRIORITY = '1–4 or Problem1–Problem4, comma-separated';
  const IDS = 'a comma-separated list of positive integers';
  const ISO = 'an ISO 8601 date-time with its offset, e.g. 2026-11-25T09:00:00Z';
  const SORT = 'dateStart, priority or duration, with a leading - for descending';
  const cases: Array<[query: string, name: string, value: string, rule: string]> = [
    ['state=done', 'state', 'done', 'open, closed or all'],
    ['limit=0', 'limit', '0', WHOLE],
    ['limit=1001', 'limit', '1001', WHOLE],
    ['limit=1.5', 'limit', '1.5', WHOLE],
    ['priorities=2,5', 'priorities', '5', PRIORITY],
    ['priorities=Problem0', 'priorities', 'Problem0', PRIORITY],
    ['configItemIds=1,a', 'configItemIds', 'a', IDS],
    ['configItemIds=0', 'configItemIds', '0', IDS],
    ['triggerIds=2x', 'triggerIds', '2x', IDS],
    ['acknowledged=yes', 'acknowledged', 'yes', 'true or false'],
    ['inMaintenance=1', 'inMaintenance', '1', 'true or false'],
    ['withDescendants=TRUE', 'withDescendants', 'TRUE', 'true or false'],
    ['withTotal=no', 'withTotal', 'no', 'true or false'],
    ['from=yesterday', 'from', 'yesterday', ISO],
    ['to=2026-11-01', 'to', '2026-11-01', ISO],
    ['from=2026-11-01T00:00', 'from', '2026-11-01T00:00', ISO],
    ['from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', 'to', '2026-11-01T00:00:00Z', 'after from'],
    ['from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z', 'to', '2026-11-01T00:00:00Z', 'after from'],
    ['sort=name', 'sort', 'name', SORT],
    ['sort=--dateStart', 'sort', '--dateStart', SORT],
    [Array.from({ length: 51 }, (_, i) => `tags=t${i}`).join('&'), 'tags', '51 tags', 'at most 50'],
    [`search=${'x'.repeat(256)}`, 'search', '256 characters', 'at most 255 characters'],
  ];
  for (const [query, name, value, rule] of cases) {
    const detail = messageOf('problem.query_invalid', { name, value: JSON.stringify(value), rule });
    t.throws(() => parse(query), { code: 'problem.query_invalid', detail }, query.slice(0, 60));
  }
  t.equal(parse(Array.from({ length: 50 }, (_, i) => `tags=t${i}`).join('&')).tags.length, 50, '50 tags are taken');
});

t.test('a cursor reads back as written, for its own sort only; garbage is problem.cursor_invalid', async (t) => {
  const cursor = { value: at(10), start: at(10), id: P };
  const desc = { key: 'dateStart', desc: true } as const;
  t.strictSame(decodeCursor(encodeCursor(cursor, desc), desc), cursor);
  const duration = { key: 'duration', desc: false } as const;
  t.strictSame(decodeCursor(encodeCursor({ ...cursor, value: 5, now: NOW }, duration), duration), { ...cursor, value: 5, now: NOW }, 'a duration cursor keeps its now');
  const refused = { code: 'problem.cursor_invalid' };
  t.throws(() => decodeCursor(encodeCursor(cursor, desc), { key: 'dateStart', desc: false }), refused, 'another direction');
  t.throws(() => decodeCursor(encodeCursor(cursor, desc), { key: 'priority', desc: true }), refused, 'another key');
  t.throws(() => decodeCursor(encodeCursor(cursor, duration), duration), refused, 'a duration cursor without now');
  t.throws(() => parse(`sort=priority&cursor=${encodeCursor(cursor, desc)}`), refused, 'through the query: the sort asked for');
  const wire = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  for (const text of ['not a cursor', wire(null), wire(5), wire({ k: 'dateStart', d: 1, v: 1, s: 1, i: 'x' }), wire({ k: 'dateStart', d: 1, v: '1', s: 1, i: P })]) {
    t.throws(() => decodeCursor(text, desc), refused, text);
  }
});

t.test('matchesProblem: state open takes open problems, closed the closed, all both; a deleted row never', async (t) => {
  const open = {};
  const closed = { end: at(20) };
  t.same([matches('', open), matches('', closed)], [true, false]);
  t.same([matches('state=closed', open), matches('state=closed', closed)], [false, true]);
  t.same([matches('state=all', open), matches('state=all', closed)], [true, true]);
  t.equal(matches('state=all', { deleted: true }), false);
});

t.test('matchesProblem: the CI must be in scope.cis (when set) and not in scope.excluded', async (t) => {
  const scope = { now: NOW, cis: new Set([1, 2]), excluded: new Set([2]) };
  t.same([matches('', { ci: 1 }, scope), matches('', { ci: 2 }, scope), matches('', { ci: 3 }, scope)], [true, false, false]);
});

t.test('matchesProblem: triggerIds, priorities and acknowledged must hold for the row', async (t) => {
  t.same([matches('triggerIds=1,3', { trigger: 3 }), matches('triggerIds=1,3', { trigger: 2 })], [true, false]);
  t.same([matches('priorities=1,2', { priority: 2 }), matches('priorities=1,2', { priority: 3 })], [true, false]);
  t.same([matches('acknowledged=true', { acknowledged: true }), matches('acknowledged=true', {})], [true, false]);
  t.same([matches('acknowledged=false', { acknowledged: true }), matches('acknowledged=false', {})], [false, true]);
});

t.test('matchesProblem: from/to take a problem that overlaps [from, to): started before to, and open or ended after from', async (t) => {
  const window = `state=all&from=${new Date(at(10)).toISOString()}&to=${new Date(at(20)).toISOString()}`;
  t.same(
    [
      matches(window, { start: at(0), end: at(10) }),
      matches(window, { start: at(0), end: at(11) }),
      matches(window, { start: at(0) }),
      matches(window, { start: at(19) }),
      matches(window, { start: at(20) }),
    ],
    [false, true, true, true, false],
  );
});

t.test('matchesProblem: search matches the trigger’s name in any case, or a CI of scope.searchCis', async (t) => {
  t.same([matches('search=DISK', { name: 'Disk full' }), matches('search=cpu', { name: 'Disk full' })], [true, false]);
  t.equal(matches('search=cpu', { name: 'Disk full', ci: 3 }, { now: NOW, searchCis: new Set([3]) }), true);
});

t.test('tags: a filter `name` matches the tag `name` or `name=…`; `name=value` that tag only; every filter must match', async (t) => {
  t.same(
    ['env', 'env=prod', 'env=', 'environment', 'prod'].map((tag) => tagMatches('env', tag)),
    [true, true, true, false, false],
  );
  t.same(
    ['env=prod', 'env=prod2', 'env', 'env=prod=x'].map((tag) => tagMatches('env=prod', tag)),
    [true, false, false, false],
  );
  t.same([matches('tags=env&tags=team=db', { tags: ['env=prod', 'team=db'] }), matches('tags=env&tags=team=db', { tags: ['env=prod'] })], [true, false]);
});

/** A seeded shuffle, so the walk is the same on every run. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  let seed = 42;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Every page of `rows` after the one before, each read through an encoded cursor. */
function walk(rows: readonly RowFacts[], filter: ProblemFilter): RowFacts[] {
  const seen: RowFacts[] = [];
  let cursor = filter.cursor;
  for (let page = 0; page <= rows.length; page++) {
    const now = cursor?.now ?? NOW;
    const next = rows
      .filter((f) => !cursor || afterCursor(f, cursor, filter, now))
      .sort((a, b) => compareProblems(a, b, filter, now))
      .slice(0, filter.limit);
    if (next.length === 0) break;
    seen.push(...next);
    cursor = decodeCursor(encodeCursor(cursorOf(next.at(-1)!, filter, now), filter.sort), filter.sort);
  }
  return seen;
}

t.test('the order is total (sort value, then start, then id) and a walk by cursors returns every row once, in that order', async (t) => {
  const rows = shuffled(
    Array.from({ length: 37 }, (_, i) => facts({ id: problemId(1, 1, `h${i}`), start: at(i % 4), priority: 1 + (i % 3), end: i % 5 === 0 ? null : at((i % 4) + (i % 6)) })),
  );
  const valueOf = { dateStart: (f: RowFacts) => f.start, priority: (f: RowFacts) => f.row.priority, duration: (f: RowFacts) => (f.end ?? NOW) - f.start };
  for (const sort of ['dateStart', '-dateStart', 'priority', '-priority', 'duration', '-duration']) {
    const filter = parse(`state=all&limit=7&sort=${sort}`);
    const walked = walk(rows, filter);
    t.equal(new Set(walked.map((f) => f.row.id)).size, rows.length, `${sort}: every row, once`);
    const value = valueOf[filter.sort.key];
    const inOrder = walked.every((f, i) => {
      if (i === 0) return true;
      const e = walked[i - 1]!;
      const d = value(e) - value(f) || e.start - f.start || (e.row.id < f.row.id ? -1 : 1);
      return filter.sort.desc ? d > 0 : d < 0;
    });
    t.ok(inOrder, `${sort}: each row after the one before`);
  }
});

t.test('resolveScope: configItemIds, with their descendants when asked (an unknown id stays as asked)', async (t) => {
  const model = buildModel({ 1: null, 2: 1, 3: 2, 4: null }, []);
  t.same(resolveScope(model, parse('configItemIds=1&withDescendants=true'), undefined, NOW), { now: NOW, cis: new Set([1, 2, 3]) });
  t.same(resolveScope(model, parse('configItemIds=1,99'), undefined, NOW), { now: NOW, cis: new Set([1, 99]) });
  t.same(resolveScope(model, parse('configItemIds=99&withDescendants=true'), undefined, NOW), { now: NOW, cis: new Set([99]) });
  t.strictSame(resolveScope(model, parse(''), undefined, NOW), { now: NOW }, 'an admin without a CI filter: any CI');
});

t.test('resolveScope: a visibility function keeps only the CIs the caller may see, of those asked or of all', async (t) => {
  const model = buildModel({ 1: null, 2: 1, 3: 2, 4: null }, []);
  const visible = (id: number) => id !== 3;
  const sight = { visible, ids: () => new Set([1, 2, 4]) };
  t.same(resolveScope(model, parse('configItemIds=1&withDescendants=true'), sight, NOW).cis, new Set([1, 2]));
  const all = resolveScope(model, parse(''), sight, NOW);
  t.equal(all.cis, undefined, 'no CI filter of its own');
  t.same([all.visible === visible, all.visibleIds?.()], [true, new Set([1, 2, 4])], "the caller's sight, as a test and as a list");
});

t.test('resolveScope: inMaintenance=true keeps only CIs under maintenance now; false excludes them', async (t) => {
  const now = T0 + H / 2;
  const model = buildModel({ 1: null, 2: 1, 3: 2, 4: null }, [modeRecord(1, T0, T0 + H, [{ ciId: 2 }])]);
  t.same(resolveScope(model, parse('inMaintenance=true'), undefined, now), { now, cis: new Set([2]) });
  t.same(resolveScope(model, parse('inMaintenance=false'), undefined, now), { now, excluded: new Set([2]) });
  t.same(resolveScope(model, parse('inMaintenance=true&configItemIds=3,4'), undefined, now), { now, cis: new Set() }, 'none of those asked');
  t.same(resolveScope(model, parse('inMaintenance=true'), undefined, T0 + H), { now: T0 + H, cis: new Set() }, 'the mode has ended');
});

t.test('resolveScope: search finds the CIs whose name holds the text, within the CIs in scope', async (t) => {
  const model = buildModel({ 1: null, 2: 1, 3: 2, 4: null }, []);
  t.same(resolveScope(model, parse('search=CI-3'), undefined, NOW), { now: NOW, searchCis: new Set([3]) });
  t.same(resolveScope(model, parse('search=ci-3&configItemIds=4'), undefined, NOW), { now: NOW, cis: new Set([4]), searchCis: new Set() });
});

/** A stand-in for the one port method the load uses: its rows come back once `release` is called. */
function heldStore(rows: ProblemRow[]) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const query = async () => {
    await gate;
    return rows.map((r) => ({ ...r, version: String(r.version) }));
  };
  return { store: { query } as unknown as AnalyticsStore, release };
}
const idOf = (name: string) => problemId(1, 1, name);
const held = (open: OpenProblems) => [...open.values()].map((f) => [f.row.id, f.row.version]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
const sorted = (pairs: Array<[string, number]>) => pairs.sort((a, b) => a[0].localeCompare(b[0]));

t.test('OpenProblems: feed rows that arrive while loading are held, then merged with the stored rows by version', async (t) => {
  const [a, b, c, d, e, f] = ['a', 'b', 'c', 'd', 'e', 'f'].map(idOf) as [string, string, string, string, string, string];
  const { store, release } = heldStore([row({ id: a, version: 3 }), row({ id: b, version: 3 }), row({ id: c, version: 3 }), row({ id: d, version: 2 })]);
  const open = new OpenProblems();
  const loading = open.load(store);
  open.apply(row({ id: a, version: 4, end: at(30) }));
  open.apply(row({ id: b, version: 2 }));
  open.apply(row({ id: d, version: 4 }));
  open.apply(row({ id: d, version: 3, end: at(30) }));
  open.apply(row({ id: e, version: 1 }));
  open.apply(row({ id: f, version: 5, deleted: true }));
  t.same([open.loaded, open.size], [false, 0], 'nothing is served before the load ends');
  release();
  await loading;
  t.equal(open.loaded, true);
  t.same(
    held(open),
    sorted([
      [b, 3],
      [c, 3],
      [d, 4],
      [e, 1],
    ]),
    'a closed by a newer feed row; b’s older feed row ignored; d’s older close ignored; e added; f deleted',
  );
});

t.test('OpenProblems once loaded: a row replaces the one held unless older; a closed or deleted row removes it', async (t) => {
  const open = new OpenProblems();
  const { store, release } = heldStore([row({ id: idOf('a'), version: 2 })]);
  release();
  await open.load(store);
  open.apply(row({ id: idOf('a'), version: 1, priority: 4 }));
  t.equal(open.get(idOf('a'))?.row.priority, 2, 'an older row is ignored');
  open.apply(row({ id: idOf('a'), version: 2, priority: 1 }));
  t.equal(open.get(idOf('a'))?.row.priority, 1, 'the same version replaces it');
  open.apply(row({ id: idOf('b'), version: 1 }));
  open.apply(row({ id: idOf('a'), version: 3, end: at(40) }));
  open.apply(row({ id: idOf('b'), version: 2, deleted: true }));
  t.same([open.size, open.get(idOf('a')), open.get(idOf('b'))], [0, undefined, undefined]);
});

/**
 * Lists #1 and filter #3 on 2 000 modes (spec 4.2, 8; DESIGN §8): sorting on every scalar
 * column both ways, paging (default 1000, -1 all), search, the filter body, and their 400s.
 * Modes are seeded through the control plane with the create command; every expectation comes
 * from an oracle over what was seeded.
 */
import t from 'tap';
import type { Actor } from '../../../services/control-plane/cmdb/ci-checks.js';
import { createMode, editMode } from '../../../services/control-plane/maintenance/maintenance.commands.js';
import { isProblem, Kit, MAINT, MIN } from './maintenance-kit.js';

const COUNT = 2000;
const kit = new Kit();

interface Seeded {
  id: number;
  title: string | null;
  start: number;
  end: number;
  canceled: boolean;
  labels: Record<string, string>;
  ciId: number;
}
const seeded: Seeded[] = [];
const cis: number[] = [];

t.before(async () => {
  await kit.start();
  const wg = await kit.workGroup();
  for (let i = 0; i < 20; i++) cis.push(await kit.ci(wg));
  const actor: Actor = { userId: 1, userName: 'admin', subject: { workGroupIds: new Set(), admin: true } };
  const cp = kit.p.platform.controlPlane;
  const now = kit.clock;
  for (let i = 0; i < COUNT; i++) {
    const start = now + (((i * 7919) % COUNT) - COUNT / 2) * MIN;
    const end = Math.max(start, now) + (((i * 31) % 100) + 1) * MIN;
    const title = i % 10 === 0 ? null : `${i % 3 === 0 ? 'Patch' : 'window'} ${String(i).padStart(4, '0')}`;
    const labels: Record<string, string> = i % 4 === 0 ? { team: i % 8 === 0 ? 'Storage' : 'network' } : {};
    const ciId = cis[i % cis.length]!;
    const input = { title, start, end, scope: [{ ciId, scope: 'Ci' as const, depth: -1 }], labels, cancel: false };
    const id = await cp.execute(createMode(input, { batchValidate: true }, actor, now));
    const canceled = i % 13 === 0 && start > now;
    if (canceled) await cp.execute(editMode(id, { cancel: true }, { batchValidate: false }, actor, now));
    seeded.push({ id, title, start, end, canceled, labels, ciId });
  }
  // Modes ending in the next half hour complete, so every state is present.
  kit.clock += 30 * MIN;
});
t.teardown(() => kit.stop());

const ORDER = { Scheduled: 0, Active: 1, Completed: 2, Canceled: 3 } as const;
const stateOf = (m: Seeded): keyof typeof ORDER => (m.canceled ? 'Canceled' : kit.clock < m.start ? 'Scheduled' : kit.clock < m.end ? 'Active' : 'Completed');
const key: Record<string, (m: Seeded) => number | string | null> = {
  id: (m) => m.id,
  title: (m) => m.title,
  dateStart: (m) => m.start,
  dateEnd: (m) => m.end,
  state: (m) => ORDER[stateOf(m)],
};
function oracle(col: string, dir: 'asc' | 'desc', modes: Seeded[] = seeded): number[] {
  const cmp = (a: Seeded, b: Seeded): number => {
    const x = key[col]!(a);
    const y = key[col]!(b);
    const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
    return (dir === 'asc' ? c : -c) || a.id - b.id;
  };
  return [...modes].sort(cmp).map((m) => m.id);
}
const ids = (answer: { body: Array<{ id: number }> }) => answer.body.map((m) => m.id);

t.test('every state is present in the seeded set', async (t) => {
  const states = new Set(seeded.map(stateOf));
  t.same([...states].sort(), ['Active', 'Canceled', 'Completed', 'Scheduled']);
});

t.test('perPage=-1 returns all modes; the default is id ascending, 1000 per page', async (t) => {
  const all = await kit.list('?perPage=-1');
  t.equal(all.status, 200);
  t.equal(all.body.length, COUNT);
  t.same(ids(all), oracle('id', 'asc'));
  const first = await kit.list();
  t.same(ids(first), oracle('id', 'asc').slice(0, 1000), 'page 1 by default');
  t.same(ids(await kit.list('?page=2')), oracle('id', 'asc').slice(1000, 2000));
  t.same((await kit.list('?page=3')).body, [], 'a page past the end is empty');
  const one = all.body.find((m: any) => m.id === seeded[5]!.id);
  t.same(one, (await kit.get(one.id)).body, 'list items are the full model');
});

for (const col of ['id', 'title', 'dateStart', 'dateEnd', 'state']) {
  for (const dir of ['asc', 'desc'] as const) {
    t.test(`sortCol=${col} sortDir=${dir}: whole order and pages of 300`, async (t) => {
      const expected = oracle(col, dir);
      t.same(ids(await kit.list(`?sortCol=${col}&sortDir=${dir}&perPage=-1`)), expected);
      const pages: number[] = [];
      for (let page = 1; page <= 7; page++) pages.push(...ids(await kit.list(`?sortCol=${col}&sortDir=${dir}&perPage=300&page=${page}`)));
      t.same(pages, expected, 'pages concatenate to the whole order');
    });
  }
}

t.test('search matches mode id and CI id exactly, title and labels case-insensitively', async (t) => {
  const matching = (s: string) => {
    const text = s.toLowerCase();
    const has = (v: string | null) => v?.toLowerCase().includes(text);
    return seeded.filter((m) => String(m.id) === s || String(m.ciId) === s || has(m.title) || Object.entries(m.labels).some(([k, v]) => has(k) || has(v)));
  };
  const probe = seeded[123]!;
  const byId = await kit.list(`?perPage=-1&search=${probe.id}`);
  t.ok(ids(byId).includes(probe.id), 'the mode with that id');
  t.same(ids(byId), oracle('id', 'asc', matching(String(probe.id))), 'and the modes whose title holds the digits');
  const byCi = await kit.list(`?perPage=-1&search=${cis[3]}`);
  t.ok(
    seeded.filter((m) => m.ciId === cis[3]).every((m) => ids(byCi).includes(m.id)),
    'every mode on that CI',
  );
  t.same(ids(byCi), oracle('id', 'asc', matching(String(cis[3]))), 'CI id in scope');
  const patch = seeded.filter((m) => m.title?.toLowerCase().includes('patch'));
  t.same(ids(await kit.list('?perPage=-1&search=pATCH')), oracle('id', 'asc', patch), 'title, any case');
  const storage = seeded.filter((m) => m.labels['team'] === 'Storage');
  t.same(ids(await kit.list('?perPage=-1&search=storage')), oracle('id', 'asc', storage), 'label value');
  t.equal((await kit.list('?perPage=-1&search=TEAM')).body.length, seeded.filter((m) => 'team' in m.labels).length, 'label key');
  t.same(
    ids(await kit.list('?sortCol=dateEnd&sortDir=desc&perPage=10&page=2&search=window')),
    oracle(
      'dateEnd',
      'desc',
      seeded.filter((m) => m.title?.includes('window')),
    ).slice(10, 20),
    'search, sort and page together',
  );
  t.same((await kit.list('?search=no-such-thing')).body, []);
});

t.test('bad sortCol, sortDir, page or perPage: 400 naming the parameter', async (t) => {
  for (const [query, path] of [
    ['?sortCol=configItems', '/sortCol'],
    ['?sortCol=labels', '/sortCol'],
    ['?sortCol=nope', '/sortCol'],
    ['?sortDir=sideways', '/sortDir'],
    ['?page=0', '/page'],
    ['?page=-1', '/page'],
    ['?page=two', '/page'],
    ['?perPage=0', '/perPage'],
    ['?perPage=-5', '/perPage'],
    ['?perPage=1e3', '/perPage'],
  ] as const) {
    isProblem(t, await kit.list(query), 400, 'bad-request', undefined, path);
    isProblem(t, await kit.filter({ ids: [1] }, query), 400, 'bad-request', undefined, path);
  }
});

t.test('#3 filter: OR inside an array, AND across fields, with sorting and paging', async (t) => {
  const some = [seeded[1]!.id, seeded[2]!.id, seeded[999]!.id, 987_654];
  t.same(ids(await kit.filter({ ids: some })), some.slice(0, 3), 'ids OR; an unknown id matches nothing');
  const onCis = seeded.filter((m) => m.ciId === cis[0] || m.ciId === cis[1]);
  t.same(ids(await kit.filter({ configItemIds: [cis[0], cis[1]] }, '?perPage=-1')), oracle('id', 'asc', onCis));
  const from = kit.clock - 100 * MIN;
  const to = kit.clock + 100 * MIN;
  const window = seeded.filter((m) => m.start >= from && m.start <= to);
  const range = { dateStart: { moreThanOrEqual: new Date(from).toISOString(), lessThanOrEqual: new Date(to).toISOString() } };
  t.same(ids(await kit.filter(range, '?perPage=-1&sortCol=dateStart')), oracle('dateStart', 'asc', window));
  const both = window.filter((m) => m.ciId === cis[0]);
  t.same(ids(await kit.filter({ ...range, configItemIds: [cis[0]] }, '?perPage=-1')), oracle('id', 'asc', both), 'AND across fields');
  const probe = seeded[42]!;
  const equal = { dateEnd: { Equal: new Date(probe.end).toISOString().replace('Z', '+00:00') } };
  t.same(
    ids(await kit.filter(equal, '?perPage=-1')),
    oracle(
      'id',
      'asc',
      seeded.filter((m) => m.end === probe.end),
    ),
    'Equal on the end',
  );
  t.same(
    ids(await kit.filter({ configItemIds: [cis[0]] }, '?perPage=5&page=2&sortDir=desc')),
    oracle(
      'id',
      'desc',
      seeded.filter((m) => m.ciId === cis[0]),
    ).slice(5, 10),
  );
});

t.test('#3 400: an empty filter, an invalid model, a date without offset; 415 when not JSON', async (t) => {
  for (const empty of [{}, { ids: null }, { ids: [], configItemIds: [] }, { dateStart: {} }, { dateEnd: { Equal: null } }]) {
    isProblem(t, await kit.filter(empty), 400, 'bad-request', /The filter is empty/);
  }
  isProblem(t, await kit.filter({ ids: 'all' }), 400, 'validation', undefined, '/ids');
  isProblem(
    t,
    await kit.filter({ dateStart: { moreThanOrEqual: '2026-11-21T10:00:00' } }),
    400,
    'bad-request',
    /dateStart\.moreThanOrEqual has no UTC offset/,
    '/dateStart/moreThanOrEqual',
  );
  isProblem(t, await kit.api('POST', `${MAINT}/filter`, { body: '', headers: { 'content-type': 'application/json' } }), 400, 'empty-body');
  isProblem(t, await kit.api('POST', `${MAINT}/filter`, { body: 'ids=1', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported-media-type');
  isProblem(t, await kit.api('POST', `${MAINT}/filter`, { json: { ids: [1] }, token: null }), 401, 'unauthorized');
});

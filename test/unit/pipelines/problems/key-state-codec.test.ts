/** How a key's state is stored (pipelines/problems/key-state-codec.ts): packed, unpacked, the same. */
import t from 'tap';
import { applyToKey, type KeyState } from '../../../../pipelines/problems/key-state.js';
import { packHits, packKeyState, repackHits, unpackHits, unpackKeyState } from '../../../../pipelines/problems/key-state-codec.js';
import type { Hit } from '../../../../pipelines/problems/problem-timeline.js';

const FACTS = { name: 'cpu', influence: { value: 10, maxInfluence: true }, tags: [{ id: 3, name: 'prod', colorName: 'blue' }] };
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const incident = { connectorId: 7, connectorName: 'desk', id: 'INC-1', type: 'ticket' };

function stateOf(hits: Hit[]): KeyState {
  const state = applyToKey(undefined, 4, 9, { hits }, FACTS).state;
  if (!state) throw new Error('no state');
  return state;
}

t.test('a packed state unpacks to the same state, every hit with its date, kind, priority and incidents', async (t) => {
  const state = stateOf([
    { id: 'e1', ts: T0, resolve: false, priority: 3, incidents: [incident] },
    { id: 'e2', ts: T0 + 1000, resolve: false, priority: 1, incidents: [] },
    { id: 'e3', ts: T0 + 2000, resolve: true, priority: 4, incidents: [] },
    { id: 'e4', ts: T0 + 3000, resolve: false, priority: 2, incidents: [incident, { ...incident, id: 'INC-2' }] },
  ]);
  const packed = packKeyState(state);
  t.equal(typeof packed.hits.ids, 'string', 'ids in one string');
  t.same(unpackKeyState(JSON.parse(JSON.stringify(packed))), state, 'through JSON too (the Redis adapter)');
});

t.test('ids holding a newline are kept as a list', async (t) => {
  const state = stateOf([
    { id: 'line\nbreak', ts: T0, resolve: false, priority: 2, incidents: [] },
    { id: 'plain', ts: T0 + 1, resolve: true, priority: 2, incidents: [] },
  ]);
  const packed = packKeyState(state);
  t.same(packed.hits.ids, ['line\nbreak', 'plain']);
  t.same(unpackKeyState(packed), state);
});

t.test('a state without hits packs and unpacks', async (t) => {
  const state: KeyState = { ...stateOf([{ id: 'x', ts: T0, resolve: true, priority: 2, incidents: [] }]), hits: [] };
  t.same(unpackKeyState(packKeyState(state)).hits, []);
});

t.test('a change that folds hits off the front and appends newer ones repacks to what packing it whole gives', async (t) => {
  const hitAt = (n: number): Hit => ({
    id: `e${n}`,
    ts: T0 + n * 1500 + (n % 3),
    resolve: n % 4 === 0,
    priority: (1 + (n % 4)) as 1 | 2 | 3 | 4,
    incidents: n % 5 === 0 ? [incident] : [],
  });
  let hits = Array.from({ length: 10 }, (_, n) => hitAt(n));
  let packed = packHits(hits);
  let next = 10;
  for (const [drop, add] of [
    [0, 3],
    [2, 1],
    [5, 5],
    [0, 0],
    [1, 0],
    [12, 2],
    [0, 40],
  ] as const) {
    const after = [...hits.slice(drop), ...Array.from({ length: add }, () => hitAt(next++))];
    const repacked = repackHits(hits, packed, after);
    t.same(repacked, packHits(after), `drop ${drop}, add ${add}`);
    t.same(unpackHits(JSON.parse(JSON.stringify(repacked))), after, `drop ${drop}, add ${add}: unpacks to the hits`);
    hits = after;
    packed = repacked;
  }
});

t.test('a change that re-sorted the hits (a late one in the middle) is packed whole', async (t) => {
  const hits: Hit[] = [0, 2, 4].map((n) => ({ id: `e${n}`, ts: T0 + n, resolve: false, priority: 2, incidents: [] }));
  const late: Hit = { id: 'late', ts: T0 + 3, resolve: true, priority: 2, incidents: [] };
  const after = [hits[0]!, hits[1]!, late, hits[2]!];
  t.same(repackHits(hits, packHits(hits), after), packHits(after));
  t.same(unpackHits(repackHits(hits, packHits(hits), after)), after);
});

t.test('a state stored with its dates as numbers (before they were packed) still unpacks', async (t) => {
  const stored = { ids: 'a\nb', ts: [T0, T0 + 5], flags: '2b', incidents: [] };
  t.same(unpackHits(stored), [
    { id: 'a', ts: T0, resolve: false, priority: 2, incidents: [] },
    { id: 'b', ts: T0 + 5, resolve: true, priority: 2, incidents: [] },
  ]);
});

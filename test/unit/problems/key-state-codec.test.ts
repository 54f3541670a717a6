/** How a key's state is stored (pipelines/problems/key-state-codec.ts): packed, unpacked, the same. */
import t from 'tap';
import { applyToKey, type KeyState } from '../../../pipelines/problems/key-state.js';
import { packKeyState, unpackKeyState } from '../../../pipelines/problems/key-state-codec.js';
import type { Hit } from '../../../pipelines/problems/problem-timeline.js';

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

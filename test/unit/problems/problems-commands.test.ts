/** Problem keys, CI state and health (DESIGN §7) on an in-memory control model (no journal). */
import t from 'tap';
import { problemId, type PriorityNumber } from '../../../pipelines/problems/problem-timeline.js';
import type { KeyedHit } from '../../../pipelines/problems/trigger-match.js';
import type { TriggerModel } from '../../../schemas/trigger.schema.js';
import { ciHealth, ciState, directHealth } from '../../../services/control-plane/problems/ci-state.js';
import { applyHits, closeProblemsOfCi } from '../../../services/control-plane/problems/problems.commands.js';
import type { ProblemKeyRecord } from '../../../services/control-plane/problems/problems.types.js';
import { createControlModel, type PlatformCommand, type PlatformModel } from '../../../services/control-plane/slices.js';
import { ciRecord, modeRecord } from '../maintenance/model-fixture.js';

const MIN = 60_000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;

function triggerRecord(id: number, influence: { value: number; maxInfluence: boolean }): TriggerModel {
  return {
    id, name: `trigger ${id}`, description: '', enabled: true, streamIds: [1], match: [], ci: { by: 'idField', field: 'ci' }, priority: { value: 2 },
    resolve: { field: 'status', values: ['ok'] }, tags: [], incidents: [], influence, createdAt: '', updatedAt: '',
  };
}

/**
 * CIs 1..5 (roots) where 2 depends on 1 and 3 on 2 (influence chain 1 ▸ 2 ▸ 3), and 5 on both 1
 * and 4; triggers 1 (influence 30), 2 (60) and 3 (maxInfluence); model at revision 1.
 */
function model(): PlatformModel {
  const m = createControlModel();
  const influential: Record<number, number[]> = { 2: [1], 3: [2], 5: [1, 4] };
  const records = new Map<string, unknown>();
  for (const id of [1, 2, 3, 4, 5]) records.set(`ci:${id}`, { ...ciRecord(id, null), influentialIds: influential[id] ?? [] });
  records.set('trigger:1', triggerRecord(1, { value: 30, maxInfluence: false }));
  records.set('trigger:2', triggerRecord(2, { value: 60, maxInfluence: false }));
  records.set('trigger:3', triggerRecord(3, { value: 10, maxInfluence: true }));
  m.load(records, 1);
  return m;
}

/** Runs a command and applies its changes as the journal would; returns its changes and result. */
function run<R>(m: PlatformModel, command: PlatformCommand<R>) {
  const outcome = command(m);
  if (outcome.changes.length > 0) m.applyEntry({ revision: m.revision + 1, changes: outcome.changes });
  return { changes: outcome.changes, result: outcome.result(m) };
}

const hit = (triggerId: number, ciId: number, id: string, minutes: number, resolve = false, priority: PriorityNumber = 2): KeyedHit => ({
  triggerId,
  ciId,
  hit: { id, ts: at(minutes), resolve, priority, incidents: [] },
});
const opens = (triggerId: number, ciId: number, id: string, minutes: number) => hit(triggerId, ciId, id, minutes);
const resolves = (triggerId: number, ciId: number, id: string, minutes: number) => hit(triggerId, ciId, id, minutes, true);
const keyOf = (m: PlatformModel, triggerId: number, ciId: number): ProblemKeyRecord | undefined => m.slices.problems.keys.get(`pkey:${triggerId}:${ciId}`);

t.test('applyHits changes one record per key, with version = the revision it is committed at', async (t) => {
  const m = model();
  const { changes, result } = run(m, applyHits([opens(1, 1, 'a', 10), opens(1, 2, 'b', 10), opens(1, 1, 'c', 20)]));
  t.same(changes.map((c) => c.key), ['pkey:1:1', 'pkey:1:2']);
  t.same(changes.map((c) => (c.value as ProblemKeyRecord).version), [2, 2]);
  t.same(result, { placed: 3, tooLate: 0, keysChanged: 2 });
  t.equal(m.revision, 2);
  t.equal(keyOf(m, 1, 1)?.hits.length, 2);

  const next = run(m, applyHits([opens(1, 2, 'd', 30)]));
  t.same(next.changes.map((c) => [c.key, (c.value as ProblemKeyRecord).version]), [['pkey:1:2', 3]]);
  t.equal(keyOf(m, 1, 1)?.version, 2, 'a key left alone keeps its version');
});

t.test('hits that change nothing give no change: redelivery', async (t) => {
  const m = model();
  run(m, applyHits([opens(1, 1, 'a', 10), opens(1, 2, 'b', 10)]));
  const again = run(m, applyHits([opens(1, 1, 'a', 10), opens(1, 2, 'b', 10)]));
  t.same(again.changes, []);
  t.same(again.result, { placed: 0, tooLate: 0, keysChanged: 0 });
  t.equal(m.revision, 2);
  const mixed = run(m, applyHits([opens(1, 1, 'a', 10), resolves(1, 2, 'r', 20)]));
  t.same(mixed.changes.map((c) => c.key), ['pkey:1:2'], 'only the key with a new hit');
  t.same(mixed.result, { placed: 1, tooLate: 0, keysChanged: 1 });
});

t.test('the record holds the open problem; changedAt is the last opening or closing', async (t) => {
  const m = model();
  run(m, applyHits([opens(1, 1, 'a', 10), opens(1, 1, 'b', 20)]));
  t.same(keyOf(m, 1, 1)?.open, { id: problemId(1, 1, 'a'), start: at(10), end: null, lastEventAt: at(20), priority: 2, incidents: [] });
  t.equal(keyOf(m, 1, 1)?.changedAt, at(10), 'a refresh is no change of state');
  t.same(keyOf(m, 1, 1)?.influence, { value: 30, maxInfluence: false }, 'the trigger’s influence at the change');
  run(m, applyHits([resolves(1, 1, 'r', 30)]));
  t.equal(keyOf(m, 1, 1)?.open, null);
  t.equal(keyOf(m, 1, 1)?.changedAt, at(30));
  run(m, applyHits([opens(1, 1, 'c', 40)]));
  t.equal(keyOf(m, 1, 1)?.open?.id, problemId(1, 1, 'c'));
  t.equal(keyOf(m, 1, 1)?.changedAt, at(40));
  run(m, applyHits([opens(1, 1, 'd', 50)]));
  t.equal(keyOf(m, 1, 1)?.changedAt, at(40));
});

t.test('a late hit that re-orders a problem away lists its id in removedIds', async (t) => {
  const m = model();
  run(m, applyHits([opens(1, 1, 'b', 20)]));
  run(m, applyHits([opens(1, 1, 'a', 10)]));
  t.same(keyOf(m, 1, 1)?.removedIds, [problemId(1, 1, 'b')]);
  t.equal(keyOf(m, 1, 1)?.open?.id, problemId(1, 1, 'a'));
  run(m, applyHits([opens(1, 1, 'c', 30)]));
  t.same(keyOf(m, 1, 1)?.removedIds, [], 'only the last change’s');
});

t.test('problems folded out of the late window are listed once in folded; an open one is carried', async (t) => {
  const m = model();
  const limits = { lateWindowMs: 60 * MIN, maxHits: 100 };
  run(m, applyHits([opens(1, 1, 'a', 0), resolves(1, 1, 'r', 10)], limits));
  t.same(keyOf(m, 1, 1)?.folded, []);
  run(m, applyHits([opens(1, 1, 'b', 200)], limits));
  t.same(keyOf(m, 1, 1)?.folded, [{ id: problemId(1, 1, 'a'), start: at(0), end: at(10), lastEventAt: at(0), priority: 2, incidents: [] }]);
  t.equal(keyOf(m, 1, 1)?.settledUntil, at(200));
  run(m, applyHits([opens(1, 1, 'c', 400)], limits));
  t.same(keyOf(m, 1, 1)?.folded, [], 'the open problem is carried, not folded');
  t.equal(keyOf(m, 1, 1)?.carry?.id, problemId(1, 1, 'b'));
  t.equal(keyOf(m, 1, 1)?.open?.id, problemId(1, 1, 'b'));
  const late = run(m, applyHits([opens(1, 1, 'x', 100)], limits));
  t.same(late.result, { placed: 0, tooLate: 1, keysChanged: 0 });
  t.same(late.changes, []);
});

t.test('closeProblemsOfCi resolves the CI’s open problems at the delete, and only those', async (t) => {
  const m = model();
  run(m, applyHits([opens(1, 1, 'a', 10), opens(2, 1, 'b', 10), resolves(2, 1, 'r', 20), opens(1, 2, 'c', 10)]));
  const changes = closeProblemsOfCi(m, 1, at(30));
  t.same(changes.map((c) => c.key), ['pkey:1:1']);
  const record = changes[0]?.value as ProblemKeyRecord;
  t.equal(record.open, null);
  t.equal(record.version, 3);
  t.equal(record.changedAt, at(30));
  m.applyEntry({ revision: 3, changes });
  t.equal(ciState(m, 1, at(31)).value, 'Ok');
  t.equal(ciState(m, 2, at(31)).value, 'Problem', 'another CI’s problems stay open');
  t.same(closeProblemsOfCi(m, 1, at(40)), [], 'nothing open: nothing to close');
});

t.test('closeProblemsOfCi at or before the last event still closes the problem', async (t) => {
  // Event ids are hex UUIDs: one sorting after "ci-deleted:…" on the resolve's date must not leave the problem open.
  for (const eventId of ['0a1b2c3d-0000-0000-0000-000000000001', 'f0e1d2c3-0000-0000-0000-000000000001']) {
    for (const deletedAt of [5, 10]) {
      const m = model();
      run(m, applyHits([opens(1, 1, eventId, 10)]));
      const record = closeProblemsOfCi(m, 1, at(deletedAt))[0]?.value as ProblemKeyRecord | undefined;
      t.equal(record?.open, null, `event ${eventId} at minute 10, delete at minute ${deletedAt}: no problem left open`);
    }
  }
});

t.test('CI state: Unknown before any hit, Problem with an open problem, Ok with none', async (t) => {
  const m = model();
  t.same(ciState(m, 1, at(0)), { value: 'Unknown', valueUnderMaintenance: 'Unknown', changedAt: null });
  run(m, applyHits([opens(1, 1, 'a', 10), opens(2, 1, 'b', 15)]));
  t.same(ciState(m, 1, at(16)), { value: 'Problem', valueUnderMaintenance: 'Unknown', changedAt: at(15) });
  run(m, applyHits([resolves(1, 1, 'r', 20)]));
  t.equal(ciState(m, 1, at(21)).value, 'Problem', 'one of two problems still open');
  run(m, applyHits([resolves(2, 1, 's', 25)]));
  t.same(ciState(m, 1, at(26)), { value: 'Ok', valueUnderMaintenance: 'Unknown', changedAt: at(25) });
});

t.test('CI state changedAt is the first hit’s date when no hit ever opened a problem', async (t) => {
  const m = model();
  run(m, applyHits([resolves(1, 1, 'r', 10)]));
  t.same(ciState(m, 1, at(11)), { value: 'Ok', valueUnderMaintenance: 'Unknown', changedAt: at(10) }, 'Unknown turned Ok at the hit');
});

t.test('valueUnderMaintenance repeats the value while a maintenance mode covers the CI', async (t) => {
  const m = model();
  m.applyEntry({ revision: 2, changes: [{ key: 'maint:1', value: modeRecord(1, at(100), at(200), [{ ciId: 1 }]) }] });
  run(m, applyHits([opens(1, 1, 'a', 10)]));
  t.same(ciState(m, 1, at(99)).valueUnderMaintenance, 'Unknown');
  t.same(ciState(m, 1, at(100)).valueUnderMaintenance, 'Problem');
  t.same(ciState(m, 1, at(200)).valueUnderMaintenance, 'Unknown', 'the end is exclusive');
  t.same(ciState(m, 2, at(150)).valueUnderMaintenance, 'Unknown', 'another CI is not covered');
});

t.test('direct health is 100 − the largest influence of the open problems; maxInfluence counts 100', async (t) => {
  const m = model();
  t.equal(directHealth(m, 4), 100, 'no problem');
  run(m, applyHits([opens(1, 4, 'a', 10), opens(2, 4, 'b', 10)]));
  t.equal(directHealth(m, 4), 40, 'influences 30 and 60: the largest counts');
  run(m, applyHits([resolves(2, 4, 'r', 20)]));
  t.equal(directHealth(m, 4), 70);
  run(m, applyHits([opens(3, 4, 'c', 30)]));
  t.equal(directHealth(m, 4), 0, 'maxInfluence, whatever its value');
  run(m, applyHits([resolves(1, 4, 's', 40), resolves(3, 4, 'u', 40)]));
  t.equal(directHealth(m, 4), 100);
});

t.test('direct health reads the trigger’s current influence, and the key’s once the trigger is gone', async (t) => {
  const m = model();
  run(m, applyHits([opens(1, 4, 'a', 10)]));
  m.applyEntry({ revision: m.revision + 1, changes: [{ key: 'trigger:1', value: triggerRecord(1, { value: 45, maxInfluence: false }) }] });
  t.equal(directHealth(m, 4), 55);
  m.applyEntry({ revision: m.revision + 1, changes: [{ key: 'trigger:1', value: null }] });
  t.equal(directHealth(m, 4), 70, 'the influence recorded at the last change (30)');
});

t.test('health propagates along influence links: the minimum of its own and each influential CI’s', async (t) => {
  const m = model();
  run(m, applyHits([opens(1, 1, 'a', 10)]));
  t.same(ciHealth(m, 3), { value: 70, direct: 100, changedAt: at(10) }, 'CI 1 ▸ 2 ▸ 3');
  t.same(ciHealth(m, 1), { value: 70, direct: 70, changedAt: at(10) });
  run(m, applyHits([opens(2, 2, 'b', 20)]));
  t.same(ciHealth(m, 3), { value: 40, direct: 100, changedAt: at(20) });
  t.same(ciHealth(m, 1).value, 70, 'nothing flows against the links');
  run(m, applyHits([opens(3, 4, 'c', 30)]));
  t.same(ciHealth(m, 5), { value: 0, direct: 100, changedAt: at(30) }, 'the worst of two influential CIs');
  t.same(ciHealth(m, 3).value, 40, 'CI 4 does not influence CI 3');
  t.same(ciHealth(m, 4), { value: 0, direct: 0, changedAt: at(30) });
});

/** A model whose problem rows are being written, with nothing left to write. */
function projectingModel(): PlatformModel {
  const m = model();
  m.slices.problems.startProjecting();
  m.slices.problems.takeUnprojected();
  return m;
}

t.test('a key changed twice before its rows are written still has the first change’s removed problem written as deleted', async (t) => {
  const m = projectingModel();
  run(m, applyHits([opens(1, 1, 'b', 20)]));
  run(m, applyHits([opens(1, 1, 'a', 10)]));
  run(m, applyHits([opens(1, 1, 'c', 30)]));
  const [written] = m.slices.problems.takeUnprojected();
  t.same(written?.removedIds, [problemId(1, 1, 'b')], 'removed by the second change, not named by the last record');
  t.equal(written?.version, keyOf(m, 1, 1)?.version, 'with the last change’s version');
  t.same(m.slices.problems.takeUnprojected(), [], 'written once');
});

t.test('a problem removed and then back in the window before the write is not written as deleted', async (t) => {
  const m = projectingModel();
  run(m, applyHits([opens(1, 1, 'b', 20), resolves(1, 1, 'r', 25)]));
  run(m, applyHits([opens(1, 1, 'a', 10)]));
  t.same(keyOf(m, 1, 1)?.removedIds, [problemId(1, 1, 'b')]);
  run(m, applyHits([resolves(1, 1, 'q', 15)]));
  const [written] = m.slices.problems.takeUnprojected();
  t.ok(written && !written.removedIds.includes(problemId(1, 1, 'b')), `b is live again: ${JSON.stringify(written?.removedIds)}`);
});

t.test('a key changed twice before its rows are written keeps the first change’s folded problem', async (t) => {
  const m = model();
  const limits = { lateWindowMs: 60 * MIN, maxHits: 100 };
  m.slices.problems.startProjecting();
  run(m, applyHits([opens(1, 1, 'a', 0), resolves(1, 1, 'r', 10)], limits));
  m.slices.problems.takeUnprojected();
  run(m, applyHits([opens(1, 1, 'b', 200)], limits));
  run(m, applyHits([opens(1, 1, 'c', 400)], limits));
  t.same(keyOf(m, 1, 1)?.folded, [], 'the last record folds nothing');
  const [written] = m.slices.problems.takeUnprojected();
  t.same(written?.folded.map((p) => p.id), [problemId(1, 1, 'a')]);
});

t.test('keys put back after a failed write keep what they carried, merged with later changes', async (t) => {
  const m = projectingModel();
  run(m, applyHits([opens(1, 1, 'b', 20)]));
  run(m, applyHits([opens(1, 1, 'a', 10)]));
  m.slices.problems.requeue(m.slices.problems.takeUnprojected());
  run(m, applyHits([opens(1, 1, 'c', 30)]));
  const [written] = m.slices.problems.takeUnprojected();
  t.same(written?.removedIds, [problemId(1, 1, 'b')]);
});

/**
 * CI state and health (DESIGN §7) from the problem summary slice (DESIGN §7a), on an in-memory
 * control model fed `popen` / `pclose` records as the journal would; the closes the control
 * plane decides, and the ones the close sweep hands to the problem stage.
 */
import t from 'tap';
import type { InfluenceFacts } from '../../../../../pipelines/problems/key-state.js';
import { ciHealth, ciState, directHealth } from '../../../../../services/control-plane/problems/ci-state.js';
import { closeProblemsOfCi, closeProblemsOfTrigger } from '../../../../../services/control-plane/problems/problems.commands.js';
import type { KeySummaryRecord, PendingCloseRecord } from '../../../../../services/control-plane/problems/problems.types.js';
import { createControlModel } from '../../../../../services/control-plane/slices.js';
import type { PlatformModel } from '../../../../../services/control-plane/model.js';
import { closesDue } from '../../../../../services/event-worker/problem-stage/close-sweep.js';
import type { JournalChange } from '../../../../../services/runtime/adapters/journal/journal.port.js';
import { ciRecord, modeRecord, triggerRecord } from '../../../../support/model-fixture.js';

const MIN = 60_000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;

const INFLUENCE: Record<number, InfluenceFacts> = {
  1: { value: 30, maxInfluence: false },
  2: { value: 60, maxInfluence: false },
  3: { value: 10, maxInfluence: true },
};

/**
 * CIs 1..5 (roots) where 2 depends on 1 and 3 on 2 (influence chain 1 ▸ 2 ▸ 3), and 5 on both 1
 * and 4; triggers 1 (influence 30), 2 (60) and 3 (maxInfluence); model at revision 1.
 */
function model(): PlatformModel {
  const m = createControlModel();
  const influential: Record<number, number[]> = { 2: [1], 3: [2], 5: [1, 4] };
  const records = new Map<string, unknown>();
  for (const id of [1, 2, 3, 4, 5]) records.set(`ci:${id}`, { ...ciRecord(id, null), influentialIds: influential[id] ?? [] });
  for (const id of [1, 2, 3]) records.set(`trigger:${id}`, triggerRecord({ id, influence: INFLUENCE[id]! }));
  m.load(records, 1);
  return m;
}

/** Commits the changes as the next journal entry. */
function commit(m: PlatformModel, ...changes: JournalChange[]): void {
  const applied = m.applyEntry({ revision: m.revision + 1, changes });
  if (applied !== 'applied') throw new Error(`entry not applied: ${applied}`);
}

/** A `popen` record: the key's summary as the problem stage writes it on a transition. */
function summary(
  triggerId: number,
  ciId: number,
  open: boolean,
  changedAtMinutes: number,
  version = 1,
  influence: InfluenceFacts = INFLUENCE[triggerId] ?? { value: 0, maxInfluence: false },
): JournalChange {
  const value: KeySummaryRecord = { triggerId, ciId, open, changedAt: at(changedAtMinutes), influence, version };
  return { key: `popen:${triggerId}:${ciId}`, value };
}
const opened = (triggerId: number, ciId: number, minutes: number, version = 1) => summary(triggerId, ciId, true, minutes, version);
const closed = (triggerId: number, ciId: number, minutes: number, version = 2) => summary(triggerId, ciId, false, minutes, version);
const pendingClose = (triggerId: number, ciId: number, minutes: number): JournalChange => {
  const value: PendingCloseRecord = { triggerId, ciId, at: at(minutes) };
  return { key: `pclose:${triggerId}:${ciId}`, value };
};

t.test('CI state: Unknown before any summary, Problem with an open problem, Ok with none; changedAt the last change', async (t) => {
  const m = model();
  t.same(ciState(m, 1, at(0)), { value: 'Unknown', valueUnderMaintenance: 'Unknown', changedAt: null });
  commit(m, opened(1, 1, 10), opened(2, 1, 15));
  t.same(ciState(m, 1, at(16)), { value: 'Problem', valueUnderMaintenance: 'Unknown', changedAt: at(15) });
  commit(m, closed(1, 1, 20));
  t.same(ciState(m, 1, at(21)), { value: 'Problem', valueUnderMaintenance: 'Unknown', changedAt: at(20) }, 'one of two problems still open');
  commit(m, closed(2, 1, 25));
  t.same(ciState(m, 1, at(26)), { value: 'Ok', valueUnderMaintenance: 'Unknown', changedAt: at(25) });
  t.same(ciState(m, 2, at(26)), { value: 'Unknown', valueUnderMaintenance: 'Unknown', changedAt: null }, 'another CI is untouched');
});

t.test('CI state: a key that never opened makes the CI Ok, changed at its summary’s date', async (t) => {
  const m = model();
  commit(m, summary(1, 1, false, 10));
  t.same(ciState(m, 1, at(11)), { value: 'Ok', valueUnderMaintenance: 'Unknown', changedAt: at(10) });
});

t.test('valueUnderMaintenance repeats the value while a maintenance mode covers the CI', async (t) => {
  const m = model();
  commit(m, { key: 'maint:1', value: modeRecord(1, at(100), at(200), [{ ciId: 1 }]) });
  commit(m, opened(1, 1, 10), opened(1, 2, 10));
  t.same(ciState(m, 1, at(99)).valueUnderMaintenance, 'Unknown', 'before the mode');
  t.same(ciState(m, 1, at(100)).valueUnderMaintenance, 'Problem');
  t.same(ciState(m, 1, at(200)).valueUnderMaintenance, 'Unknown', 'the end is exclusive');
  t.same(ciState(m, 2, at(150)), { value: 'Problem', valueUnderMaintenance: 'Unknown', changedAt: at(10) }, 'another CI is not covered');
});

t.test('direct health is 100 − the largest influence of the open problems; maxInfluence counts 100', async (t) => {
  const m = model();
  t.equal(directHealth(m, 4), 100, 'no problem');
  commit(m, opened(1, 4, 10), opened(2, 4, 10));
  t.equal(directHealth(m, 4), 40, 'influences 30 and 60: the largest counts');
  commit(m, closed(2, 4, 20));
  t.equal(directHealth(m, 4), 70);
  commit(m, opened(3, 4, 30));
  t.equal(directHealth(m, 4), 0, 'maxInfluence, whatever its value (10)');
  commit(m, closed(1, 4, 40), closed(3, 4, 40));
  t.equal(directHealth(m, 4), 100);
});

t.test('direct health reads the trigger’s current influence, and the summary’s once the trigger is gone', async (t) => {
  const m = model();
  commit(m, summary(1, 4, true, 10, 1, { value: 25, maxInfluence: false }));
  t.equal(directHealth(m, 4), 70, 'the trigger’s (30), not the summary’s (25)');
  commit(m, { key: 'trigger:1', value: triggerRecord({ id: 1, influence: { value: 45, maxInfluence: false } }) });
  t.equal(directHealth(m, 4), 55, 'the trigger changed');
  commit(m, { key: 'trigger:1', value: null });
  t.equal(directHealth(m, 4), 75, 'the trigger deleted: the summary’s (25)');
});

t.test('health propagates along influence links: the minimum of its own and each influential CI’s', async (t) => {
  const m = model();
  commit(m, opened(1, 1, 10));
  t.same(ciHealth(m, 3), { value: 70, direct: 100, changedAt: at(10) }, 'CI 1 ▸ 2 ▸ 3');
  t.same(ciHealth(m, 1), { value: 70, direct: 70, changedAt: at(10) });
  commit(m, opened(2, 2, 20));
  t.same(ciHealth(m, 3), { value: 40, direct: 100, changedAt: at(20) });
  t.same(ciHealth(m, 1), { value: 70, direct: 70, changedAt: at(10) }, 'nothing flows against the links');
  commit(m, opened(3, 4, 30));
  t.same(ciHealth(m, 5), { value: 0, direct: 100, changedAt: at(30) }, 'the worst of two influential CIs (1: 70, 4: 0)');
  t.same(ciHealth(m, 3), { value: 40, direct: 100, changedAt: at(20) }, 'CI 4 does not influence CI 3');
  t.same(ciHealth(m, 4), { value: 0, direct: 0, changedAt: at(30) });
  commit(m, closed(3, 4, 40));
  t.same(ciHealth(m, 5), { value: 70, direct: 100, changedAt: at(40) }, 'CI 4 recovered: CI 1 is the worst');
});

t.test('an older summary never replaces a newer one; a newer one does', async (t) => {
  const m = model();
  commit(m, opened(1, 1, 10, 3));
  commit(m, closed(1, 1, 20, 2));
  t.same(ciState(m, 1, at(21)), { value: 'Problem', valueUnderMaintenance: 'Unknown', changedAt: at(10) }, 'version 2 after version 3: ignored');
  t.equal(m.slices.problems.summaries.get('popen:1:1')?.version, 3);
  commit(m, closed(1, 1, 30, 4));
  t.same(ciState(m, 1, at(31)), { value: 'Ok', valueUnderMaintenance: 'Unknown', changedAt: at(30) }, 'version 4 applies');
});

t.test('a key with a pending close counts as not open', async (t) => {
  const m = model();
  commit(m, opened(1, 4, 10), opened(2, 4, 10));
  commit(m, pendingClose(2, 4, 20));
  t.equal(directHealth(m, 4), 70, 'only trigger 1’s problem counts');
  t.equal(ciState(m, 4, at(21)).value, 'Problem');
  commit(m, pendingClose(1, 4, 20));
  t.equal(directHealth(m, 4), 100);
  t.equal(ciState(m, 4, at(21)).value, 'Ok', 'both about to close');
  t.same(ciHealth(m, 5).value, 100, 'nor does it count for a dependent CI');
  commit(m, { key: 'pclose:1:4', value: null });
  t.equal(directHealth(m, 4), 70, 'the close record removed while the summary is still open: open again');
});

t.test('closeProblemsOfCi / closeProblemsOfTrigger record a close for the open keys of that CI / trigger only', async (t) => {
  const m = model();
  commit(m, opened(1, 1, 10), summary(2, 1, false, 10), opened(3, 1, 10), opened(1, 2, 10), opened(2, 2, 10));
  const keys = (changes: JournalChange[]) => changes.map((c) => c.key).sort();
  const ofCi = closeProblemsOfCi(m, 1, at(30));
  t.same(keys(ofCi), ['pclose:1:1', 'pclose:3:1'], 'CI 1’s open keys, not its closed one nor CI 2’s');
  t.same(ofCi.find((c) => c.key === 'pclose:3:1')?.value, { triggerId: 3, ciId: 1, at: at(30) });
  const ofTrigger = closeProblemsOfTrigger(m, 1, at(40));
  t.same(keys(ofTrigger), ['pclose:1:1', 'pclose:1:2'], 'trigger 1’s open keys');
  t.same(ofTrigger.find((c) => c.key === 'pclose:1:2')?.value, { triggerId: 1, ciId: 2, at: at(40) });
  t.same(closeProblemsOfCi(m, 5, at(30)), [], 'a CI without problems');
  t.same(closeProblemsOfTrigger(m, 9, at(30)), [], 'a trigger without problems');
  commit(m, closed(2, 2, 20));
  t.same(keys(closeProblemsOfCi(m, 2, at(30))), ['pclose:1:2'], 'a key closed since is left alone');
});

t.test('closesDue: the pending closes, and open keys whose CI or trigger is gone, once each', async (t) => {
  const m = model();
  t.same(closesDue(m, at(50)), [], 'nothing open');
  commit(m, opened(1, 3, 10), opened(2, 3, 10), summary(3, 3, false, 10), opened(2, 4, 10), opened(1, 1, 10));
  t.same(closesDue(m, at(50)), [], 'every open key’s CI and trigger exist');
  // A hit of a trigger deleted meanwhile opened key 9:4 after its trigger's closes were decided.
  commit(m, { key: 'ci:3', value: null }, pendingClose(1, 3, 30), pendingClose(2, 1, 30), opened(9, 4, 10));
  const due = closesDue(m, at(50));
  const byKey = (a: { triggerId: number; ciId: number }, b: { triggerId: number; ciId: number }) => a.triggerId - b.triggerId || a.ciId - b.ciId;
  t.same(
    [...due].sort(byKey),
    [
      { triggerId: 1, ciId: 3, at: at(30) },
      { triggerId: 2, ciId: 1, at: at(30) },
      { triggerId: 2, ciId: 3, at: at(50) },
      { triggerId: 9, ciId: 4, at: at(50) },
    ],
    'pending: at their date (1:3 once, though its CI is gone too); gone CI or trigger: now; closed keys and live ones not',
  );
  commit(m, { key: 'pclose:1:3', value: null }, { key: 'pclose:2:1', value: null }, closed(1, 3, 30), closed(2, 3, 50), closed(9, 4, 50));
  t.same(closesDue(m, at(60)), [], 'all done');
});

/**
 * Problems that end because what they are about is gone (DESIGN §7a): a deleted CI or trigger.
 * The command only records, in the same commit as the delete, which keys must close and when;
 * the keys' owners in the problem stage close them (their state is not in the control plane)
 * and remove the record when done, so a close survives any restart in between.
 */
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import type { PlatformModel } from '../model.js';
import { type KeySummaryRecord, type PendingCloseRecord, pendingCloseKey } from './problems.types.js';

function closesOf(model: PlatformModel, summaries: Iterable<KeySummaryRecord>, at: number): JournalChange[] {
  const changes: JournalChange[] = [];
  for (const s of summaries) {
    // A key already closing keeps its first date (its trigger deleted, then its CI).
    if (!s.open || model.slices.problems.pendingCloses.has(pendingCloseKey(s.triggerId, s.ciId))) continue;
    const value: PendingCloseRecord = { triggerId: s.triggerId, ciId: s.ciId, at };
    changes.push({ key: pendingCloseKey(s.triggerId, s.ciId), value });
  }
  return changes;
}

/** A deleted CI's open problems end at the delete. */
export function closeProblemsOfCi(model: PlatformModel, ciId: number, at: number): JournalChange[] {
  return closesOf(model, model.slices.problems.ofCi(ciId), at);
}

/** A deleted trigger's open problems end at the delete: nothing would ever resolve them. */
export function closeProblemsOfTrigger(model: PlatformModel, triggerId: number, at: number): JournalChange[] {
  return closesOf(
    model,
    [...model.slices.problems.summaries.values()].filter((s) => s.triggerId === triggerId),
    at,
  );
}

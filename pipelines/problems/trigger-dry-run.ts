/**
 * A trigger tried on records before it is saved (issue #33, the console's trigger editor): the
 * records of a stream, oldest first, through the trigger as the event worker would apply it
 * (trigger-match.ts), and for each CI named, the problems it would open and resolve, the key
 * taken as closed at the first record. Pure: the records and the CI lookups are passed in.
 */
import type { TriggerModel } from '../../schemas/trigger.schema.js';
import type { PriorityNumber } from './problem-timeline.js';
import type { TriggeredEvent } from '../records/record-pipeline.js';
import { type CiLookup, compileTrigger } from './trigger-match.js';

export interface DryRunCi {
  ciId: number;
  /** Records naming this CI that meet the conditions. */
  hits: number;
  /** Problems the trigger would open on the CI (a hit while its key is closed). */
  opened: number;
  /** Of those, resolved by a later record. */
  resolved: number;
  /** A problem would still be open after the last record. */
  openAtEnd: boolean;
  /** The highest priority (the lowest number) of its hits that opened or kept a problem. */
  priority: PriorityNumber | null;
  firstHitAt: number;
  lastHitAt: number;
}

export interface DryRunOutcome {
  examined: number;
  /** Records meeting the conditions. */
  matched: number;
  /** Of those, naming no CI the CMDB holds (or one name shared by several CIs). */
  withoutCi: number;
  /** Worst first: most problems opened, then most hits, then by CI id. */
  cis: DryRunCi[];
}

/** `events` oldest first. */
export function dryRunTrigger(trigger: TriggerModel, events: readonly TriggeredEvent[], cis: CiLookup): DryRunOutcome {
  const compiled = compileTrigger(trigger);
  const byCi = new Map<number, DryRunCi>();
  let matched = 0;
  let withoutCi = 0;
  for (const event of events) {
    if (!compiled.matches(event.fields)) continue;
    matched += 1;
    const keyed = compiled.hitOf(event, cis);
    if (!keyed) {
      withoutCi += 1;
      continue;
    }
    const { hit } = keyed;
    let ci = byCi.get(keyed.ciId);
    if (!ci) byCi.set(keyed.ciId, (ci = { ciId: keyed.ciId, hits: 0, opened: 0, resolved: 0, openAtEnd: false, priority: null, firstHitAt: hit.ts, lastHitAt: hit.ts }));
    ci.hits += 1;
    ci.firstHitAt = Math.min(ci.firstHitAt, hit.ts);
    ci.lastHitAt = Math.max(ci.lastHitAt, hit.ts);
    if (hit.resolve) {
      if (ci.openAtEnd) ci.resolved += 1;
      ci.openAtEnd = false;
      continue;
    }
    if (!ci.openAtEnd) ci.opened += 1;
    ci.openAtEnd = true;
    ci.priority = ci.priority === null ? hit.priority : (Math.min(ci.priority, hit.priority) as PriorityNumber);
  }
  const list = [...byCi.values()].sort((a, b) => b.opened - a.opened || b.hits - a.hits || a.ciId - b.ciId);
  return { examined: events.length, matched, withoutCi, cis: list };
}

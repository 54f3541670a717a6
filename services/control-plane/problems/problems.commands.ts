/**
 * Changes to problem keys (DESIGN §7): trigger hits from the event workers, and the closing of
 * a deleted CI's problems. Pure, like every command: the journal's revision check orders the
 * commits of concurrent workers, and a hit already placed changes nothing, so a redelivered
 * batch is harmless.
 */
import { DEFAULT_LIMITS, emptyTimeline, placeHits, problemsOf, type Hit, type TimelineLimits } from '../../../pipelines/problems/problem-timeline.js';
import type { KeyedHit } from '../../../pipelines/problems/trigger-match.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import type { PlatformCommand, PlatformModel } from '../slices.js';
import { problemKey, type InfluenceRecord, type ProblemKeyRecord } from './problems.types.js';

export interface HitsApplied {
  /** Hits placed on their key's timeline. */
  placed: number;
  /** Hits dated before their key's late window: ignored. */
  tooLate: number;
  /** Keys whose problems changed. */
  keysChanged: number;
}

const NO_INFLUENCE: InfluenceRecord = { value: 0, maxInfluence: false };

/** What the key keeps of its trigger, so its rows keep it after the trigger is deleted. */
function triggerSnapshot(model: PlatformModel, triggerId: number, before: ProblemKeyRecord | undefined) {
  const trigger = model.slices.triggers.triggers.get(triggerId);
  return {
    influence: trigger?.influence ?? before?.influence ?? NO_INFLUENCE,
    triggerName: trigger?.name ?? before?.triggerName ?? '',
    tags: trigger?.tags ?? before?.tags ?? [],
  };
}

/** The key's record after a timeline change, with what the change did to its problems. */
function nextRecord(model: PlatformModel, before: ProblemKeyRecord | undefined, triggerId: number, ciId: number, hits: readonly Hit[], limits: TimelineLimits) {
  const timeline = before ?? emptyTimeline();
  const placed = placeHits(timeline, hits, triggerId, ciId, limits);
  if (placed.added === 0) return { record: undefined, placed };
  const remaining = problemsOf(placed.timeline, triggerId, ciId);
  const kept = new Set(remaining.map((p) => p.id));
  const last = remaining[remaining.length - 1];
  const open = last && last.end === null ? last : null;
  const transitions = placed.problems.flatMap((p) => (p.end === null ? [p.start] : [p.start, p.end]));
  const record: ProblemKeyRecord = {
    triggerId,
    ciId,
    ...placed.timeline,
    version: model.revision + 1,
    ...triggerSnapshot(model, triggerId, before),
    open,
    changedAt: transitions.length > 0 ? Math.max(...transitions) : (before?.changedAt ?? Math.min(...hits.map((h) => h.ts))),
    folded: placed.problems.filter((p) => !kept.has(p.id)),
    removedIds: placed.removedIds,
  };
  return { record, placed };
}

export function applyHits(hits: readonly KeyedHit[], limits: TimelineLimits = DEFAULT_LIMITS): PlatformCommand<HitsApplied> {
  return (model) => {
    const byKey = new Map<string, { triggerId: number; ciId: number; hits: Hit[] }>();
    for (const { triggerId, ciId, hit } of hits) {
      const key = problemKey(triggerId, ciId);
      let group = byKey.get(key);
      if (!group) byKey.set(key, (group = { triggerId, ciId, hits: [] }));
      group.hits.push(hit);
    }
    const keys = model.slices.problems.keys;
    const changes: JournalChange[] = [];
    let placedCount = 0;
    let tooLate = 0;
    for (const [key, group] of byKey) {
      const { record, placed } = nextRecord(model, keys.get(key), group.triggerId, group.ciId, group.hits, limits);
      placedCount += placed.added;
      tooLate += placed.tooLate;
      if (record) changes.push({ key, value: record });
    }
    return { changes, result: () => ({ placed: placedCount, tooLate, keysChanged: changes.length }) };
  };
}

/**
 * Open problems that end because what they are about is gone: a deleted CI (issue #7) or a
 * deleted trigger. Each closes with a resolving hit at `at`, placed after its last hit.
 */
function closeOpen(model: PlatformModel, keys: readonly ProblemKeyRecord[], at: number, why: string): JournalChange[] {
  const changes: JournalChange[] = [];
  for (const before of keys) {
    if (!before.open) continue;
    // After the last hit, so the close sorts last even when the delete is dated before it.
    const ts = Math.max(at, before.open.lastEventAt + 1);
    const resolve: Hit = { id: `${why}:${before.triggerId}:${before.ciId}:${at}`, ts, resolve: true, priority: before.open.priority, incidents: [] };
    const { record } = nextRecord(model, before, before.triggerId, before.ciId, [resolve], { lateWindowMs: Number.MAX_SAFE_INTEGER, maxHits: Number.MAX_SAFE_INTEGER });
    if (record) changes.push({ key: problemKey(before.triggerId, before.ciId), value: record });
  }
  return changes;
}

/** A deleted CI's open problems end at the delete. */
export function closeProblemsOfCi(model: PlatformModel, ciId: number, at: number): JournalChange[] {
  return closeOpen(model, model.slices.problems.ofCi(ciId), at, 'ci-deleted');
}

/** A deleted trigger's open problems end at the delete: nothing would ever resolve them. */
export function closeProblemsOfTrigger(model: PlatformModel, triggerId: number, at: number): JournalChange[] {
  return closeOpen(model, [...model.slices.problems.keys.values()].filter((k) => k.triggerId === triggerId), at, 'trigger-deleted');
}

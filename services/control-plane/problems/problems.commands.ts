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

function influenceOf(model: PlatformModel, triggerId: number, fallback?: InfluenceRecord): InfluenceRecord {
  return model.slices.triggers.triggers.get(triggerId)?.influence ?? fallback ?? NO_INFLUENCE;
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
    influence: influenceOf(model, triggerId, before?.influence),
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

/** A deleted CI's open problems end at the delete (issue #7): a resolving hit at that instant. */
export function closeProblemsOfCi(model: PlatformModel, ciId: number, at: number): JournalChange[] {
  const changes: JournalChange[] = [];
  for (const before of model.slices.problems.ofCi(ciId)) {
    if (!before.open) continue;
    // After the last hit, so the close sorts last even when the delete is dated before it.
    const ts = Math.max(at, before.open.lastEventAt + 1);
    const resolve: Hit = { id: `ci-deleted:${ciId}:${at}`, ts, resolve: true, priority: before.open.priority, incidents: [] };
    const { record } = nextRecord(model, before, before.triggerId, ciId, [resolve], { lateWindowMs: Number.MAX_SAFE_INTEGER, maxHits: Number.MAX_SAFE_INTEGER });
    if (record) changes.push({ key: problemKey(before.triggerId, ciId), value: record });
  }
  return changes;
}

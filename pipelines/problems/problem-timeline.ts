/**
 * The life of the problems of one (trigger, CI) key (DESIGN §7), as a pure function of the
 * trigger hits seen for it. Hits are kept sorted by event time, so the problems are the same
 * whatever order the records arrived in: the first non-resolving hit after a resolve (or after
 * nothing) opens a problem, later ones refresh it, the first resolving hit closes it. A late hit
 * is placed where its date puts it, and may split or start a problem in the past.
 *
 * Hits are kept for a late window measured in event time behind the newest one (one hour by
 * default, a trigger may say otherwise), however many arrive in it; older hits are folded into
 * `settledUntil` and `carry` (the problem still open at that instant), so a key's state stays
 * small. A hit dated before `settledUntil` is too late to place and is ignored (the caller
 * counts it and dead-letters it).
 *
 * A key's memory budget is `maxHits` hits in its window. Past it, long runs of alike firing hits
 * (same priority, no incident, no resolve between them) are thinned: each run keeps its first and
 * last hit and one hit per grain between them, the grain doubling from one second until the key
 * is within its budget. The problems stay the same (a run's first hit opens, its last dates the
 * last event), and a late resolve is still placed at its own date; only the problem it splits off
 * starts at the first kept hit after it, at most one grain later than the record that would have
 * opened it. A key whose hits alternate so fast that even runs of two exceed the budget folds its
 * oldest hits, as before: a hit before the fold is then too late.
 */
import { createHash } from 'node:crypto';

export type PriorityNumber = 1 | 2 | 3 | 4;

export interface IncidentRef {
  connectorId: number;
  connectorName: string;
  id: string;
  type: string;
}

export interface Hit {
  /** The event id: a redelivered record brings the same hit, which is then ignored. */
  id: string;
  ts: number;
  resolve: boolean;
  priority: PriorityNumber;
  incidents: IncidentRef[];
}

/** One problem of the key: closed when `end` is set. */
export interface ProblemSpan {
  id: string;
  start: number;
  end: number | null;
  lastEventAt: number;
  priority: PriorityNumber;
  incidents: IncidentRef[];
}

export interface KeyTimeline {
  /** Hits before this date were folded (null: none yet). */
  settledUntil: number | null;
  /** The problem open at `settledUntil`, from folded hits. */
  carry: ProblemSpan | null;
  /** Sorted by (ts, id); every ts ≥ settledUntil. */
  hits: Hit[];
}

export interface TimelineLimits {
  /** Event time behind the newest hit within which hits are still placed. */
  lateWindowMs: number;
  /** The key's budget of hits in its window (see thinning above). */
  maxHits: number;
}

export const DEFAULT_LATE_WINDOW_MS = 60 * 60_000;
export const DEFAULT_LIMITS: TimelineLimits = { lateWindowMs: DEFAULT_LATE_WINDOW_MS, maxHits: 1024 };
/** The first grain of thinning; it doubles until the key is within its budget. */
const FIRST_GRAIN_MS = 1000;

export const emptyTimeline = (): KeyTimeline => ({ settledUntil: null, carry: null, hits: [] });

const byTimeThenId = (a: Hit, b: Hit): number => a.ts - b.ts || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The id of the problem each hit would open, once derived: a key's problems are derived again on
 * every change of the key, and the hash is most of that work. A hit belongs to one key.
 */
const openedIds = new WeakMap<Hit, string>();

/** A problem's id: a UUID from its key and its opening record, the same on every worker. */
export function problemId(triggerId: number, ciId: number, openingHitId: string): string {
  const h = createHash('sha256').update(`${triggerId}:${ciId}:${openingHitId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function idOpenedBy(hit: Hit, triggerId: number, ciId: number): string {
  let id = openedIds.get(hit);
  if (id === undefined) openedIds.set(hit, (id = problemId(triggerId, ciId, hit.id)));
  return id;
}

function mergeIncidents(into: IncidentRef[], more: readonly IncidentRef[]): IncidentRef[] {
  if (more.length === 0) return into;
  const out = [...into];
  for (const ref of more) {
    if (!out.some((r) => r.connectorId === ref.connectorId && r.id === ref.id && r.type === ref.type)) out.push(ref);
  }
  return out;
}

/**
 * The problems last derived from a hits array (hits arrays are never changed once built; a
 * key's change derives them several times: before, after, and for its rows). The spans are
 * shared between callers, who only read them.
 */
const derived = new WeakMap<readonly Hit[], { carry: ProblemSpan | null; triggerId: number; ciId: number; spans: ProblemSpan[] }>();

/** The problems of a timeline, oldest first (the open one, if any, last). */
export function problemsOf(timeline: KeyTimeline, triggerId: number, ciId: number): ProblemSpan[] {
  const memo = derived.get(timeline.hits);
  if (memo && memo.carry === timeline.carry && memo.triggerId === triggerId && memo.ciId === ciId) return memo.spans.slice();
  const spans = deriveProblems(timeline, triggerId, ciId);
  derived.set(timeline.hits, { carry: timeline.carry, triggerId, ciId, spans });
  return spans.slice();
}

function deriveProblems(timeline: KeyTimeline, triggerId: number, ciId: number): ProblemSpan[] {
  return continueProblems([], timeline.carry, timeline.hits, triggerId, ciId);
}

/**
 * `spans` (closed, oldest first) and `open` (the problem open before `hits`, if any), carried on
 * through `hits`: the new spans are pushed onto `spans` (pass an array of your own); `open` is
 * copied, not changed.
 */
function continueProblems(spans: ProblemSpan[], open: ProblemSpan | null, hits: readonly Hit[], triggerId: number, ciId: number): ProblemSpan[] {
  let current = open ? { ...open } : null;
  for (const hit of hits) {
    if (hit.resolve) {
      if (current) {
        current.end = hit.ts;
        spans.push(current);
        current = null;
      }
    } else if (!current) {
      current = { id: idOpenedBy(hit, triggerId, ciId), start: hit.ts, end: null, lastEventAt: hit.ts, priority: hit.priority, incidents: [...hit.incidents] };
    } else {
      current.lastEventAt = hit.ts;
      current.incidents = mergeIncidents(current.incidents, hit.incidents);
    }
  }
  if (current) spans.push(current);
  return spans;
}

/** The problems of hits that extend `timeline`'s (all after its last): its own, carried on. */
function extendedProblems(timeline: KeyTimeline, fresh: readonly Hit[], triggerId: number, ciId: number): ProblemSpan[] {
  const spans = problemsOf(timeline, triggerId, ciId);
  const last = spans[spans.length - 1];
  const open = last && last.end === null ? spans.pop()! : null;
  return continueProblems(spans, open, fresh, triggerId, ciId);
}

export interface Placed {
  /** The timeline after the hits, with what fell out of the late window folded. */
  timeline: KeyTimeline;
  /** Every problem the key's window holds after the hits (before folding): the rows to write. */
  problems: ProblemSpan[];
  /** Problems the window held before that the hits show never existed (re-ordered away). */
  removedIds: string[];
  /** Hits not already known and not too late. */
  added: number;
  /** Hits dated before the settled part of the timeline. */
  tooLate: number;
}

/** Where `hit` belongs in `hits` (sorted by time then id): the index of the first hit not before it. */
function positionOf(hits: readonly Hit[], hit: Hit): number {
  let lo = 0;
  let hi = hits.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byTimeThenId(hits[mid]!, hit) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Places new hits in the timeline, then folds what fell out of the late window. */
export function placeHits(timeline: KeyTimeline, hits: readonly Hit[], triggerId: number, ciId: number, limits: TimelineLimits = DEFAULT_LIMITS): Placed {
  let tooLate = 0;
  const fresh: Hit[] = [];
  for (const hit of hits) {
    if (timeline.settledUntil !== null && hit.ts < timeline.settledUntil) {
      tooLate++;
      continue;
    }
    // A hit already placed (a redelivery) sits where its date puts it: a hit's date never changes.
    if (timeline.hits[positionOf(timeline.hits, hit)]?.id === hit.id || fresh.some((h) => h.id === hit.id)) continue;
    fresh.push(hit);
  }
  const added = fresh.length;
  const before = problemsOf(timeline, triggerId, ciId);
  if (added === 0) return { timeline, problems: before, removedIds: [], added, tooLate };
  fresh.sort(byTimeThenId);
  const last = timeline.hits[timeline.hits.length - 1];
  let placed: KeyTimeline;
  if (!last || byTimeThenId(last, fresh[0]!) < 0) {
    // Telemetry mostly arrives in order: then the new hits only extend the hits and the problems.
    placed = { ...timeline, hits: timeline.hits.concat(fresh) };
    derived.set(placed.hits, { carry: timeline.carry, triggerId, ciId, spans: extendedProblems(timeline, fresh, triggerId, ciId) });
  } else {
    placed = { ...timeline, hits: [...timeline.hits, ...fresh].sort(byTimeThenId) };
  }
  const problems = problemsOf(placed, triggerId, ciId);
  const kept = new Set(problems.map((p) => p.id));
  const removedIds = before.filter((p) => !kept.has(p.id)).map((p) => p.id);
  return { timeline: settle(placed, problems, triggerId, ciId, limits), problems, removedIds, added, tooLate };
}

/**
 * Folds the hits older than the late window into settledUntil and carry, then keeps the key
 * within its budget (thinning, or folding as a last resort). `problems`: the timeline's; those
 * after the folded closed ones are the settled timeline's.
 */
function settle(timeline: KeyTimeline, problems: ProblemSpan[], triggerId: number, ciId: number, limits: TimelineLimits): KeyTimeline {
  const placed = timeline.hits;
  let hits = placed;
  if (hits.length === 0) return timeline;
  const newest = hits[hits.length - 1]!.ts;
  const windowStart = newest - limits.lateWindowMs;
  let cut = 0;
  while (cut < hits.length && hits[cut]!.ts < windowStart) cut++;
  const byTime = cut;
  if (hits.length - cut > limits.maxHits) {
    const window = hits.slice(cut);
    const thinned = thin(window, limits.maxHits, limits.lateWindowMs);
    if (thinned !== window) {
      hits = [...hits.slice(0, cut), ...thinned];
      timeline = { ...timeline, hits };
    }
    // Still over: the oldest go, whatever their dates (only hits alternating faster than a second).
    cut = Math.max(cut, hits.length - limits.maxHits);
  }
  // Hits sharing the cut's date stay together, so the order among equal dates is still decided by id.
  while (cut > 0 && cut < hits.length && hits[cut - 1]!.ts === hits[cut]!.ts) cut--;
  if (cut === 0) {
    // Thinning keeps the problems as they were.
    if (hits !== placed) derived.set(hits, { carry: timeline.carry, triggerId, ciId, spans: problems });
    return timeline;
  }
  const folded = problemsOf({ ...timeline, hits: hits.slice(0, cut) }, triggerId, ciId);
  const last = folded[folded.length - 1];
  const carry = last && last.end === null ? last : null;
  // Folded by time alone, every hit of the window is still placed (all folded ones are older);
  // folded by count, only hits after the last folded one are.
  const settledUntil = cut > byTime ? hits[cut]!.ts : Math.max(windowStart, timeline.settledUntil ?? windowStart);
  const settled = { settledUntil, carry, hits: hits.slice(cut) };
  // The problems stay the same; the closed ones folded away leave the list.
  derived.set(settled.hits, { carry, triggerId, ciId, spans: problems.slice(folded.length - (carry ? 1 : 0)) });
  return settled;
}

/** A hit that may be thinned away: a firing one naming no incident. */
const thinnable = (hit: Hit): boolean => !hit.resolve && hit.incidents.length === 0;

/**
 * The hits with runs of alike firing hits thinned to one per grain (first and last kept), the
 * grain doubling from a second until at most `budget` remain or it passes `maxGrainMs`; the same
 * array when nothing could be thinned.
 */
export function thin(hits: Hit[], budget: number, maxGrainMs: number): Hit[] {
  let out = hits;
  for (let grain = FIRST_GRAIN_MS; out.length > budget && grain <= Math.max(maxGrainMs, FIRST_GRAIN_MS); grain *= 2) {
    const kept: Hit[] = [];
    for (let i = 0; i < out.length; i++) {
      const hit = out[i]!;
      const prev = out[i - 1];
      const next = out[i + 1];
      const inRun =
        thinnable(hit) && prev !== undefined && next !== undefined && thinnable(prev) && thinnable(next) && prev.priority === hit.priority && next.priority === hit.priority;
      // Inside a run, a hit stays only a grain after the last one kept.
      if (inRun && hit.ts - kept[kept.length - 1]!.ts < grain) continue;
      kept.push(hit);
    }
    out = kept;
  }
  return out.length === hits.length ? hits : out;
}

/**
 * The figures of one CI over [start, end) (DESIGN §9). Every instant falls in exactly one bucket,
 * first match wins: unattended ▸ maintenance ▸ problem ▸ ok.
 *
 * - Maintenance is a bucket only when the template excludes maintenance; otherwise it is time
 *   like any other (maintenanceMs = 0, problems in it count).
 * - Only problems of an included priority take time. An instant where some are open is
 *   weighted by the largest influence among them (percent / 100, or 1 for maxInfluence); that
 *   share of it is problem time and the rest ok time. Influences are clamped to 0..100 %.
 * - An open problem (end null) lasts until min(range end, now).
 * - problemMs is rounded to whole milliseconds once per CI and okMs is what remains, so
 *   ok + problem + unattended + maintenance = end − start exactly.
 * - maxDowntimeMs is the longest unbroken wall-clock stretch (not weighted) of instants where an
 *   included problem of non-zero influence is open and that are neither unattended nor (when
 *   excluded) maintenance. Unattended or maintenance time breaks a stretch, as does time with no
 *   such problem open; a change of weight does not. So a problem from Monday 16:00 to Tuesday
 *   11:00 under 09:00–18:00 working hours has two stretches of two hours: maxDowntime is 2 h.
 * - Counts: included problems overlapping the range (a problem of zero length counts when its
 *   instant is in the range), by priority.
 * Cost: O(p log p + u + m) for p problems, u unattended and m maintenance intervals.
 */

import { totalLength, unionIntervals } from '../time/interval-ops.js';
import { maxWeightSegments, type WeightedInterval } from './max-weight-sweep.js';
import type { Interval, ProblemInput, ProblemTimes, SlaFigures } from './sla.types.js';

/** What every CI of a template shares. */
export interface CiFiguresContext {
  range: Interval;
  now: number;
  /** Priorities that count against the SLA. */
  included: ReadonlySet<number>;
  excludeMaintenance: boolean;
  /** unattendedIntervals(calendar, range): sorted, disjoint, inside the range. */
  unattended: readonly Interval[];
}

/** The end of a problem for the maths: an open one lasts until now (never before its start). */
export const problemEnd = (p: ProblemTimes, now: number): number => endAt(p.start, p.end, now);
const endAt = (start: number, end: number | null, now: number): number => (end !== null ? end : Math.max(start, now));

/** Whether a problem overlaps the range (a zero-length one: when its instant is in it). */
export const overlapsRange = (p: ProblemTimes, range: Interval, now: number): boolean => overlaps(p.start, endAt(p.start, p.end, now), range);
function overlaps(start: number, end: number, range: Interval): boolean {
  if (end > start) return start < range.end && end > range.start;
  return start >= range.start && start < range.end;
}

/** Influence as percent 0..100: 100 for maxInfluence. */
export const influencePercent = (influence: ProblemInput['influence']): number => percentOf(influence.value, influence.maxInfluence);
const percentOf = (value: number, maxInfluence: boolean): number => (maxInfluence ? 100 : Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0)));

/** What the figures need of a CI's problems: counts by priority, and the weighted time they take. */
interface Collected {
  counts: [number, number, number, number];
  weighted: WeightedInterval[];
}

/** Counts an included problem overlapping the range, and keeps the part of it inside the range. */
function collect(into: Collected, context: CiFiguresContext, start: number, endOrNull: number | null, priority: number, weight: number): void {
  const { range, now, included } = context;
  const end = endAt(start, endOrNull, now);
  if (!included.has(priority) || !overlaps(start, end, range)) return;
  into.counts[priority - 1]!++;
  const from = Math.max(start, range.start);
  const to = Math.min(end, range.end);
  if (to > from && weight > 0) into.weighted.push({ start: from, end: to, weight });
}

const collected = (): Collected => ({ counts: [0, 0, 0, 0], weighted: [] });

/**
 * Figures of one CI. `maintenance` must be sorted, disjoint and inside the range (the shape
 * SlaCiInput promises); `problems` may be of any priority and in any order.
 */
export function ciFigures(context: CiFiguresContext, maintenance: readonly Interval[], problems: readonly ProblemTimes[]): SlaFigures {
  const into = collected();
  for (const p of problems) collect(into, context, p.start, p.end, p.priority, influencePercent(p.influence));
  return figuresOf(context, maintenance, into);
}

/** Numbers per packed problem: start, end (NaN while open), priority, influence value, maxInfluence (0|1). */
export const PACKED_PROBLEM_FIELDS = 5;

/**
 * ciFigures of the problems packed as numbers in `packed`, from problem `from` to `to` (exclusive):
 * what the SLA worker's threads read, without an object per problem.
 */
export function packedCiFigures(context: CiFiguresContext, maintenance: readonly Interval[], packed: Float64Array, from: number, to: number): SlaFigures {
  const into = collected();
  for (let at = from * PACKED_PROBLEM_FIELDS; at < to * PACKED_PROBLEM_FIELDS; at += PACKED_PROBLEM_FIELDS) {
    const end = packed[at + 1]!;
    collect(into, context, packed[at]!, Number.isNaN(end) ? null : end, packed[at + 2]!, percentOf(packed[at + 3]!, packed[at + 4] === 1));
  }
  return figuresOf(context, maintenance, into);
}

function figuresOf(context: CiFiguresContext, maintenance: readonly Interval[], { counts, weighted }: Collected): SlaFigures {
  const { range, unattended } = context;
  const totalMs = Math.max(0, range.end - range.start);
  const blocked = context.excludeMaintenance && maintenance.length > 0 ? unionIntervals(unattended, maintenance) : unattended;
  const unattendedMs = totalLength(unattended);
  const maintenanceMs = totalLength(blocked) - unattendedMs;

  // Walk the weighted segments against the blocked intervals (both sorted) once.
  let percentMs = 0;
  let longest = 0;
  let runStart = 0;
  let runEnd = -Infinity;
  let b = 0;
  const piece = (start: number, end: number, weight: number): void => {
    percentMs += weight * (end - start);
    if (start === runEnd) {
      runEnd = end;
    } else {
      if (runEnd - runStart > longest) longest = runEnd - runStart;
      runStart = start;
      runEnd = end;
    }
  };
  for (const seg of maxWeightSegments(weighted)) {
    while (b < blocked.length && blocked[b]!.end <= seg.start) b++;
    let at = seg.start;
    for (let k = b; at < seg.end; k++) {
      const block = blocked[k];
      if (block === undefined || block.start >= seg.end) {
        piece(at, seg.end, seg.weight);
        break;
      }
      if (block.start > at) piece(at, block.start, seg.weight);
      at = Math.max(at, block.end);
    }
  }
  if (runEnd - runStart > longest) longest = runEnd - runStart;

  const problemMs = Math.round(percentMs / 100);
  const okMs = totalMs - unattendedMs - maintenanceMs - problemMs;
  return {
    okMs,
    problemMs,
    unattendedMs,
    maintenanceMs,
    attendedMs: totalMs - unattendedMs,
    serviceAvailability: availability(okMs, problemMs),
    maxDowntimeMs: longest,
    counts,
    eventsCount: counts[0] + counts[1] + counts[2] + counts[3],
  };
}

/** ok / (ok + problem) × 100; 100 when both are 0. */
export const availability = (okMs: number, problemMs: number): number => (okMs + problemMs > 0 ? (okMs / (okMs + problemMs)) * 100 : 100);

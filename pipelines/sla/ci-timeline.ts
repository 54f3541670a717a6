/**
 * The timeline of one CI over [start, end): the figures of ci-figures.ts taken apart into
 * contiguous segments, so a reader can see why a CI has the availability it has (issue 18,
 * "explainable reports"). The buckets and their order are ciFigures's: unattended ▸ maintenance
 * ▸ problem ▸ ok, and the totals of the segments are ciFigures's figures to the millisecond.
 *
 * - A segment changes wherever its bucket, its weight, the problems open or its sources change;
 *   neighbours equal in all four are one segment. No segment is empty; the segments cover the
 *   range exactly (none at all for an empty range).
 * - `problems` lists the included problems open during the segment whatever the bucket, so a
 *   problem hidden by unattended or maintenance time, or of zero influence, is still seen. A
 *   problem of zero length (or outside the range, or cut to nothing by `now`) is open during no
 *   segment and is listed nowhere, though ciFigures counts it.
 * - `weightPercent` is the influence applied: the largest among the open problems on problem and
 *   ok segments (so a stretch where only 0 % problems are open is `ok` with weight 0), and 0 on
 *   unattended and maintenance segments, where no problem time is taken.
 * - `sources` name what makes an unattended or maintenance segment: indices into
 *   `context.unattended` or into `maintenance`. Maintenance intervals may overlap here (unlike
 *   ciFigures, which wants them merged): a caller that passes each mode's intervals unmerged gets
 *   every mode behind a segment, and the same totals as the merged list gives.
 * - When the template does not exclude maintenance, maintenance is no bucket (as in ciFigures)
 *   and the timeline does not mark it at all: its instants are problem or ok time like any other,
 *   and a reader who wants to show the windows reads them from the maintenance list itself.
 * Cost: O(n log n + s·a) for n intervals in, s elementary pieces and at most a of them open at
 * once (the output itself lists up to s·a problem indices).
 */

import { influencePercent, problemEnd } from './ci-figures.js';
import type { CiFiguresContext } from './ci-figures.js';
import type { Interval, ProblemInput } from './sla.types.js';

export type TimelineBucket = 'unattended' | 'maintenance' | 'problem' | 'ok';

export interface TimelineSegment {
  start: number;
  end: number;
  bucket: TimelineBucket;
  /**
   * Problem bucket: the influence applied, percent 0..100 (the largest among the open included
   * problems); the share weight/100 of the segment is problem time, the rest ok time. 0 on ok
   * segments where only zero-influence problems are open, and on unattended and maintenance ones.
   */
  weightPercent: number;
  /** Indices into the `problems` input of the included problems open during the segment, ascending, whatever the bucket. */
  problems: number[];
  /** Maintenance bucket: indices into the `maintenance` input it falls in; unattended bucket: indices into context.unattended; otherwise empty. */
  sources: number[];
}

/** The figures the segments add up to; equal to ciFigures's fields of the same names. */
export interface TimelineTotals {
  okMs: number;
  problemMs: number;
  unattendedMs: number;
  maintenanceMs: number;
  maxDowntimeMs: number;
}

export interface CiTimeline {
  segments: TimelineSegment[];
  totals: TimelineTotals;
}

/** An input interval cut to the range, remembering where it came from. */
interface Piece {
  start: number;
  end: number;
  index: number;
  weight: number;
}

/** The pieces open at a moving instant; `advance` must be called with instants in ascending order. */
class OpenPieces {
  private readonly byStart: Piece[];
  private next = 0;
  open: Piece[] = [];

  constructor(pieces: Piece[]) {
    this.byStart = pieces.sort((a, b) => a.start - b.start);
  }

  advance(at: number): void {
    let closed = false;
    for (const p of this.open) if (p.end <= at) closed = true;
    if (closed) this.open = this.open.filter((p) => p.end > at);
    while (this.next < this.byStart.length && this.byStart[this.next]!.start <= at) {
      const p = this.byStart[this.next++]!;
      if (p.end > at) this.open.push(p);
    }
  }

  indices(): number[] {
    return this.open.map((p) => p.index).sort((a, b) => a - b);
  }
}

function clipped(intervals: readonly Interval[], range: Interval): Piece[] {
  const out: Piece[] = [];
  intervals.forEach((i, index) => {
    const start = Math.max(i.start, range.start);
    const end = Math.min(i.end, range.end);
    if (end > start) out.push({ start, end, index, weight: 0 });
  });
  return out;
}

const sameList = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The timeline of one CI; arguments as ciFigures takes them (see the module docblock for what may differ). */
export function ciTimeline(context: CiFiguresContext, maintenance: readonly Interval[], problems: readonly ProblemInput[]): CiTimeline {
  const { range, now, included } = context;
  if (range.end <= range.start) return { segments: [], totals: timelineTotals([]) };
  const problemPieces: Piece[] = [];
  problems.forEach((p, index) => {
    if (!included.has(p.priority)) return;
    const start = Math.max(p.start, range.start);
    const end = Math.min(problemEnd(p, now), range.end);
    if (end > start) problemPieces.push({ start, end, index, weight: influencePercent(p.influence) });
  });
  const unattendedPieces = clipped(context.unattended, range);
  const maintenancePieces = context.excludeMaintenance ? clipped(maintenance, range) : [];

  const cuts = [range.start, range.end];
  for (const p of [...problemPieces, ...unattendedPieces, ...maintenancePieces]) cuts.push(p.start, p.end);
  const instants = [...new Set(cuts)].sort((a, b) => a - b);

  const openProblems = new OpenPieces(problemPieces);
  const openUnattended = new OpenPieces(unattendedPieces);
  const openMaintenance = new OpenPieces(maintenancePieces);
  const segments: TimelineSegment[] = [];
  for (let k = 0; k + 1 < instants.length; k++) {
    const start = instants[k]!;
    const end = instants[k + 1]!;
    openProblems.advance(start);
    openUnattended.advance(start);
    openMaintenance.advance(start);
    const listed = openProblems.indices();
    let segment: TimelineSegment;
    if (openUnattended.open.length > 0) {
      segment = { start, end, bucket: 'unattended', weightPercent: 0, problems: listed, sources: openUnattended.indices() };
    } else if (openMaintenance.open.length > 0) {
      segment = { start, end, bucket: 'maintenance', weightPercent: 0, problems: listed, sources: openMaintenance.indices() };
    } else {
      let weight = 0;
      for (const p of openProblems.open) if (p.weight > weight) weight = p.weight;
      segment = { start, end, bucket: weight > 0 ? 'problem' : 'ok', weightPercent: weight, problems: listed, sources: [] };
    }
    const last = segments[segments.length - 1];
    if (
      last !== undefined &&
      last.bucket === segment.bucket &&
      last.weightPercent === segment.weightPercent &&
      sameList(last.problems, segment.problems) &&
      sameList(last.sources, segment.sources)
    ) {
      last.end = end;
    } else {
      segments.push(segment);
    }
  }
  return { segments, totals: timelineTotals(segments) };
}

/**
 * The figures of a timeline, from its segments alone (they cover the range, so their lengths add
 * up to it). Problem time is summed per run of
 * contiguous problem segments of one weight, weight × (summed length): those runs are exactly the
 * pieces ciFigures sums, in the same order, so the floating-point sum (and its one rounding) is
 * ciFigures's own even for an influence like 33.3 %, where summing segment by segment could land
 * on the other side of a half millisecond.
 */
export function timelineTotals(segments: readonly TimelineSegment[]): TimelineTotals {
  let totalMs = 0;
  let unattendedMs = 0;
  let maintenanceMs = 0;
  let percentMs = 0;
  let longest = 0;
  // The current run of problem time (breaks on anything else) and its stretch of one weight.
  let runMs = 0;
  let weight = 0;
  let weightMs = 0;
  let previousEnd = NaN;
  const endWeight = (): void => {
    percentMs += weight * weightMs;
    weightMs = 0;
  };
  const endRun = (): void => {
    endWeight();
    if (runMs > longest) longest = runMs;
    runMs = 0;
  };
  for (const s of segments) {
    const length = s.end - s.start;
    totalMs += length;
    if (s.start !== previousEnd) endRun();
    previousEnd = s.end;
    if (s.bucket === 'unattended') unattendedMs += length;
    if (s.bucket === 'maintenance') maintenanceMs += length;
    if (s.bucket !== 'problem') {
      endRun();
      continue;
    }
    if (s.weightPercent !== weight) endWeight();
    weight = s.weightPercent;
    weightMs += length;
    runMs += length;
  }
  endRun();
  const problemMs = Math.round(percentMs / 100);
  return { okMs: totalMs - unattendedMs - maintenanceMs - problemMs, problemMs, unattendedMs, maintenanceMs, maxDowntimeMs: longest };
}

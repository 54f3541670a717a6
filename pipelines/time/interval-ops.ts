/**
 * Half-open intervals [start, end) of epoch milliseconds and their set operations, shared by the
 * SLA maths (pipelines/sla/) and maintenance (pipelines/maintenance/, the control plane's
 * maintenance coverage). "Normal" lists are sorted by start, disjoint, non-touching and hold no
 * empty interval; every function here that takes two lists expects them normal and returns a
 * normal list, in O(n + m).
 */

/** [start, end) in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

/** Length of an interval, 0 when empty or inverted. */
export const intervalLength = (i: Interval): number => (i.end > i.start ? i.end - i.start : 0);

/** Sum of the lengths of a list (for a normal list: the measure of its union). */
export function totalLength(intervals: readonly Interval[]): number {
  let sum = 0;
  for (const i of intervals) sum += intervalLength(i);
  return sum;
}

/** Any list to a normal one: empty intervals dropped, overlapping or touching ones joined. O(n log n). */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && i.start <= last.end) {
      if (i.end > last.end) last.end = i.end;
    } else {
      out.push({ start: i.start, end: i.end });
    }
  }
  return out;
}

/** A normal list cut to `range`. */
export function clipIntervals(intervals: readonly Interval[], range: Interval): Interval[] {
  const out: Interval[] = [];
  for (const i of intervals) {
    const start = Math.max(i.start, range.start);
    const end = Math.min(i.end, range.end);
    if (end > start) out.push({ start, end });
  }
  return out;
}

/** The union of two normal lists. */
export function unionIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    let next: Interval;
    if (y === undefined || (x !== undefined && x.start <= y.start)) {
      next = x!;
      i++;
    } else {
      next = y;
      j++;
    }
    const last = out[out.length - 1];
    if (last !== undefined && next.start <= last.end) {
      if (next.end > last.end) last.end = next.end;
    } else {
      out.push({ start: next.start, end: next.end });
    }
  }
  return out;
}

/** The intersection of two normal lists. */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const start = Math.max(x.start, y.start);
    const end = Math.min(x.end, y.end);
    if (end > start) out.push({ start, end });
    if (x.end <= y.end) i++;
    else j++;
  }
  return out;
}

/** `a` minus `b`, both normal. */
export function subtractIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let j = 0;
  for (const x of a) {
    let start = x.start;
    while (j < b.length && b[j]!.end <= start) j++;
    let k = j;
    while (start < x.end) {
      const y = b[k];
      if (y === undefined || y.start >= x.end) {
        out.push({ start, end: x.end });
        break;
      }
      if (y.start > start) out.push({ start, end: y.start });
      start = Math.max(start, y.end);
      k++;
    }
  }
  return out;
}

/** The parts of `range` not covered by a normal list. */
export function complementIntervals(intervals: readonly Interval[], range: Interval): Interval[] {
  return subtractIntervals(range.end > range.start ? [{ start: range.start, end: range.end }] : [], intervals);
}

/** Whether a normal list has an interval meeting [start, end); an empty probe (start = end) meets an interval holding `start`. O(log n). */
export function touchesIntervals(intervals: readonly Interval[], start: number, end: number): boolean {
  // First interval whose end is past `start`.
  let lo = 0;
  let hi = intervals.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (intervals[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  const hit = intervals[lo];
  if (hit === undefined) return false;
  return end > start ? hit.start < end : hit.start <= start;
}

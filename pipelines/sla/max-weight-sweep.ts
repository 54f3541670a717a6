/**
 * The upper envelope ("skyline") of weighted intervals: for every instant covered by at least
 * one interval, the largest weight among those covering it. O(n log n) with a max-heap whose
 * expired entries are dropped lazily when they reach the top.
 */

export interface WeightedInterval {
  start: number;
  end: number;
  /** Any non-negative number; the SLA uses percent 0..100. */
  weight: number;
}

/** Max-heap of indices into `items`, ordered by weight. */
class WeightHeap {
  private readonly heap: number[] = [];
  constructor(private readonly items: readonly WeightedInterval[]) {}

  get size(): number {
    return this.heap.length;
  }

  top(): WeightedInterval {
    return this.items[this.heap[0]!]!;
  }

  push(index: number): void {
    const h = this.heap;
    const w = this.items[index]!.weight;
    let i = h.length;
    h.push(index);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.items[h[parent]!]!.weight >= w) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = index;
  }

  pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    const w = this.items[last]!.weight;
    const n = h.length;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.items[h[child + 1]!]!.weight > this.items[h[child]!]!.weight) child++;
      if (this.items[h[child]!]!.weight <= w) break;
      h[i] = h[child]!;
      i = child;
    }
    h[i] = last;
  }
}

/**
 * Sorted, disjoint segments each carrying the largest weight open over it. Neighbouring
 * segments of equal weight are joined; instants no interval covers are absent. Empty input
 * intervals are ignored.
 */
export function maxWeightSegments(intervals: readonly WeightedInterval[]): WeightedInterval[] {
  const items = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: WeightedInterval[] = [];
  const heap = new WeightHeap(items);
  let next = 0;
  let t = -Infinity;
  while (next < items.length || heap.size > 0) {
    if (heap.size === 0) t = Math.max(t, items[next]!.start);
    while (next < items.length && items[next]!.start <= t) heap.push(next++);
    while (heap.size > 0 && heap.top().end <= t) heap.pop();
    if (heap.size === 0) continue;
    const top = heap.top();
    const upcoming = next < items.length ? items[next]!.start : Infinity;
    const until = Math.min(top.end, upcoming);
    const last = out[out.length - 1];
    if (last !== undefined && last.end === t && last.weight === top.weight) last.end = until;
    else out.push({ start: t, end: until, weight: top.weight });
    t = until;
  }
  return out;
}

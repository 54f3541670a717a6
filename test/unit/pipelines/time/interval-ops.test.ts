/** Interval set operations and the largest-weight sweep. */
import t from 'tap';
import {
  clipIntervals,
  complementIntervals,
  intersectIntervals,
  mergeIntervals,
  subtractIntervals,
  totalLength,
  touchesIntervals,
  unionIntervals,
} from '../../../../pipelines/time/interval-ops.js';
import { maxWeightSegments } from '../../../../pipelines/sla/max-weight-sweep.js';

const iv = (start: number, end: number) => ({ start, end });

t.test('merge sorts, joins overlapping and touching intervals, drops empty ones', async (t) => {
  t.strictSame(mergeIntervals([iv(5, 7), iv(1, 3), iv(3, 4), iv(6, 9), iv(10, 10), iv(12, 11)]), [iv(1, 4), iv(5, 9)]);
});

t.test('clip cuts a normal list to a range', async (t) => {
  t.strictSame(clipIntervals([iv(0, 2), iv(3, 6), iv(8, 12)], iv(1, 10)), [iv(1, 2), iv(3, 6), iv(8, 10)]);
  t.strictSame(clipIntervals([iv(0, 1)], iv(1, 10)), []);
});

t.test('union, intersection and difference of normal lists', async (t) => {
  const a = [iv(0, 4), iv(6, 10), iv(12, 14)];
  const b = [iv(2, 7), iv(9, 12), iv(20, 21)];
  t.strictSame(unionIntervals(a, b), [iv(0, 14), iv(20, 21)]);
  t.strictSame(intersectIntervals(a, b), [iv(2, 4), iv(6, 7), iv(9, 10)]);
  t.strictSame(subtractIntervals(a, b), [iv(0, 2), iv(7, 9), iv(12, 14)]);
  t.strictSame(subtractIntervals([iv(0, 10)], [iv(2, 3), iv(5, 6), iv(9, 12)]), [iv(0, 2), iv(3, 5), iv(6, 9)]);
  t.strictSame(complementIntervals([iv(2, 3), iv(5, 6)], iv(0, 6)), [iv(0, 2), iv(3, 5)]);
  t.equal(totalLength(a), 10);
});

t.test('touches: overlap of [start, end), or holding the instant of an empty probe', async (t) => {
  const list = [iv(2, 4), iv(6, 8)];
  t.equal(touchesIntervals(list, 0, 2), false, 'ends where it starts');
  t.equal(touchesIntervals(list, 3, 3), true, 'instant inside');
  t.equal(touchesIntervals(list, 4, 4), false, 'instant at the exclusive end');
  t.equal(touchesIntervals(list, 4, 7), true);
  t.equal(touchesIntervals(list, 8, 20), false);
});

t.test('max-weight sweep: each instant carries the largest weight open then', async (t) => {
  t.strictSame(
    maxWeightSegments([
      { start: 2, end: 10, weight: 40 },
      { start: 4, end: 6, weight: 80 },
      { start: 5, end: 12, weight: 40 },
      { start: 14, end: 15, weight: 10 },
      { start: 15, end: 16, weight: 10 },
      { start: 16, end: 16, weight: 99 },
    ]),
    [
      { start: 2, end: 4, weight: 40 },
      { start: 4, end: 6, weight: 80 },
      { start: 6, end: 12, weight: 40 },
      { start: 14, end: 16, weight: 10 },
    ],
  );
});

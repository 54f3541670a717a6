/** Where a (trigger, CI) key lives in the keyed problem stage (DESIGN §7a). */
import t from 'tap';
import { partitionOf, problemKeyOf } from '../../../../pipelines/problems/partition.js';

t.test('the key text is "<triggerId>:<ciId>"', async (t) => {
  t.equal(problemKeyOf(7, 42), '7:42');
});

t.test('partitionOf is stable: the same partition on every process and version', async (t) => {
  // FNV-1a (32 bits) of the key text, computed once outside the code under test.
  const cases: Array<[triggerId: number, ciId: number, partitions: number, expected: number]> = [
    [1, 1, 16, 9],
    [1, 2, 16, 0],
    [2, 1, 16, 4],
    [7, 42, 16, 6],
    [123, 456789, 16, 4],
    [0, 0, 16, 13],
    [1, 1, 1000, 417],
    [7, 42, 1000, 414],
    [123, 456789, 7, 2],
  ];
  for (const [triggerId, ciId, partitions, expected] of cases) {
    t.equal(partitionOf(triggerId, ciId, partitions), expected, `${triggerId}:${ciId} over ${partitions}`);
  }
  t.not(partitionOf(1, 2, 16), partitionOf(2, 1, 16), 'the trigger and the CI are not interchangeable');
});

t.test('partitionOf is within [0, P) and spreads keys evenly: 1 000 CIs × 3 triggers over 16 partitions', async (t) => {
  const inRange = (p: number, partitions: number) => Number.isInteger(p) && p >= 0 && p < partitions;
  const partitions = 16;
  const counts = new Array<number>(partitions).fill(0);
  let outside = 0;
  for (let ciId = 1; ciId <= 1000; ciId++) {
    for (let triggerId = 1; triggerId <= 3; triggerId++) {
      const p = partitionOf(triggerId, ciId, partitions);
      if (!inRange(p, partitions)) outside++;
      else counts[p]!++;
    }
  }
  t.equal(outside, 0, 'every partition in range');
  const mean = 3000 / partitions;
  const off = counts.filter((c) => Math.abs(c - mean) > 0.4 * mean);
  t.same(off, [], `each partition within ±40 % of the mean ${mean} (counts ${counts.join(' ')})`);
  for (const size of [1, 3, 1000]) {
    for (const [triggerId, ciId] of [
      [1, 1],
      [5, 99_999],
      [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ] as const) {
      t.ok(inRange(partitionOf(triggerId, ciId, size), size), `${triggerId}:${ciId} in range for P = ${size}`);
    }
  }
});

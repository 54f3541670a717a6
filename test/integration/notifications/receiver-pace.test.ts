/**
 * Issue #31, a receiver's rate limit (services/notifications/receiver-pace.ts): each send reserves
 * the receiver's next slot in the keyed store (real LMDB), shared by every dispatcher. The clock
 * is injected and stands still; the waits the pace asks for are recorded instead of slept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createLocalPace, createReceiverPace, type ReceiverPace } from '../../../services/notifications/receiver-pace.js';
import type { KeyedStore } from '../../../services/runtime/adapters/keyed/keyed-store.port.js';
import { openLmdbKeyedStore } from '../../../services/runtime/adapters/keyed/lmdb.adapter.js';
import { silentLogger } from '../../../services/runtime/logger.js';

const T0 = Date.parse('2026-11-02T08:00:00.000Z');
const path = mkdtempSync(join(tmpdir(), 'ops-pace-'));
const stores: KeyedStore[] = [];
t.teardown(async () => {
  await Promise.all(stores.map((s) => s.close()));
  rmSync(path, { recursive: true, force: true });
});

const clock = { now: T0 };
const waits: number[] = [];

/** A dispatcher's pace: its own handle on the shared store; a wait moves nobody's clock. */
async function pace(): Promise<ReceiverPace> {
  const keyed = await openLmdbKeyedStore({ path }, { logger: silentLogger() });
  stores.push(keyed);
  return createReceiverPace(keyed, { now: () => clock.now, sleep: async (ms) => void waits.push(ms) });
}

t.test('a receiver at 2 messages/s: each send waits for the next free slot', async (t) => {
  const one = await pace();
  waits.length = 0;
  for (let i = 0; i < 3; i++) await one.take(1, 2);
  t.same(waits, [500, 1000], 'the first at once, then 500 ms apart');
});

t.test('two dispatchers share one receiver’s rate', async (t) => {
  const [one, two] = [await pace(), await pace()];
  clock.now += 60_000;
  waits.length = 0;
  await Promise.all([one.take(2, 1), two.take(2, 1), one.take(2, 1), two.take(2, 1)]);
  t.same(
    waits.sort((a, b) => a - b),
    [1000, 2000, 3000],
    'four sends at 1/s: slots 0, 1, 2 and 3 s, whichever dispatcher takes them',
  );
});

t.test('receivers have rates of their own', async (t) => {
  const one = await pace();
  clock.now += 60_000;
  waits.length = 0;
  await one.take(3, 1);
  await one.take(4, 1);
  t.same(waits, [], 'a slow receiver does not slow another');
});

t.test('a receiver idle for a while sends at once again', async (t) => {
  const one = await pace();
  clock.now += 60_000;
  waits.length = 0;
  await one.take(1, 2);
  t.same(waits, []);
});

t.test('the all-in-one platform keeps the same slots in memory', async (t) => {
  const local = createLocalPace({ now: () => clock.now, sleep: async (ms) => void waits.push(ms) });
  waits.length = 0;
  for (let i = 0; i < 3; i++) await local.take(1, 2);
  await local.take(2, 2);
  t.same(waits, [500, 1000], 'receiver 1 at 2/s; receiver 2 at once');
});

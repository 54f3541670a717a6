/**
 * Issue #34: the data directory's free space against OPS_MIN_FREE_DISK (ingestion pauses under it
 * and resumes by itself) and its reserve, a quarter of it (the control plane takes no change);
 * which engines /readyz names as unable to write, and for how long.
 */
import t from 'tap';
import type { DiskAmount } from '../../../../services/runtime/disk-amount.js';
import { createMetrics } from '../../../../services/runtime/http/metrics.js';
import { type DiskSpace, startDiskWatch } from '../../../../services/runtime/disk-watch.js';
import { silentLogger } from '../../../../services/runtime/logger.js';
import { createStorageHealth, HOLD_MS } from '../../../../services/runtime/storage-health.js';

const MiB = 1024 * 1024;

async function watchOf(space: DiskSpace, minFree: DiskAmount[] = [{ bytes: 100 * MiB }]) {
  const metrics = createMetrics();
  const disk = await startDiskWatch({ dir: '/data', minFree, intervalMs: 60_000 }, { logger: silentLogger(), metrics: metrics.storage, look: async () => ({ ...space }) });
  return { disk, metrics };
}

t.test('ingestion pauses under the watermark and resumes by itself', async (t) => {
  const space = { free: 500 * MiB, total: 1000 * MiB };
  const { disk, metrics } = await watchOf(space);
  t.teardown(() => disk.stop());
  t.equal(disk.ingestRefusal(), undefined, 'accepting with 500 MiB free');
  t.equal(disk.minFree(), 100 * MiB);
  t.equal(disk.reserve(), 25 * MiB, 'the reserve is a quarter of the watermark');

  space.free = 99 * MiB;
  await disk.check();
  const refusal = disk.ingestRefusal();
  t.equal(refusal?.code, 'ingest.disk_low', 'refused under the watermark');
  t.equal(refusal?.headers?.['Retry-After'], '10');
  t.match(refusal?.detail, /99\.0 MiB free, under the 100 MiB kept free/);
  t.equal(disk.belowReserve(), false, 'still over the reserve');

  space.free = 20 * MiB;
  await disk.check();
  t.equal(disk.belowReserve(), true, 'under the reserve');

  space.free = 100 * MiB;
  await disk.check();
  t.equal(disk.ingestRefusal(), undefined, 'accepting again at the watermark');
  t.equal(disk.belowReserve(), false);

  const text = await metrics.text();
  t.match(text, /^ops_data_dir_free_bytes 104857600$/m);
  t.match(text, /^ops_data_dir_size_bytes 1048576000$/m);
  t.match(text, /^ops_data_dir_min_free_bytes 104857600$/m);
});

t.test('a percent watermark follows the filesystem; 0 turns it off', async (t) => {
  const { disk } = await watchOf({ free: 40 * MiB, total: 1000 * MiB }, [{ percent: 5 }]);
  t.teardown(() => disk.stop());
  t.equal(disk.minFree(), 50 * MiB);
  t.ok(disk.ingestRefusal());
  const off = await watchOf({ free: 0, total: 1000 * MiB }, [{ bytes: 0 }]);
  t.teardown(() => off.disk.stop());
  t.equal(off.disk.ingestRefusal(), undefined, 'never refused with OPS_MIN_FREE_DISK=0');
  t.equal(off.disk.belowReserve(), false);
});

t.test('a directory whose space cannot be read refuses nothing', async (t) => {
  const disk = await startDiskWatch({ dir: '/nowhere', minFree: [{ bytes: MiB }] }, { logger: silentLogger(), look: () => Promise.reject(new Error('ENOENT')) });
  t.teardown(() => disk.stop());
  t.equal(disk.space(), undefined);
  t.equal(disk.ingestRefusal(), undefined);
  t.equal(disk.belowReserve(), false);
});

t.test('which engines cannot write: the last write, the hold, and the free space', async (t) => {
  let now = 1_000_000;
  const space = { free: 500 * MiB, total: 1000 * MiB };
  const { disk, metrics } = await watchOf(space);
  t.teardown(() => disk.stop());
  const health = createStorageHealth({ local: new Set(['analytics', 'journal'] as const), disk }, { metrics: metrics.storage, now: () => now });

  health.noteFull('analytics', 'NOT_ENOUGH_SPACE');
  health.noteFull('bus', 'JetStream has no storage left');
  t.same(health.unwritable(), { analytics: 'NOT_ENOUGH_SPACE', bus: 'JetStream has no storage left' }, 'named at once');
  health.noteWritten('bus');
  t.same(health.unwritable(), { analytics: 'NOT_ENOUGH_SPACE' }, 'a write that succeeds clears it');

  space.free = 50 * MiB;
  await disk.check();
  now += HOLD_MS;
  t.same(health.unwritable(), {}, 'with nothing written after, the hold ends');

  health.noteFull('analytics', 'NOT_ENOUGH_SPACE');
  space.free = 20 * MiB;
  await disk.check();
  now += 10 * HOLD_MS;
  t.same(Object.keys(health.unwritable()).sort(), ['analytics', 'journal'], 'under the reserve: the local engine that failed, and the journal, which takes no change there');
  t.match(health.unwritable().journal, /20\.0 MiB free, under the reserve of 25\.0 MiB/);

  health.noteFull('analytics', 'NOT_ENOUGH_SPACE');
  space.free = 200 * MiB;
  await disk.check();
  t.same(health.unwritable(), {}, 'a local engine is ready again as soon as space has come back over the watermark');
  t.match(await metrics.text(), /^ops_storage_full_errors_total\{engine="analytics"\} 3$/m, 'refusals counted by engine');
});

/**
 * The free space of the data directory (issue #34), looked at once a second off the request path
 * (`statfs`, asynchronous), so that the questions asked on every request cost nothing:
 *
 * - below OPS_MIN_FREE_DISK (the ingestion watermark), the receivers refuse records with 503
 *   `ingest.disk_low` and Retry-After, and take them again by themselves once space is back. What
 *   was acknowledged before still drains into the tables meanwhile: the watermark keeps room
 *   for it, before the engines themselves run out.
 * - below a quarter of the watermark (the reserve), the control plane takes no change (503
 *   `storage.full`, storage-guard.ts): what space is left goes to the acknowledged records still
 *   on their way and to the engines' own merges. Without it a small change may still fit where a
 *   large one fails (LMDB reuses freed pages), and a change would succeed or not by chance.
 *
 * Free means free for an unprivileged writer (`bavail`): the blocks a filesystem keeps for root
 * are not counted on. The look runs only where an embedded engine keeps its data in the directory.
 */
import { statfs } from 'node:fs/promises';
import { type DiskAmount, formatBytes, resolveDiskAmounts } from './disk-amount.js';
import { type AppError, failLater } from '../../schemas/errors.js';
import type { Logger } from './logger.js';
import type { StorageMetrics } from './storage-metrics.js';

/** A client refused for low disk is told to come back in this many seconds. */
export const DISK_LOW_RETRY_AFTER_SECONDS = 10;

export interface DiskSpace {
  /** Bytes an unprivileged writer may still use. */
  free: number;
  /** Size of the filesystem. */
  total: number;
}

export interface DiskWatch {
  readonly dir: string;
  /** The last look, or undefined before the first one succeeded (nothing is refused then). */
  space(): DiskSpace | undefined;
  /** The ingestion watermark in bytes on this filesystem. */
  minFree(): number;
  /** The reserve in bytes: below it the control plane takes no change. */
  reserve(): number;
  /** The answer to records offered now: a 503 while free space is under the watermark. */
  ingestRefusal(): AppError | undefined;
  /** Free space is under the reserve. */
  belowReserve(): boolean;
  /** Looks now (tests; the timer looks once a second). */
  check(): Promise<void>;
  stop(): void;
}

export interface DiskWatchConfig {
  dir: string;
  minFree: readonly DiskAmount[];
  intervalMs?: number;
}

export interface DiskWatchDeps {
  logger: Logger;
  metrics?: StorageMetrics;
  /** Replaces statfs (tests). */
  look?: (dir: string) => Promise<DiskSpace>;
}

const lookAt = async (dir: string): Promise<DiskSpace> => {
  const s = await statfs(dir);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
};

export async function startDiskWatch(config: DiskWatchConfig, deps: DiskWatchDeps): Promise<DiskWatch> {
  const look = deps.look ?? lookAt;
  const logger = deps.logger.child({ component: 'disk-watch', dir: config.dir });
  let last: DiskSpace | undefined;
  let paused = false;
  let lookFailed = false;

  const minFree = (): number => (last ? resolveDiskAmounts(config.minFree, last.total) : 0);
  const reserve = (): number => Math.floor(minFree() / 4);

  async function check(): Promise<void> {
    try {
      last = await look(config.dir);
      lookFailed = false;
    } catch (err) {
      if (!lookFailed) logger.warn({ err }, 'cannot read the free space of the data directory');
      lookFailed = true;
      return;
    }
    deps.metrics?.dataDirFree.set(last.free);
    deps.metrics?.dataDirSize.set(last.total);
    deps.metrics?.dataDirMinFree.set(minFree());
    const below = last.free < minFree();
    if (below !== paused) {
      paused = below;
      const figures = { freeBytes: last.free, minFreeBytes: minFree() };
      if (below) logger.warn(figures, 'free space under OPS_MIN_FREE_DISK: ingestion paused');
      else logger.info(figures, 'free space back over OPS_MIN_FREE_DISK: ingestion resumed');
    }
  }

  await check();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void check().finally(() => (running = false));
  }, config.intervalMs ?? 1000);
  timer.unref();

  return {
    dir: config.dir,
    space: () => last,
    minFree,
    reserve,
    ingestRefusal() {
      if (!last || last.free >= minFree()) return undefined;
      return failLater('ingest.disk_low', DISK_LOW_RETRY_AFTER_SECONDS, { free: formatBytes(last.free), limit: formatBytes(minFree()) });
    },
    belowReserve: () => last !== undefined && last.free < reserve(),
    check,
    stop: () => clearInterval(timer),
  };
}

/**
 * Which engines cannot write now, for /readyz (issue #34): the outcome of their last write, kept
 * by the storage guards (adapters/storage-guard.ts), and, for the engines whose files are in the
 * data directory, its free space.
 *
 * An engine whose write failed for want of space is not ready until one of its writes succeeds,
 * or, when nothing is written to it meanwhile (a process that is not ready gets no traffic), for
 * HOLD_MS after the failure. For an engine in the data directory the free space decides sooner:
 * it stays not ready while free space is under the reserve (disk-watch.ts), and is ready again as
 * soon as space has come back since the failure, over the ingestion watermark. The LMDB journal
 * is not ready under the reserve at all, written to or not, since the control plane refuses
 * every change there.
 */
import { formatBytes } from './disk-amount.js';
import type { DiskWatch } from './disk-watch.js';
import type { StorageMetrics } from './storage-metrics.js';

export type EngineName = 'analytics' | 'bus' | 'journal' | 'problemState';

/** How long a failed write keeps an engine not ready when nothing is written to it after. */
export const HOLD_MS = 10_000;

export interface StorageHealth {
  noteFull(engine: EngineName, reason: string): void;
  noteWritten(engine: EngineName): void;
  /** The engines that cannot write now, with the reason. */
  unwritable(): Partial<Record<EngineName, string>>;
}

export interface StorageHealthConfig {
  /** The engines whose files are in the data directory. */
  local: ReadonlySet<EngineName>;
  disk: DiskWatch | undefined;
}

export function createStorageHealth(config: StorageHealthConfig, deps: { metrics?: StorageMetrics; now?: () => number } = {}): StorageHealth {
  const now = deps.now ?? Date.now;
  /** The failures not yet cleared, with the free space of the data directory when they came. */
  const failed = new Map<EngineName, { at: number; reason: string; freeThen: number | undefined }>();
  const underReserve = (): string | undefined => {
    const space = config.disk?.space();
    if (!config.disk?.belowReserve() || !space) return undefined;
    return `the data directory has ${formatBytes(space.free)} free, under the reserve of ${formatBytes(config.disk.reserve())}`;
  };
  return {
    noteFull(engine, reason) {
      failed.set(engine, { at: now(), reason, freeThen: config.disk?.space()?.free });
      deps.metrics?.storageFull.inc({ engine });
    },
    noteWritten(engine) {
      failed.delete(engine);
    },
    unwritable() {
      const out: Partial<Record<EngineName, string>> = {};
      const reserve = underReserve();
      const space = config.disk?.space();
      const roomSince = (freeThen: number | undefined): boolean =>
        space !== undefined && freeThen !== undefined && config.disk !== undefined && space.free > freeThen && space.free >= config.disk.minFree();
      for (const [engine, { at, reason, freeThen }] of failed) {
        const local = config.local.has(engine);
        if ((local && reserve !== undefined) || (now() - at < HOLD_MS && !(local && roomSince(freeThen)))) out[engine] = reason;
      }
      if (reserve !== undefined && config.local.has('journal')) out.journal ??= reserve;
      return out;
    },
  };
}

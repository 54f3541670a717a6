/**
 * What the storage side of a process reports (issue #34): the data directory's free space against
 * the ingestion watermark (the alerts in deploy/prometheus fire before it), writes refused for a
 * full store, log lines that could not be written, and the disk each analytics table takes.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { LogOutputStats } from './log-destination.js';

export interface StorageMetrics {
  readonly dataDirFree: Gauge;
  readonly dataDirSize: Gauge;
  readonly dataDirMinFree: Gauge;
  readonly storageFull: Counter<'engine'>;
  readonly logWriteErrors: Counter;
  readonly logLinesDropped: Counter;
  readonly tableBytes: Gauge<'table'>;
  readonly tableRows: Gauge<'table'>;
}

export function registerStorageMetrics(registry: Registry): StorageMetrics {
  const registers = [registry];
  const metrics: StorageMetrics = {
    dataDirFree: new Gauge({
      name: 'ops_data_dir_free_bytes',
      help: 'Free space of the filesystem of the data directory (OPS_DATA_DIR) for an unprivileged writer, looked at once a second (0, as the size, where no embedded engine keeps data there)',
      registers,
    }),
    dataDirSize: new Gauge({ name: 'ops_data_dir_size_bytes', help: 'Size of the filesystem of the data directory', registers }),
    dataDirMinFree: new Gauge({
      name: 'ops_data_dir_min_free_bytes',
      help: 'The ingestion watermark (OPS_MIN_FREE_DISK) in bytes: under it the receivers answer 503 ingest.disk_low; under a quarter of it the control plane takes no change',
      registers,
    }),
    storageFull: new Counter({
      name: 'ops_storage_full_errors_total',
      help: 'Writes refused because a store was full (503 storage.full), by engine (analytics, bus, journal, problemState)',
      labelNames: ['engine'],
      registers,
    }),
    logWriteErrors: new Counter({
      name: 'ops_log_write_errors_total',
      help: 'Writes of log lines to standard output that failed (e.g. ENOSPC); their lines are dropped and the process goes on',
      registers,
    }),
    logLinesDropped: new Counter({
      name: 'ops_log_lines_dropped_total',
      help: 'Log lines dropped: written while the output failed, or over the buffer while it was blocked',
      registers,
    }),
    tableBytes: new Gauge({
      name: 'ops_table_bytes',
      help: 'Bytes on disk of the active parts of each analytics table (system.parts, refreshed at most every 30 s at a scrape)',
      labelNames: ['table'],
      registers,
    }),
    tableRows: new Gauge({
      name: 'ops_table_rows',
      help: 'Rows in the active parts of each analytics table (before a Replacing merge collapses versions)',
      labelNames: ['table'],
      registers,
    }),
  };
  // Every engine is exposed from the start, so the first refusal is an increase from 0 that
  // increase() and the alert rules see, not a new series.
  for (const engine of ['analytics', 'bus', 'journal', 'problemState']) metrics.storageFull.inc({ engine }, 0);
  return metrics;
}

/** A scrape refresher bringing the log counters up to the log output's own counts (counters only go up). */
export function logOutputRefresher(output: { stats(): LogOutputStats }, metrics: StorageMetrics): () => Promise<void> {
  let counted = { writeErrors: 0, droppedLines: 0 };
  return async () => {
    const { writeErrors, droppedLines } = output.stats();
    if (writeErrors > counted.writeErrors) metrics.logWriteErrors.inc(writeErrors - counted.writeErrors);
    if (droppedLines > counted.droppedLines) metrics.logLinesDropped.inc(droppedLines - counted.droppedLines);
    counted = { writeErrors: Math.max(writeErrors, counted.writeErrors), droppedLines: Math.max(droppedLines, counted.droppedLines) };
  };
}

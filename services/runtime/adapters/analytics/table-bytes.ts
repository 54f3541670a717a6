/**
 * Disk used per analytics table (issue #34), for `ops_table_bytes{table}` and `ops_table_rows{table}`:
 * the active parts in `system.parts`, read at a scrape at most once per `maxAgeMs` (a scrape in
 * between gets the last figures), so that scrapes cost the engine nothing worth counting.
 */
import type { StorageMetrics } from '../../storage-metrics.js';
import type { AnalyticsStore } from './analytics.port.js';

export const TABLE_BYTES_SQL =
  'SELECT table, sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts WHERE database = currentDatabase() AND active GROUP BY table ORDER BY table';

export function tableBytesRefresher(store: AnalyticsStore, metrics: StorageMetrics, options: { maxAgeMs?: number; now?: () => number } = {}): () => Promise<void> {
  const maxAge = options.maxAgeMs ?? 30_000;
  const now = options.now ?? Date.now;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  return () => {
    if (now() - readAt < maxAge) return Promise.resolve();
    return (reading ??= (async () => {
      try {
        const rows = await store.query<{ table: string; bytes: string; rows: string }>(TABLE_BYTES_SQL);
        metrics.tableBytes.reset();
        metrics.tableRows.reset();
        for (const row of rows) {
          metrics.tableBytes.set({ table: row.table }, Number(row.bytes));
          metrics.tableRows.set({ table: row.table }, Number(row.rows));
        }
        readAt = now();
      } finally {
        reading = undefined;
      }
    })());
  };
}

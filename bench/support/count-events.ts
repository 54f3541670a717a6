/**
 * Benchmark child: counts the event rows of a stopped platform's data directory (OPS_DATA_DIR),
 * opening its embedded ClickHouse (chDB) as the platform did, and prints one JSON line per
 * stream: rows on disk (no FINAL: a record stored twice counts twice), distinct ids, and rows as
 * a FINAL read sees them. The platform must be stopped first: chDB holds its directory alone.
 */
import { join } from 'node:path';
import { createChdbStore } from '../../services/runtime/adapters/analytics/chdb.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { detachStdin } from '../../services/runtime/stdin.js';

export interface StreamRows {
  stream: number;
  rows: number;
  distinctIds: number;
  finalRows: number;
}

detachStdin();
const dataDir = process.env['OPS_DATA_DIR'];
if (!dataDir) throw new Error('OPS_DATA_DIR names the data directory to count');
const store = await createChdbStore({ dataDir: join(dataDir, 'clickhouse') }, { logger: silentLogger() });
const onDisk = await store.query<{ stream: string; rows: string; ids: string }>('SELECT stream_id AS stream, count() AS rows, uniqExact(id) AS ids FROM events GROUP BY stream_id');
const final = await store.query<{ stream: string; rows: string }>('SELECT stream_id AS stream, count() AS rows FROM events FINAL GROUP BY stream_id');
const finalOf = new Map(final.map((r) => [Number(r.stream), Number(r.rows)]));
const counted: StreamRows[] = onDisk.map((r) => ({ stream: Number(r.stream), rows: Number(r.rows), distinctIds: Number(r.ids), finalRows: finalOf.get(Number(r.stream)) ?? 0 }));
await store.close();
process.stdout.write(`${JSON.stringify(counted)}\n`, () => process.exit(0));

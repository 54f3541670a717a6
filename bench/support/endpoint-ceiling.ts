/**
 * The insert ceiling of a ClickHouse endpoint for the event worker's rows (issue #35), run as a
 * child of bench/problems.bench.ts against the run's own ClickHouse (the test-only
 * chDB-behind-HTTP server there): event rows as the worker writes them (pipelines/records/
 * event-row.ts: the same columns, settings and JSONEachRow text, records shaped as the bench's
 * bodies), CEILING_ROWS_PER_INSERT at a time, as many inserts at once as one JetStream worker
 * makes (its STORE_AHEAD), through the same adapter (createClickHouseStore), for CEILING_SECONDS
 * of inserts. The rows of each round of inserts are made before it and not timed. Its stream id
 * is its own, so the benchmark's counts do not see its rows.
 *
 * Env: CLICKHOUSE_URL, CLICKHOUSE_DATABASE, CEILING_ROWS_PER_INSERT, CEILING_SECONDS,
 * CEILING_STREAM_ID. Prints one JSON line: { rows, seconds, inserts }.
 */
import { randomBytes } from 'node:crypto';
import { EVENT_ROW_SETTINGS, eventRowLine, idPrefix } from '../../pipelines/records/event-row.js';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';
import { createClickHouseStore } from '../../services/runtime/adapters/analytics/clickhouse.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { STORE_AHEAD } from '../../services/event-worker/event-worker.part.js';

const url = process.env['CLICKHOUSE_URL'];
if (!url) throw new Error('CLICKHOUSE_URL is required');
const rowsPerInsert = Number(process.env['CEILING_ROWS_PER_INSERT'] ?? 40_000);
const seconds = Number(process.env['CEILING_SECONDS'] ?? 5);
const streamId = Number(process.env['CEILING_STREAM_ID'] ?? 999_999);
const SEVERITIES = ['critical', 'major', 'minor'];

const store = await createClickHouseStore({ url, database: process.env['CLICKHOUSE_DATABASE'] ?? 'ops' }, { logger: silentLogger() });

/** One insert's rows: a batch of its own (fresh id), records as the bench's bodies carry them. */
function rowsOf(insert: number): Buffer {
  const prefix = idPrefix(randomBytes(16).toString('hex'));
  const base = Date.now() - 3_600_000 + insert * 1000;
  const lines: string[] = [];
  for (let i = 0; i < rowsPerInsert; i++) {
    const at = new Date(base + (i % 1000));
    const payload = `{"ts":"${at.toISOString()}","check":"cpu","host":"host-${i % 1000}","severity":"${SEVERITIES[i % 3]}","status":"${i % 10 === 0 ? 'ok' : 'firing'}"}`;
    const ts = clickhouseDateTime(at.getTime());
    lines.push(eventRowLine(prefix, i, streamId, ts, ts, '""', '{}', payload));
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

let rows = 0;
let inserts = 0;
let spent = 0;
while (spent < seconds * 1000) {
  // The rows of a round's inserts are made while nothing is timed, as the worker has them decoded.
  const bodies = Array.from({ length: STORE_AHEAD }, (_, i) => rowsOf(inserts + i));
  const started = performance.now();
  await Promise.all(bodies.map((body, i) => store.insert('events', body, { deduplicationToken: `ceiling-${process.pid}-${inserts + i}`, settings: EVENT_ROW_SETTINGS })));
  spent += performance.now() - started;
  rows += rowsPerInsert * bodies.length;
  inserts += bodies.length;
}
await store.close();
process.stdout.write(`${JSON.stringify({ rows, seconds: spent / 1000, inserts })}\n`);

/**
 * Bytes on disk per stored event (issue #34), so an operator can size a volume: the whole
 * platform on its embedded engines in a temporary directory takes RECORDS typical records
 * through the stream-data API (NDJSON, 5 000 a request), and once every one is stored the script
 * reads `system.parts` (active parts of `events`: bytes on disk, rows) as the merges left it, then
 * again after `OPTIMIZE TABLE events FINAL` (one part per month, what the background merges tend
 * to), and the per-column split from `system.columns`. Not a test: it asserts nothing.
 *
 *   node --import tsx bench/event-bytes.bench.ts            # 1 000 000 records
 *   RECORDS=200000 node --import tsx bench/event-bytes.bench.ts
 *
 * Writes bench/results/event-bytes.md with the machine's description.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parts } from '../services/parts.js';
import { startPlatform } from '../services/platform.js';
import { RECORDS_STREAM } from '../services/runtime/bus-streams.js';
import { loadConfig } from '../services/runtime/config.js';
import { createLogger } from '../services/runtime/logger.js';
import { machineDescription, writeResultFile } from './support/report.js';

const RECORDS = Number(process.env['RECORDS'] ?? 1_000_000);
const PER_REQUEST = 5000;
const CONCURRENCY = 4;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

const HOSTS = Array.from({ length: 500 }, (_, i) => `web-${String(i).padStart(3, '0')}.dc${i % 3}.example.net`);
const SERVICES = ['nginx', 'api', 'orders', 'billing', 'auth', 'search', 'postgres', 'redis', 'kafka', 'cron'];
const SEVERITIES = ['info', 'info', 'info', 'info', 'notice', 'warning', 'error'];
const PATHS = ['/api/orders', '/api/customers', '/api/invoices', '/health', '/api/search', '/login'];

/** A seeded pseudo-random generator (mulberry32): the same records every run, without a pattern to compress. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = random(34);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/** A syslog/agent-like record of about 180 bytes: date, host, service, severity, a message with ids and timings. */
function record(n: number, start: number): string {
  const severity = pick(SEVERITIES);
  const status = severity === 'error' ? 500 : 200;
  return JSON.stringify({
    '@timestamp': new Date(start + n * 3 + Math.floor(rnd() * 3)).toISOString(),
    host: pick(HOSTS),
    service: pick(SERVICES),
    severity,
    message: `GET ${pick(PATHS)}/${Math.floor(rnd() * 1_000_000)} ${status} in ${Math.floor(rnd() * 900)} ms`,
    status: status === 200 ? 'ok' : 'failed',
    pid: 1000 + Math.floor(rnd() * 30000),
  });
}

const load = loadavg();
const dataDir = mkdtempSync(join(tmpdir(), 'ops-bench-bytes-'));
const config = loadConfig({ OPS_PORT: '1', OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'warn', OPS_MIN_FREE_DISK: '0' });
config.port = 0;
const platform = await startPlatform(config, parts, { logger: createLogger('warn', process.stderr) });
try {
  const base = `http://127.0.0.1:${platform.port}`;
  const created = await fetch(`${base}/api/admin/v1/streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bytes' }),
  });
  const stream = (await created.json()) as { key: string };
  const start = Date.now() - RECORDS * 3;

  let next = 0;
  let sentBytes = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RECORDS) {
        const first = next;
        next = Math.min(RECORDS, next + PER_REQUEST);
        const lines: string[] = [];
        for (let n = first; n < next; n++) lines.push(record(n, start));
        const body = lines.join('\n');
        for (;;) {
          const answer = await fetch(`${base}/api/public/cl/v1/stream-data?streamKey=${stream.key}`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body });
          await answer.arrayBuffer();
          if (answer.status === 200) break;
          if (answer.status !== 503) throw new Error(`ingest answered ${answer.status}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        sentBytes += Buffer.byteLength(body) - (next - first - 1);
      }
    }),
  );
  for (;;) {
    const { pending } = await platform.engines.bus.stats();
    if ((pending[RECORDS_STREAM.name] ?? 0) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - started) / 1000;

  const { analytics } = platform.engines;
  const parts = async () =>
    (
      await analytics.query<{ parts: string; rows: string; bytes: string; raw: string }>(
        "SELECT count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytes, sum(data_uncompressed_bytes) AS raw FROM system.parts WHERE database = currentDatabase() AND table = 'events' AND active",
      )
    )[0]!;
  const asMerged = await parts();
  await analytics.command('OPTIMIZE TABLE events FINAL');
  const optimised = await parts();
  const columns = await analytics.query<{ name: string; compressed: string; raw: string }>(
    "SELECT name, data_compressed_bytes AS compressed, data_uncompressed_bytes AS raw FROM system.columns WHERE database = currentDatabase() AND table = 'events' ORDER BY data_compressed_bytes DESC",
  );
  const rows = Number(optimised.rows);
  const per = (bytes: string | number, count: number): string => (Number(bytes) / count).toFixed(1);
  const sample = record(12345, start);
  const lines = [
    '# Bytes on disk per stored event',
    '',
    `\`node --import tsx bench/event-bytes.bench.ts\` (RECORDS=${RECORDS}): ${RECORDS.toLocaleString('en-US')} records through \`POST /api/public/cl/v1/stream-data\``,
    `(NDJSON, ${PER_REQUEST} a request, ${CONCURRENCY} at a time) into the platform on its embedded engines (chDB ${'`events`'} table,`,
    `ClickHouse's default LZ4 compression), then \`system.parts\` of the active parts of \`events\`. A typical record`,
    `(${Buffer.byteLength(sample)} bytes as sent; the average this run: ${(sentBytes / RECORDS).toFixed(1)} bytes):`,
    '',
    '```json',
    sample,
    '```',
    '',
    '| when | parts | rows | bytes on disk | bytes per event | uncompressed bytes per event |',
    '| --- | --: | --: | --: | --: | --: |',
    `| as the background merges left it | ${asMerged.parts} | ${Number(asMerged.rows).toLocaleString('en-US')} | ${Number(asMerged.bytes).toLocaleString('en-US')} | ${per(asMerged.bytes, Number(asMerged.rows))} | ${per(asMerged.raw, Number(asMerged.rows))} |`,
    `| after OPTIMIZE TABLE events FINAL | ${optimised.parts} | ${rows.toLocaleString('en-US')} | ${Number(optimised.bytes).toLocaleString('en-US')} | ${per(optimised.bytes, rows)} | ${per(optimised.raw, rows)} |`,
    '',
    'Per column, after the merge (compressed bytes per event):',
    '',
    '| column | bytes per event | uncompressed |',
    '| --- | --: | --: |',
    ...columns.map((c) => `| ${c.name} | ${per(c.compressed, rows)} | ${per(c.raw, rows)} |`),
    '',
    `Ingested and stored in ${seconds.toFixed(1)} s (${Math.round(RECORDS / seconds).toLocaleString('en-US')} records/s, load generator in the same process).`,
    `Bus log file at the end: ${(statSync(join(dataDir, 'bus', 'data.mdb')).size / 2 ** 20).toFixed(1)} MiB (its high-water mark; given back at close).`,
    '',
    'Machine:',
    '',
    ...machineDescription(load),
    '',
  ];
  const text = lines.join('\n');
  writeResultFile(new URL('./results/event-bytes.md', import.meta.url), text);
  process.stdout.write(text);
} finally {
  await platform.stop('bench done');
  rmSync(dataDir, { recursive: true, force: true });
}

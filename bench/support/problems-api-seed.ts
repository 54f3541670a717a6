/**
 * Benchmark child of the problems API benchmark: seeds an installation, then stops, so that the
 * platform process measured afterwards starts on the seeded data (its open-problem index loads
 * at start). On the engines the environment names (OPS_DATA_DIR, or NATS_URL / REDIS_URL /
 * CLICKHOUSE_URL), it starts the API part and
 * - creates workgroups `ops` and `net`, the non-admin user `bench-reader` (in `ops`, role
 *   `stream-reader` so it may read events; no CI right beyond its workgroup's) and its token,
 *   and the event streams, through the admin API;
 * - commits the 100 000 CIs of problems-api-dataset.ts in commits of 10 000;
 * - inserts the problems (version 1) and the events straight into `problems` and `events`, as
 *   NDJSON in large blocks through the analytics store;
 * - with SEED_OPTIMIZE, merges both tables (OPTIMIZE … FINAL), so that no background merge runs
 *   during the measurements.
 * SEED_SPEC (JSON): { problemsPerCi, openOnly, events, streams, optimize, cmdb }; `cmdb`:
 * `sites` (the default, problems-api-dataset.ts) or `console` (console-dataset.ts: the same
 * 100 000 CIs with one of 5 000 children, for the console benchmark). Prints one JSON line
 * (SeedInfo) on stdout and exits. Logs go to stderr; stdin is detached (chDB would read it).
 */
import { adminApi } from './admin-api.js';
import { pino } from 'pino';
import { apiPart } from '../../services/api/api.part.js';
import { startPlatform } from '../../services/platform.js';
import { loadConfig } from '../../services/runtime/config.js';
import { createLogger } from '../../services/runtime/logger.js';
import { detachStdin } from '../../services/runtime/stdin.js';
import { consoleCmdbChanges } from './console-dataset.js';
import { BENCH_ADMIN_TOKEN, CI_COUNT, cmdbChanges, eventLines, problemLines } from './problems-api-dataset.js';

detachStdin();

export interface SeedSpec {
  problemsPerCi: number;
  openOnly: boolean;
  events: number;
  streams: number;
  optimize: boolean;
  /** The CMDB's shape: `sites` (default) or `console`. */
  cmdb?: 'sites' | 'console';
}

export interface SeedInfo {
  token: string;
  user: { id: number; name: string };
  streamIds: number[];
  /** The instant the data ends at (ms): problems over the 30 days before it, events over the 24 h before it. */
  endMs: number;
  problems: number;
  openProblems: number;
  events: number;
  /** Seconds per phase. */
  seconds: { cmdb: number; problems: number; events: number; optimize: number };
}

const spec = JSON.parse(process.env['SEED_SPEC'] ?? '{}') as SeedSpec;
const config = loadConfig({ ...process.env, OPS_HOST: '127.0.0.1', OPS_ADMIN_TOKEN: BENCH_ADMIN_TOKEN, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' });
config.port = 0;
const platform = await startPlatform(config, [apiPart], { logger: createLogger(config.logLevel, pino.destination(2)) });
const { analytics } = platform.engines;
const seconds = (since: number): number => Math.round((performance.now() - since) / 100) / 10;

const admin = adminApi(`http://127.0.0.1:${platform.port}`, BENCH_ADMIN_TOKEN);

/**
 * Inserts the NDJSON blocks one after the other, making the next block while the engine takes
 * the last (chDB inserts off the event loop): generation and insertion overlap.
 */
async function pipelined(table: string, blocks: () => Iterable<string>): Promise<void> {
  let inserting: Promise<void> = Promise.resolve();
  for (const block of blocks()) {
    if (block.length === 0) continue;
    const values = Buffer.from(block);
    await inserting;
    inserting = analytics.insert(table, values);
  }
  await inserting;
}

try {
  const me = await admin('GET', '/api/admin/v1/me');
  const ops = await admin('POST', '/api/admin/v1/work-groups', { name: 'ops' });
  const net = await admin('POST', '/api/admin/v1/work-groups', { name: 'net' });
  const user = await admin('POST', '/api/admin/v1/users', { name: 'bench-reader', roles: ['stream-reader'], workGroupIds: [ops.id] });
  const issued = await admin('POST', `/api/admin/v1/users/${user.id}/tokens`, { name: 'benchmark' });
  const streamIds: number[] = [];
  for (let s = 0; s < spec.streams; s++) streamIds.push((await admin('POST', '/api/admin/v1/streams', { name: `bench-events-${s + 1}` })).id);

  const model = platform.controlPlane.model;
  const typeId = model.slices.cmdb.defaultType()?.id;
  if (typeId === undefined || model.slices.cmdb.cis.size !== 0) throw new Error('the benchmark needs an empty CMDB with a default CI type');
  const ctx = { opsWorkGroupId: ops.id, netWorkGroupId: net.id, typeId, author: { id: me.user.id, name: me.user.name }, now: new Date().toISOString() };
  let started = performance.now();
  const changesOf = spec.cmdb === 'console' ? consoleCmdbChanges : cmdbChanges;
  for (let from = 1; from <= CI_COUNT; from += 10_000) {
    const changes = changesOf(from, Math.min(from + 9_999, CI_COUNT), ctx);
    await platform.controlPlane.execute(() => ({ changes, result: () => undefined }));
  }
  const cmdbSeconds = seconds(started);

  const endMs = Math.floor(Date.now() / 1000) * 1000;
  started = performance.now();
  const ciBlock = Math.max(1, Math.floor(100_000 / spec.problemsPerCi));
  await pipelined('problems', function* () {
    for (let from = 1; from <= CI_COUNT; from += ciBlock) yield problemLines(from, Math.min(from + ciBlock - 1, CI_COUNT), spec.problemsPerCi, endMs, spec.openOnly);
  });
  const problemSeconds = seconds(started);

  started = performance.now();
  const EVENT_BLOCK = 500_000;
  await pipelined('events', function* () {
    for (let from = 0; from < spec.events; from += EVENT_BLOCK) yield eventLines(from, Math.min(from + EVENT_BLOCK, spec.events), spec.events, endMs, streamIds);
  });
  const eventSeconds = seconds(started);

  started = performance.now();
  if (spec.optimize) {
    await analytics.command('OPTIMIZE TABLE problems FINAL');
    if (spec.events > 0) await analytics.command('OPTIMIZE TABLE events FINAL');
  }
  const optimizeSeconds = seconds(started);

  const [counts] = await analytics.query<{ n: string; open: string }>('SELECT count() AS n, countIf(date_end IS NULL) AS open FROM problems FINAL');
  const [events] = await analytics.query<{ n: string }>('SELECT count() AS n FROM events');
  const info: SeedInfo = {
    token: issued.token,
    user: { id: user.id, name: user.name },
    streamIds,
    endMs,
    problems: Number(counts?.n ?? 0),
    openProblems: Number(counts?.open ?? 0),
    events: Number(events?.n ?? 0),
    seconds: { cmdb: cmdbSeconds, problems: problemSeconds, events: eventSeconds, optimize: optimizeSeconds },
  };
  await platform.stop('seeded');
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await platform.stop('seed failed').catch(() => undefined);
  process.exit(1);
}

/**
 * Problems API benchmark (issue #30). Run with:
 *
 *   node --import tsx bench/problems-api.bench.ts          (PROBLEMS_BENCH_SCALE=0.1 for a quick run)
 *
 * Against the whole platform on its embedded engines (support/problems-server.ts, what `npm start`
 * runs) over a seeded installation (support/problems-api-seed.ts, support/problems-api-dataset.ts:
 * 100 000 CIs of which the non-admin caller reads 10 %, 1 000 000 problems over 30 days of which
 * 10 000 open, 10 000 000 events over 24 h), every request made by that caller:
 * 1. the open list, limit 100 — served from the in-memory open index; baseline: the same rows
 *    read by the list's own SQL over `problems FINAL` (problem-select.ts) straight on chDB;
 * 2. a site's subtree, priorities 1–2, state=all, from 7 days ago; baseline: the same SQL;
 * 3. state=all pages of 50: page 1 against page 1 000, reached by walking the cursor (not timed);
 * 4. SSE fan-out in the distributed mode (support/problems-sse.ts): 1 000 subscribers, 1 000
 *    changes/s for 30 s published on the bus feed by a process of its own;
 * 5. one hour of events filtered on `level=error`; baseline: the two statements of the page
 *    (event-reads.ts) straight on chDB.
 * The SQL baselines run in a process of their own (support/problems-api-baseline.ts) on a copy
 * of the platform's ClickHouse data, one statement at a time, as the API runs it for one caller.
 * HTTP load comes from autocannon in a process per run (support/problems-api-load.ts), which
 * reports its CPU; a bare uWebSockets.js route answering the open list's JSON shows its ceiling.
 * Rows are interleaved within each run; figures are medians over the runs.
 * Writes bench/results/problems-api.md. A benchmark asserts nothing: it reports the targets.
 *
 * Environment: PROBLEMS_BENCH_SCALE (1), BENCH_RUNS (3), BENCH_SECONDS (5 per HTTP / SQL run,
 * after BENCH_WARMUP, 1), BENCH_CONNECTIONS (4: the concurrent rows; targets are read at 1),
 * BENCH_SCENARIOS (open,subtree,cursor,events,sse), BENCH_DATA_DIR (the OS temporary directory:
 * the disk here; /dev/shm for tmpfs), SSE_SUBSCRIBERS (1 000 × scale), SSE_PROCESSES (2),
 * SSE_RATE (1 000), SSE_SECONDS (30 × scale, at least 5), LOG_LEVEL (warn), BENCH_PROFILE (1: profile the
 * platform during the timed runs and report where its CPU went; the figures then include the
 * profiler's cost).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, lines, startChild, stopAllChildren } from './support/child.js';
import { monotonicMicros, profileLines, readProfile } from './support/cpu-profile.js';
import { cpuWindow } from './support/cpu-time.js';
import type { BaselineCommand, BaselineFigures } from './support/problems-api-baseline.js';
import { BENCH_ADMIN_TOKEN, CI_COUNT } from './support/problems-api-dataset.js';
import type { HttpLoadResult, HttpLoadSpec } from './support/problems-api-load.js';
import { type Figures, fileSystemOf, type ReportInput, type RowResult, reportText } from './support/problems-api-report.js';
import { writeResultFile } from './support/report.js';
import { embeddedRows, type Row } from './support/problems-api-scenarios.js';
import type { SeedInfo, SeedSpec } from './support/problems-api-seed.js';
import { runSseScenario, type SseResult } from './support/problems-sse.js';

const env = (name: string, fallback: number): number => (process.env[name] ? Number(process.env[name]) : fallback);
const SCALE = env('PROBLEMS_BENCH_SCALE', 1);
const SETTINGS = {
  scale: SCALE,
  runs: env('BENCH_RUNS', 3),
  seconds: env('BENCH_SECONDS', 5),
  warmup: env('BENCH_WARMUP', 1),
  concurrent: env('BENCH_CONNECTIONS', 4),
  dataRoot: process.env['BENCH_DATA_DIR'] || tmpdir(),
};
/** BENCH_PROFILE=1: the platform runs with --cpu-prof and the result says where its CPU went in the timed runs (figures then include the profiler's cost). */
const PROFILE = process.env['BENCH_PROFILE'] === '1';
const SCENARIOS = new Set((process.env['BENCH_SCENARIOS'] ?? 'open,subtree,cursor,events,sse').split(','));
const PER_CI = Math.max(1, Math.round(10 * SCALE));
const EVENTS = Math.round(10_000_000 * SCALE);
const SSE: ReportInput['sseOptions'] = {
  subscribers: env('SSE_SUBSCRIBERS', Math.max(10, Math.round(1000 * SCALE))),
  processes: env('SSE_PROCESSES', 2),
  rate: env('SSE_RATE', 1000),
  perMessage: 10,
  seconds: env('SSE_SECONDS', Math.max(5, Math.round(30 * SCALE))),
  runs: SETTINGS.runs,
  warmupSeconds: 5,
};
const BARE_PATH = '/api/public/sm/v2/rsm/config-items/1';
const RESULT_FILE = new URL('./results/problems-api.md', import.meta.url);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** One HTTP run from a load process of its own; `server`: the process answering, whose CPU is read over the run. */
async function httpFigures(spec: HttpLoadSpec, server: Child): Promise<Figures> {
  const load = startChild('load', 'bench/support/problems-api-load.ts');
  const next = lines(load);
  load.send(JSON.stringify(spec), true);
  await next();
  const window = cpuWindow({ server: server.process.pid });
  // The whole output once the child has exited: its last line may still be in the pipe when its exit is seen.
  const r = JSON.parse((await load.output((spec.duration + 60) * 1000)).trim().split('\n').at(-1)!) as HttpLoadResult;
  const cpu = window();
  return { reqPerSec: r.reqPerSec, p50Ms: r.p50Ms, p99Ms: r.p99Ms, failures: r.failures, loadCpu: r.cpuShare, serverCpu: cpu.shares['server']!, machineBusy: cpu.machineBusy };
}

/**
 * Seeds the installation, starts the platform on it and the SQL baseline on a copy of its
 * ClickHouse data, and times the rows of scenarios 1, 2, 3 and 5, interleaved within each run.
 */
async function embeddedScenarios(dataDir: string, baselineDir: string, notes: string[]): Promise<{ seed: SeedInfo; rows: RowResult[]; profile?: string[] }> {
  log(`seeding ${CI_COUNT} CIs, ${PER_CI} problems per CI and ${EVENTS} events in ${dataDir} (${fileSystemOf(SETTINGS.dataRoot)})...`);
  const embedded = { NATS_URL: '', REDIS_URL: '', CLICKHOUSE_URL: '', OPS_DATA_DIR: dataDir };
  const seedSpec: SeedSpec = { problemsPerCi: PER_CI, openOnly: false, events: EVENTS, streams: 1, optimize: true };
  const seeder = startChild('seed', 'bench/support/problems-api-seed.ts', { ...embedded, SEED_SPEC: JSON.stringify(seedSpec) });
  const seed = JSON.parse(await seeder.output(1_800_000)) as SeedInfo;
  log(`seeded (${JSON.stringify(seed.seconds)} s): ${seed.problems} problems, ${seed.openProblems} open, ${seed.events} events`);
  // chDB locks its data directory: the baseline reads a copy.
  cpSync(join(dataDir, 'clickhouse'), join(baselineDir, 'clickhouse'), { recursive: true });

  // The platform starts after the seed, so its open index loads the open problems; the live SLA's first read is waited for.
  const profileDir = join(dataDir, 'cpu-profile');
  const profiling: Record<string, string> = PROFILE ? { BENCH_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {};
  const server = startChild(
    'platform',
    'bench/support/problems-server.ts',
    { ...embedded, ...profiling, BENCH_PARTS: '', LOG_LEVEL: process.env['LOG_LEVEL'] || 'warn' },
    { ipc: true },
  );
  const platformStart = performance.now();
  const origin = `http://127.0.0.1:${(JSON.parse(await server.firstLine(300_000)) as { port: number }).port}`;
  for (;;) {
    const answer = await fetch(`${origin}${BARE_PATH}?includeSla=true`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
    await answer.arrayBuffer();
    if (answer.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  notes.push(`the platform's start on the seeded data, until its open index and live SLA were loaded: ${((performance.now() - platformStart) / 1000).toFixed(1)} s`);
  const baseline = startChild('sql-baseline', 'bench/support/problems-api-baseline.ts', { BASELINE_CHDB_DIR: join(baselineDir, 'clickhouse') }, { ipc: true });
  const fromBaseline = lines(baseline);
  await fromBaseline();

  const user = { authorization: `Bearer ${seed.token}` };
  const rows: Row[] = await embeddedRows({
    scenarios: SCENARIOS,
    seed,
    perCi: PER_CI,
    pageLimit: 50,
    concurrent: SETTINGS.concurrent,
    seconds: SETTINGS.seconds,
    notes,
    async get(path) {
      const answer = await fetch(origin + path, { headers: user });
      const text = await answer.text();
      if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${text.slice(0, 300)}`);
      return { text, body: JSON.parse(text) };
    },
    http: (paths, connections) => () => httpFigures({ origin, paths, headers: user, connections, duration: SETTINGS.seconds, warmup: SETTINGS.warmup }, server),
    sql: (command: BaselineCommand) => async () => {
      const window = cpuWindow({ baseline: baseline.process.pid });
      baseline.message(JSON.stringify(command));
      const r = JSON.parse(await fromBaseline()) as BaselineFigures & { error?: string };
      if (r.error) throw new Error(`SQL baseline: ${r.error}`);
      const cpu = window();
      return {
        reqPerSec: r.executions / SETTINGS.seconds,
        p50Ms: r.p50Ms,
        p99Ms: r.p99Ms,
        failures: 0,
        loadCpu: Number.NaN,
        serverCpu: cpu.shares['baseline']!,
        machineBusy: cpu.machineBusy,
      };
    },
    async bare(body) {
      const bare = startChild('bare-route', 'bench/support/bare-uws-server.ts');
      bare.send(`${body}\n`);
      const bareOrigin = `http://127.0.0.1:${(JSON.parse(await bare.firstLine(30_000)) as { port: number }).port}`;
      return (connections) => () => httpFigures({ origin: bareOrigin, paths: [BARE_PATH], headers: user, connections, duration: SETTINGS.seconds, warmup: SETTINGS.warmup }, bare);
    },
  });

  for (const note of notes) log(note);
  const runs = new Map<Row, Figures[]>(rows.map((r) => [r, []]));
  const timedFrom = monotonicMicros();
  for (let run = 1; run <= SETTINGS.runs; run++) {
    for (const row of rows) {
      const f = await row.measure();
      runs.get(row)!.push(f);
      log(
        `run ${run}/${SETTINGS.runs} ${row.scenario} — ${row.what} ×${row.connections}: ${Math.round(f.reqPerSec)} req/s, p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms`,
      );
    }
  }
  const timedTo = monotonicMicros();
  baseline.message(JSON.stringify({ cmd: 'stop' }));
  server.message(JSON.stringify({ cmd: 'stop' }));
  // The profile is written when the process exits by itself.
  await Promise.all([baseline.output(30_000), server.output(120_000)]).catch(() => undefined);
  const profile = PROFILE ? readProfile(profileDir, server.process.pid!) : undefined;
  return {
    seed,
    rows: rows.map((r) => ({ key: r.key, scenario: r.scenario, what: r.what, connections: r.connections, runs: runs.get(r)! })),
    ...(profile ? { profile: profileLines(profile, timedFrom, timedTo) } : {}),
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = loadavg();
  const dirs = [mkdtempSync(join(SETTINGS.dataRoot, 'ops-bench-problems-api-')), mkdtempSync(join(SETTINGS.dataRoot, 'ops-bench-problems-api-baseline-'))];
  const notes: string[] = [];
  try {
    const embedded = ['open', 'subtree', 'cursor', 'events'].some((name) => SCENARIOS.has(name));
    const { seed, rows, profile } = embedded ? await embeddedScenarios(dirs[0]!, dirs[1]!, notes) : { seed: undefined, rows: [], profile: undefined };
    await stopAllChildren();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    let sse: SseResult | undefined;
    if (SCENARIOS.has('sse')) sse = await runSseScenario({ ...SSE, dataRoot: SETTINGS.dataRoot, log });
    const text = reportText({ rows, sse, sseOptions: SSE, seed, notes, profile, settings: SETTINGS, loadAtStart, wallSeconds: (performance.now() - started) / 1000 });
    writeResultFile(RESULT_FILE, text);
    process.stdout.write(text);
    log(`written to ${RESULT_FILE.pathname}`);
  } finally {
    await stopAllChildren();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

let interrupted = false;
const interrupt = (signal: string, code: number): void => {
  interrupted = true;
  log(`${signal}: stopping the benchmark processes`);
  void stopAllChildren().finally(() => process.exit(code));
};
process.once('SIGINT', () => interrupt('SIGINT', 130));
process.once('SIGTERM', () => interrupt('SIGTERM', 143));
try {
  await main();
} catch (error) {
  process.exitCode = 1;
  if (!interrupted) log(`problems-api benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await stopAllChildren();
}

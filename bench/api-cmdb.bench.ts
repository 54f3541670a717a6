/**
 * API benchmark of the CMDB issue. Run with:
 *
 *   node --import tsx bench/api-cmdb.bench.ts
 *
 * GET config-items/{id} and POST config-items/filter (label filters over 100 000 CIs) under
 * concurrent load from wrk (Debian's, in C), against a baseline measured in the same run: a bare
 * uWebSockets.js route answering a fixed CI JSON of the same shape and size. The CMDB is seeded
 * into a data directory (bench/support/cmdb-seed.ts), then the platform is started on it as
 * `npm start` runs it: `services/main.ts` with package.json's Node flags, every part in one
 * process on its embedded engines, its log lines (LOG_LEVEL, `info` by default as for a user)
 * written to a file in the data directory. The data directory is on disk (the OS temporary
 * directory here) unless BENCH_DATA_DIR names another place; the result names its file system.
 * The baseline (bench/support/bare-uws-server.ts) and wrk run in processes of their own. Runs are
 * interleaved (baseline, platform, ...) and each figure is the median over the runs; wrk's CPU and
 * the server's are read from /proc over each run, to show which one was the limit. Prints a table
 * and writes it, with the machine, to bench/results/api-cmdb.md. Targets: GET at >= 60 % of the
 * baseline's req/s in every run; the 1 % label filter's p50 under 20 ms. A benchmark asserts
 * nothing: it reports whether the targets hold.
 *
 * Environment: BENCH_RUNS (3), LOG_LEVEL for the platform (default `info`), BENCH_DATA_DIR, WRK.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild, stopAllChildren } from './support/child.js';
import { BENCH_ADMIN_TOKEN, BENCH_FILTERS, CI_COUNT, type CmdbSeedInfo } from './support/cmdb-dataset.js';
import { cpuWindow } from './support/cpu-time.js';
import { startAsNpmStart } from './support/npm-start.js';
import { fileSystemOf } from './support/problems-api-report.js';
import { figuresTable, machineDescription, median, type RunFigures, type ScenarioFigures, summarize, writeResultFile } from './support/report.js';
import { runWrk, stopAllWrk, writeRotatingGetWrkScript, writeStaticWrkScript } from './support/wrk.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const DURATION_S = 5;
const WARMUP_S = 2;
const GET_CONNECTIONS = 50;
const FILTER_CONNECTIONS = 4;
/** One wrk thread: wrk on one core, the server on the other. */
const WRK_THREADS = 1;
const GET_RATIO_TARGET = 0.6;
const FILTER_P50_TARGET_MS = 20;
const CIS = '/api/public/sm/v2/rsm/config-items';
const RESULT_FILE = new URL('./results/api-cmdb.md', import.meta.url);
const DATA_ROOT = process.env['BENCH_DATA_DIR'] || tmpdir();
const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface Scenario {
  name: string;
  url: string;
  script: string;
  connections: number;
  server: Child;
}

interface Measured extends RunFigures {
  /** CPU over the measured run, 1 = one core. */
  serverCpu: number;
  wrkCpu: number;
}

async function request(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

async function measure(scenario: Scenario): Promise<Measured> {
  const options = { threads: WRK_THREADS, connections: scenario.connections };
  await runWrk(scenario.url, scenario.script, { ...options, seconds: WARMUP_S });
  // CPU is read inside the run (from its second second to half a second before its end): once
  // wrk has exited, /proc no longer has its figures.
  let cpu: ReturnType<ReturnType<typeof cpuWindow>> | undefined;
  const timers: NodeJS.Timeout[] = [];
  const result = await runWrk(scenario.url, scenario.script, {
    ...options,
    seconds: DURATION_S,
    onSpawn: (pid) => {
      timers.push(
        setTimeout(() => {
          const window = cpuWindow({ server: scenario.server.process.pid, wrk: pid });
          timers.push(setTimeout(() => (cpu = window()), (DURATION_S - 1.5) * 1000));
        }, 1000),
      );
    },
  });
  for (const timer of timers) clearTimeout(timer);
  return {
    reqPerSec: result.requests / (result.durationUs / 1e6),
    p50Ms: result.p50Us / 1000,
    p99Ms: result.p99Us / 1000,
    meanBytes: result.bytes / Math.max(1, result.requests),
    failures: result.status + result.connect + result.read + result.write + result.timeout,
    serverCpu: cpu?.shares['server'] ?? Number.NaN,
    wrkCpu: cpu?.shares['wrk'] ?? Number.NaN,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadavg();
  if (loadAtStart[0]! > cpus().length / 2) log(`note: load average ${loadAtStart[0]!.toFixed(2)} on ${cpus().length} cores before the start; other work will skew the figures`);
  const dataDir = mkdtempSync(join(DATA_ROOT, 'ops-bench-cmdb-'));
  const fileSystem = fileSystemOf(dataDir);
  const scripts = mkdtempSync(join(tmpdir(), 'ops-bench-wrk-'));
  try {
    log(`seeding ${CI_COUNT.toLocaleString('en-US')} CIs in ${dataDir} (${fileSystem})...`);
    const seeder = startChild('cmdb-seed', 'bench/support/cmdb-seed.ts', { OPS_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const info = JSON.parse((await seeder.output(300_000)).trim()) as CmdbSeedInfo;

    const running = await startAsNpmStart('platform (npm start)', { dataDir, adminToken: BENCH_ADMIN_TOKEN });
    const platform = running.url;
    const platformChild = running.child;
    const auth = { authorization: `Bearer ${info.token}` };
    log(`platform at ${platform}; seeded in ${info.seedMs} ms; ${info.readableIds.length} CIs readable by ${info.user.name}`);

    // Probes: the rights are enforced for this user, and the sample answer for the baseline.
    const owned = await request(`${platform}${CIS}/2`, { headers: auth });
    const shared = await request(`${platform}${CIS}/12`, { headers: auth });
    const hidden = await request(`${platform}${CIS}/32`, { headers: auth });
    if (owned.status !== 200 || shared.status !== 200 || hidden.status !== 403) {
      throw new Error(`rights probes: owned ${owned.status}, shared ${shared.status}, hidden ${hidden.status} (expected 200, 200, 403)`);
    }
    const filterProbe: Record<string, { returned: number; bytes: number }> = {};
    for (const [name, filter] of Object.entries(BENCH_FILTERS)) {
      const answer = await request(`${platform}${CIS}/filter`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(filter) });
      if (answer.status !== 200) throw new Error(`filter probe ${name}: ${answer.status} ${answer.text.slice(0, 300)}`);
      filterProbe[name] = { returned: (JSON.parse(answer.text) as unknown[]).length, bytes: Buffer.byteLength(answer.text) };
    }

    const baselineChild = startChild('bare-uws-server', 'bench/support/bare-uws-server.ts');
    baselineChild.send(`${owned.text}\n`);
    const baseline = `http://127.0.0.1:${(JSON.parse(await baselineChild.firstLine(30_000)) as { port: number }).port}`;
    const baselineProbe = await request(`${baseline}${CIS}/2`, {});
    if (baselineProbe.status !== 200 || baselineProbe.text !== owned.text) throw new Error('the baseline does not answer the platform’s CI JSON');

    const getScript = join(scripts, 'get.lua');
    writeRotatingGetWrkScript(getScript, { prefix: `${CIS}/`, ids: info.readableIds, headers: auth });
    const filterScript = (name: keyof typeof BENCH_FILTERS): string => {
      const path = join(scripts, `${name}.lua`);
      writeStaticWrkScript(path, { contentType: 'application/json', body: JSON.stringify(BENCH_FILTERS[name]), headers: auth });
      return path;
    };
    const scenarios: Scenario[] = [
      { name: 'baseline: bare uWS GET, fixed CI JSON', url: `${baseline}${CIS}/2`, script: getScript, connections: GET_CONNECTIONS, server: baselineChild },
      { name: 'platform: GET config-items/{id}', url: `${platform}${CIS}/2`, script: getScript, connections: GET_CONNECTIONS, server: platformChild },
      {
        name: 'platform: POST filter, 1 % label match',
        url: `${platform}${CIS}/filter`,
        script: filterScript('onePercent'),
        connections: FILTER_CONNECTIONS,
        server: platformChild,
      },
      {
        name: 'platform: POST filter, 10 % label match',
        url: `${platform}${CIS}/filter`,
        script: filterScript('tenPercent'),
        connections: FILTER_CONNECTIONS,
        server: platformChild,
      },
    ];

    const runs = new Map<string, Measured[]>(scenarios.map((s) => [s.name, []]));
    for (let run = 1; run <= RUNS; run++) {
      for (const scenario of scenarios) {
        const figures = await measure(scenario);
        runs.get(scenario.name)!.push(figures);
        log(
          `run ${run}/${RUNS} ${scenario.name}: ${Math.round(figures.reqPerSec)} req/s, p50 ${figures.p50Ms.toFixed(2)} ms, p99 ${figures.p99Ms.toFixed(2)} ms, CPU server ${pct(figures.serverCpu)} wrk ${pct(figures.wrkCpu)}, ${cpuPerAnswer(figures).toFixed(1)} µs of server CPU per answer`,
        );
      }
    }
    await platformChild.stop(30_000);
    writeResult({ info, runs, scenarios, filterProbe, loadAtStart, started, fileSystem, logLevel: running.logLevel });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scripts, { recursive: true, force: true });
  }
}

const pct = (share: number): string => `${Math.round(share * 100)} %`;
/** The server's CPU time per answer: what the answer costs, whatever else the machine was doing. */
const cpuPerAnswer = (m: Measured): number => (m.serverCpu * 1e6) / m.reqPerSec;

function writeResult(input: {
  info: CmdbSeedInfo;
  runs: Map<string, Measured[]>;
  scenarios: Scenario[];
  filterProbe: Record<string, { returned: number; bytes: number }>;
  loadAtStart: number[];
  started: number;
  fileSystem: string;
  logLevel: string;
}): void {
  const { info, runs, scenarios, filterProbe } = input;
  const rows: ScenarioFigures[] = scenarios.map((s) => summarize(s.name, s.connections, runs.get(s.name)!));
  const [base, get, onePercent] = rows as [ScenarioFigures, ScenarioFigures, ScenarioFigures, ScenarioFigures];
  // Each platform GET run directly follows a baseline run: the ratio of such a pair is less
  // sensitive to other load on the machine drifting during the bench than the ratio of medians.
  const pairedRatios = runs.get(get.scenario)!.map((r, i) => r.reqPerSec / runs.get(base.scenario)![i]!.reqPerSec);
  const everyRun = pairedRatios.every((r) => r >= GET_RATIO_TARGET);
  const verdict = (holds: boolean): string => (holds ? 'holds' : 'MISSED');
  const failures = rows.reduce((sum, r) => sum + r.failures, 0);
  const readablePct = ((100 * info.readableIds.length) / CI_COUNT).toFixed(0);
  const cpuRows = scenarios.map((s) => {
    const measured = runs.get(s.name)!;
    return `| ${s.name} | ${pct(median(measured.map((m) => m.serverCpu)))} | ${pct(median(measured.map((m) => m.wrkCpu)))} | ${median(measured.map(cpuPerAnswer)).toFixed(1)} |`;
  });
  const lines = [
    '# API benchmark: CMDB config items',
    '',
    'Command: `node --import tsx bench/api-cmdb.bench.ts` (bench/README.md, section api-cmdb).',
    '',
    figuresTable(rows, base.reqPerSec),
    '',
    `GET ratio per run (each platform run against the baseline run just before it): ${pairedRatios.map((r) => r.toFixed(2)).join(', ')}.`,
    '',
    'Targets:',
    `- GET config-items/{id} at >= ${GET_RATIO_TARGET * 100} % of the baseline's req/s in every run: ${pairedRatios.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')} — ${verdict(everyRun)}`,
    `- 100 000-CI label filter (1 %) p50 < ${FILTER_P50_TARGET_MS} ms at ${FILTER_CONNECTIONS} connections: ${onePercent.p50Ms.toFixed(2)} ms — ${verdict(onePercent.p50Ms < FILTER_P50_TARGET_MS)}`,
    ...(failures > 0 ? [`- WARNING: ${failures} non-2xx answers or errors during the runs; the figures are not valid`] : []),
    '',
    'CPU over the measured runs (medians; 100 % = one core of the 2): whether the server or the load generator was the limit, and what an answer costs the server.',
    '',
    '| scenario | server | wrk | server CPU per answer, µs |',
    '|---|--:|--:|--:|',
    ...cpuRows,
    '',
    'How it was measured:',
    `- medians of ${RUNS} runs of ${DURATION_S} s per scenario, each after a ${WARMUP_S} s warm-up, scenarios interleaved per run;`,
    `  wrk ${WRK_THREADS === 1 ? 'with one thread' : `with ${WRK_THREADS} threads`} (Debian's, in C), a new process per run; the platform and the baseline in their own processes.`,
    "- req/s: wrk's answers over its measured duration; p50 / p99: wrk's latency percentiles; bytes/answer include the headers.",
    `- platform: started as \`npm start\` runs it (services/main.ts, package.json's Node flags), all parts in one process on`,
    `  its embedded engines (chDB, in-process bus, LMDB), data on disk (${input.fileSystem}) in a new directory under ${DATA_ROOT},`,
    `  LOG_LEVEL=${input.logLevel} (a log line per request at info), its log written to a file there.`,
    `- requests as \`${info.user.name}\`, a NON-ADMIN user (no platform right) in workgroup Operations only, so`,
    '  every request computes CI rights (admins skip that); the baseline checks nothing.',
    `- CMDB: ${CI_COUNT.toLocaleString('en-US')} CIs in ${(CI_COUNT / 10).toLocaleString('en-US')} trees of 10 (root + 9 children), seeded in ${info.seedMs} ms by`,
    `  ${CI_COUNT / 10_000} control-plane commits (bench/support/cmdb-seed.ts, before the platform's start); half the trees owned by Operations, a quarter shared to it`,
    `  by a Tree grant on the root (read through the ancestor walk), a quarter hidden: ${readablePct} % readable.`,
    `- GET: ids rotate over all ${info.readableIds.length.toLocaleString('en-US')} readable CIs (stride 7919, in the wrk script), the`,
    "  baseline gets the same paths; its body is the platform's answer for CI 2 (a child CI).",
    `- filter 1 %: \`${JSON.stringify(BENCH_FILTERS.onePercent)}\` matches 1 000 CIs (scans the 10 000 with \`tier\`),`,
    `  ${filterProbe['onePercent']!.returned} readable and returned (${filterProbe['onePercent']!.bytes.toLocaleString('en-US')} bytes of JSON).`,
    `- filter 10 %: \`${JSON.stringify(BENCH_FILTERS.tenPercent)}\` matches 10 000 CIs (scans all 100 000 with \`env\`),`,
    `  ${filterProbe['tenPercent']!.returned} readable and returned (${filterProbe['tenPercent']!.bytes.toLocaleString('en-US')} bytes of JSON).`,
    `- ${GET_CONNECTIONS} connections for GET, ${FILTER_CONNECTIONS} for the filters; on one event loop a filter's latency includes`,
    "  the queue of the other connections' requests.",
    '',
    'Machine:',
    ...machineDescription(input.loadAtStart),
    '',
    `Whole run: ${Math.round((Date.now() - input.started) / 1000)} s.`,
    '',
  ];
  const text = lines.join('\n');
  process.stdout.write(text);
  writeResultFile(RESULT_FILE, text);
  log(`written to ${RESULT_FILE.pathname}`);
}

let interrupted = false;
const interrupt = (signal: string, code: number): void => {
  interrupted = true;
  log(`${signal}: stopping the benchmark processes`);
  stopAllWrk();
  void stopAllChildren().finally(() => process.exit(code));
};
process.once('SIGINT', () => interrupt('SIGINT', 130));
process.once('SIGTERM', () => interrupt('SIGTERM', 143));
try {
  await main();
} catch (error) {
  process.exitCode = 1;
  if (!interrupted) log(`api-cmdb benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await stopAllChildren();
}

/**
 * API benchmark of the CMDB issue. Run with:
 *
 *   node --import tsx bench/api-cmdb.bench.ts
 *
 * GET config-items/{id} and POST config-items/filter (label filters over 100 000 CIs) under
 * concurrent load, against a baseline measured in the same run: a bare uWebSockets.js route
 * answering a fixed CI JSON of the same shape and size. Three processes besides this one: the
 * platform (bench/support/platform-server.ts), the baseline (bench/support/bare-uws-server.ts)
 * and, per run, the load generator (bench/support/load.ts, autocannon), so the load never shares
 * a server's event loop. Runs are interleaved (baseline, platform, ...) and each figure is the
 * median over the runs. Prints a table and writes it, with the machine, to
 * bench/results/api-cmdb.md. Targets: GET at >= 60 % of the baseline's req/s; the 1 % label
 * filter's p50 under 20 ms. A benchmark asserts nothing: it reports whether the targets hold.
 *
 * Environment: LOG_LEVEL for the platform (default `warn`).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { startChild, stopAllChildren } from './support/child.js';
import { BENCH_FILTERS, CI_COUNT } from './support/cmdb-dataset.js';
import type { LoadResult, LoadSpec } from './support/load.js';
import type { PlatformServerInfo } from './support/platform-server.js';
import { figuresTable, machineDescription, median, type RunFigures, type ScenarioFigures, summarize } from './support/report.js';

const RUNS = 3;
const DURATION_S = 5;
const WARMUP_S = 2;
const GET_CONNECTIONS = 50;
const FILTER_CONNECTIONS = 4;
const GET_RATIO_TARGET = 0.6;
const FILTER_P50_TARGET_MS = 20;
const CIS = '/api/public/sm/v2/rsm/config-items';
const RESULT_FILE = new URL('./results/api-cmdb.md', import.meta.url);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface Scenario {
  name: string;
  spec: Omit<LoadSpec, 'duration' | 'warmup'>;
}

async function request(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

async function runLoad(spec: LoadSpec): Promise<RunFigures> {
  const load = startChild('load', 'bench/support/load.ts');
  load.send(JSON.stringify(spec), true);
  const result = JSON.parse(await load.output((spec.duration + spec.warmup) * 1000 + 30_000)) as LoadResult;
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.precise.p50,
    p99Ms: result.precise.p99,
    meanBytes: result.precise.meanBytes,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadavg();
  if (loadAtStart[0]! > cpus().length / 2) log(`note: load average ${loadAtStart[0]!.toFixed(2)} on ${cpus().length} cores before the start; other work will skew the figures`);
  const logLevel = process.env['LOG_LEVEL'] || 'warn';
  log(`starting the platform and seeding ${CI_COUNT.toLocaleString('en-US')} CIs...`);
  const platformChild = startChild('platform-server', 'bench/support/platform-server.ts', { LOG_LEVEL: logLevel });
  const info = JSON.parse(await platformChild.firstLine(180_000)) as PlatformServerInfo;
  const platform = `http://127.0.0.1:${info.port}`;
  const auth = { authorization: `Bearer ${info.token}` };
  log(`platform on port ${info.port}; seeded in ${info.seedMs} ms; ${info.readableIds.length} CIs readable by ${info.user.name}`);

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

  const rotate = { prefix: `${CIS}/`, ids: info.readableIds };
  const filterSpec = (filter: unknown): Scenario['spec'] => ({
    url: `${platform}${CIS}/filter`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(filter),
    connections: FILTER_CONNECTIONS,
  });
  const scenarios: Scenario[] = [
    { name: 'baseline: bare uWS GET, fixed CI JSON', spec: { url: `${baseline}${CIS}/2`, method: 'GET', headers: auth, rotate, connections: GET_CONNECTIONS } },
    { name: 'platform: GET config-items/{id}', spec: { url: `${platform}${CIS}/2`, method: 'GET', headers: auth, rotate, connections: GET_CONNECTIONS } },
    { name: 'platform: POST filter, 1 % label match', spec: filterSpec(BENCH_FILTERS.onePercent) },
    { name: 'platform: POST filter, 10 % label match', spec: filterSpec(BENCH_FILTERS.tenPercent) },
  ];

  const runs = new Map<string, RunFigures[]>(scenarios.map((s) => [s.name, []]));
  for (let run = 1; run <= RUNS; run++) {
    for (const scenario of scenarios) {
      const figures = await runLoad({ ...scenario.spec, duration: DURATION_S, warmup: WARMUP_S });
      runs.get(scenario.name)!.push(figures);
      log(`run ${run}/${RUNS} ${scenario.name}: ${Math.round(figures.reqPerSec)} req/s, p50 ${figures.p50Ms.toFixed(2)} ms, p99 ${figures.p99Ms.toFixed(2)} ms`);
    }
  }

  const rows: ScenarioFigures[] = scenarios.map((s) => summarize(s.name, s.spec.connections, runs.get(s.name)!));
  const [base, get, onePercent] = rows as [ScenarioFigures, ScenarioFigures, ScenarioFigures, ScenarioFigures];
  const getRatio = get.reqPerSec / base.reqPerSec;
  // Each platform GET run directly follows a baseline run; the ratio of such a pair is less
  // sensitive to other load on the machine drifting during the run than the ratio of medians.
  const pairedRatios = runs.get(get.scenario)!.map((r, i) => r.reqPerSec / runs.get(base.scenario)![i]!.reqPerSec);
  const pairedRatio = median(pairedRatios);
  const verdict = (holds: boolean): string => (holds ? 'holds' : 'MISSED');
  const failures = rows.reduce((sum, r) => sum + r.failures, 0);
  const readablePct = ((100 * info.readableIds.length) / CI_COUNT).toFixed(0);
  const lines = [
    '# API benchmark: CMDB config items',
    '',
    'Command: `node --import tsx bench/api-cmdb.bench.ts` (bench/README.md, section api-cmdb).',
    '',
    figuresTable(rows, base.reqPerSec),
    '',
    'Targets:',
    `- GET config-items/{id} at >= ${GET_RATIO_TARGET * 100} % of the baseline's req/s: ratio of the medians ${(getRatio * 100).toFixed(0)} % — ${verdict(getRatio >= GET_RATIO_TARGET)};`,
    `  median of the per-run pairs ${(pairedRatio * 100).toFixed(0)} % (${pairedRatios.map((r) => r.toFixed(2)).join(', ')}) — ${verdict(pairedRatio >= GET_RATIO_TARGET)}`,
    `- 100 000-CI label filter (1 %) p50 < ${FILTER_P50_TARGET_MS} ms at ${FILTER_CONNECTIONS} connections: ${onePercent.p50Ms.toFixed(2)} ms — ${verdict(onePercent.p50Ms < FILTER_P50_TARGET_MS)}`,
    ...(failures > 0 ? [`- WARNING: ${failures} non-2xx answers or errors during the runs; the figures are not valid`] : []),
    '',
    'How it was measured:',
    `- medians of ${RUNS} runs of ${DURATION_S} s per scenario, each after a ${WARMUP_S} s warm-up, scenarios interleaved per run;`,
    '  autocannon 9 in its own process (one per run); the platform and the baseline in their own processes.',
    "- req/s: autocannon's mean of per-second samples; p50 / p99: from the response time of every 2xx answer",
    '  of the measured run (autocannon `response` events, fractional ms); bytes/answer include the headers.',
    `- platform: all parts in one process on its embedded engines (chDB, in-memory bus, LMDB journal) in a`,
    `  temporary directory, LOG_LEVEL=${info.logLevel} (no per-request log lines).`,
    `- requests as \`${info.user.name}\`, a NON-ADMIN user (no platform right) in workgroup Operations only, so`,
    '  every request computes CI rights (admins skip that); the baseline checks nothing.',
    `- CMDB: ${CI_COUNT.toLocaleString('en-US')} CIs in ${(CI_COUNT / 10).toLocaleString('en-US')} trees of 10 (root + 9 children), seeded in ${info.seedMs} ms by`,
    `  ${CI_COUNT / 10_000} control-plane commits; half the trees owned by Operations, a quarter shared to it`,
    `  by a Tree grant on the root (read through the ancestor walk), a quarter hidden: ${readablePct} % readable.`,
    `- GET: ids rotate over all ${info.readableIds.length.toLocaleString('en-US')} readable CIs (autocannon setupRequest, stride 7919), the`,
    "  baseline gets the same paths; its body is the platform's answer for CI 2 (a child CI).",
    `- filter 1 %: \`${JSON.stringify(BENCH_FILTERS.onePercent)}\` matches 1 000 CIs (scans the 10 000 with \`tier\`),`,
    `  ${filterProbe['onePercent']!.returned} readable and returned (${filterProbe['onePercent']!.bytes.toLocaleString('en-US')} bytes of JSON).`,
    `- filter 10 %: \`${JSON.stringify(BENCH_FILTERS.tenPercent)}\` matches 10 000 CIs (scans all 100 000 with \`env\`),`,
    `  ${filterProbe['tenPercent']!.returned} readable and returned (${filterProbe['tenPercent']!.bytes.toLocaleString('en-US')} bytes of JSON).`,
    `- ${GET_CONNECTIONS} connections for GET, ${FILTER_CONNECTIONS} for the filters; on one event loop a filter's latency includes`,
    "  the queue of the other connections' requests.",
    '',
    'Machine:',
    ...machineDescription(loadAtStart),
    '',
    `Whole run: ${Math.round((Date.now() - started) / 1000)} s.`,
    '',
  ];
  const text = lines.join('\n');
  process.stdout.write(text);
  writeFileSync(RESULT_FILE, text);
  log(`written to ${RESULT_FILE.pathname}`);
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
  if (!interrupted) log(`api-cmdb benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await stopAllChildren();
}

/**
 * The result file of the problems API benchmark: the HTTP and SQL rows (medians over runs),
 * the targets, the SSE runs, how it was measured and the machine.
 */
import { statfsSync } from 'node:fs';
import type { SeedInfo } from './problems-api-seed.js';
import type { SseOptions, SseResult, SseRun } from './problems-sse.js';
import { machineDescription, median } from './report.js';

/** One run of one row: an HTTP load (req/s over the run) or a SQL baseline (executions one at a time). */
export interface Figures {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  /** The load generator's CPU over the run (1 = one core); NaN for the in-process SQL baseline. */
  loadCpu: number;
  /** The CPU of the process answering (the platform, or the SQL baseline's) over the run (1 = one core; the baseline's includes its 1 s warm-up). */
  serverCpu: number;
  /** The machine's busy share over the run (1 = every core): above the two processes' sum, something else ran. */
  machineBusy: number;
}

export interface RowResult {
  key: string;
  scenario: string;
  what: string;
  connections: number;
  runs: Figures[];
}

const FS_TYPES: Record<number, string> = { 16914836: 'tmpfs', 61267: 'ext2/3/4', 1481003842: 'xfs', 2435016766: 'btrfs' };

/** The file system under `path`, e.g. `ext2/3/4` (on disk) or `tmpfs`. */
export function fileSystemOf(path: string): string {
  const type = statfsSync(path).type;
  return FS_TYPES[type] ?? `file system type 0x${type.toString(16)}`;
}

export const med = (runs: readonly Figures[], key: keyof Figures): number => median(runs.map((r) => r[key]));
const num = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');

export function rowsTable(rows: readonly RowResult[]): string[] {
  return [
    '| scenario | what | conns | req/s | p50 ms | p99 ms | p99 per run ms | server CPU | load generator CPU | machine busy (2 cores) | non-2xx + errors |',
    '| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.what} | ${r.connections} | ${int(med(r.runs, 'reqPerSec'))} | ${num(med(r.runs, 'p50Ms'), 2)} | ${num(med(r.runs, 'p99Ms'), 2)} | ${r.runs
          .map((f) => num(f.p99Ms))
          .join(
            ' / ',
          )} | ${num(med(r.runs, 'serverCpu'), 2)} | ${num(med(r.runs, 'loadCpu'), 2)} | ${num(100 * med(r.runs, 'machineBusy'), 0)} % | ${r.runs.reduce((n, f) => n + f.failures, 0)} |`,
    ),
  ];
}

const medRun = (runs: readonly SseRun[], f: (r: SseRun) => number): number => median(runs.map(f));

export function sseTable(sse: SseResult): string[] {
  const line = (label: string, f: (g: (r: SseRun) => number) => number): string => {
    const cells = [
      int(f((r) => r.published)),
      int(f((r) => r.expectedEach)),
      int(f((r) => r.delivered)),
      int(f((r) => r.lost)),
      `${int(f((r) => r.duplicates))} / ${int(f((r) => r.unexpected))} / ${int(f((r) => r.disconnects))}`,
      num(f((r) => r.p50Ms)),
      num(f((r) => r.p99Ms)),
      num(
        f((r) => r.maxMs),
        0,
      ),
      num(f((r) => r.drainSeconds)),
      num(
        f((r) => r.cpu.api),
        2,
      ),
      num(
        f((r) => Math.max(...r.cpu.subscribers)),
        2,
      ),
      num(
        f((r) => r.cpu.publisher),
        2,
      ),
      num(f((r) => r.publisher.maxBehindMs)),
      `${num(
        f((r) => 100 * r.cpu.machineBusy),
        0,
      )} %`,
    ];
    return `| ${label} | ${cells.join(' | ')} |`;
  };
  return [
    '| run | changes published | expected per subscriber | deliveries | lost | duplicates / unexpected / disconnects | p50 ms | p99 ms | max ms | drain s | API CPU | busiest subscriber process CPU | publisher CPU | publisher behind schedule, max ms | machine busy |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    ...sse.runs.map((run) => line(String(run.run), (g) => g(run))),
    line('**median**', (g) => medRun(sse.runs, g)),
  ];
}

const verdict = (holds: boolean): string => (holds ? 'met' : '**MISSED**');

const TARGETS = { openP99Ms: 50, subtreeP99Ms: 100, pageRatio: 2, sseP99Ms: 1000, eventsRatio: 2 };

export interface ReportInput {
  rows: readonly RowResult[];
  sse: SseResult | undefined;
  sseOptions: Omit<SseOptions, 'log' | 'dataRoot'>;
  /** Undefined when only the SSE scenario ran. */
  seed: SeedInfo | undefined;
  notes: readonly string[];
  /** With BENCH_PROFILE=1: where the platform's CPU went in the timed runs. */
  profile: readonly string[] | undefined;
  settings: { scale: number; runs: number; seconds: number; warmup: number; concurrent: number; dataRoot: string };
  loadAtStart: number[];
  wallSeconds: number;
}

/** The targets of issue #30, each with its figures and whether it holds. */
function targetLines(input: ReportInput): string[] {
  const row = (key: string): RowResult | undefined => input.rows.find((r) => r.key === key);
  const fig = (key: string, f: keyof Figures): number => {
    const r = row(key);
    return r ? med(r.runs, f) : Number.NaN;
  };
  const out: string[] = [];
  if (row('open:api1')) {
    const p99 = fig('open:api1', 'p99Ms');
    out.push(
      `- 1. open list p99 < ${TARGETS.openP99Ms} ms: ${num(p99, 2)} ms at 1 connection — ${verdict(p99 < TARGETS.openP99Ms)}` +
        ` (at ${input.settings.concurrent} connections ${num(fig('open:apiN', 'p99Ms'), 2)} ms); the SQL baseline reading the same rows: p50 ${num(fig('open:sql', 'p50Ms'), 2)} / p99 ${num(fig('open:sql', 'p99Ms'), 2)} ms`,
    );
  }
  if (row('subtree:api1')) {
    const p99 = fig('subtree:api1', 'p99Ms');
    out.push(
      `- 2. subtree + priority + 7 days p99 < ${TARGETS.subtreeP99Ms} ms: ${num(p99, 2)} ms at 1 connection — ${verdict(p99 < TARGETS.subtreeP99Ms)}` +
        ` (at ${input.settings.concurrent} connections ${num(fig('subtree:apiN', 'p99Ms'), 2)} ms); the same SQL alone: p50 ${num(fig('subtree:sql', 'p50Ms'), 2)} / p99 ${num(fig('subtree:sql', 'p99Ms'), 2)} ms`,
    );
  }
  if (row('pageN:api1')) {
    const ratio = fig('pageN:api1', 'p50Ms') / fig('page1:api1', 'p50Ms');
    out.push(
      `- 3. deep page within ${TARGETS.pageRatio}× page 1: p50 ${num(fig('pageN:api1', 'p50Ms'), 2)} against ${num(fig('page1:api1', 'p50Ms'), 2)} ms, ${num(ratio, 2)}× — ${verdict(ratio <= TARGETS.pageRatio)}` +
        ` (p99 ${num(fig('pageN:api1', 'p99Ms') / fig('page1:api1', 'p99Ms'), 2)}×; in SQL alone ${num(fig('pageN:sql', 'p50Ms') / fig('page1:sql', 'p50Ms'), 2)}×)`,
    );
  }
  if (input.sse) {
    const runs = input.sse.runs;
    const p99 = median(runs.map((r) => r.p99Ms));
    const worst = Math.max(...runs.map((r) => r.p99Ms));
    const lost = runs.reduce((n, r) => n + r.lost, 0);
    out.push(
      `- 4. SSE fan-out p99 < ${TARGETS.sseP99Ms} ms and 0 lost: p99 ${num(p99)} ms (median of the runs; worst run ${num(worst)} ms), ${lost} lost over all runs — ${verdict(worst < TARGETS.sseP99Ms && lost === 0)}`,
    );
  }
  if (row('events:api1')) {
    const ratio = fig('events:api1', 'p50Ms') / fig('events:sql', 'p50Ms');
    out.push(
      `- 5. event search p50 ≤ ${TARGETS.eventsRatio}× the same SQL on chDB: ${num(fig('events:api1', 'p50Ms'), 2)} against ${num(fig('events:sql', 'p50Ms'), 2)} ms, ${num(ratio, 2)}× — ${verdict(ratio <= TARGETS.eventsRatio)}`,
    );
  }
  if (row('bare:1')) {
    const api = input.rows.filter((r) => r.key.includes(':api'));
    const cpu = Math.max(...api.map((r) => med(r.runs, 'loadCpu')));
    const fastest = Math.max(...api.map((r) => med(r.runs, 'reqPerSec')));
    const above = fastest < Math.min(fig('bare:1', 'reqPerSec'), fig('bare:N', 'reqPerSec'));
    out.push(
      `- load generator not the limit: autocannon gets ${int(fig('bare:1', 'reqPerSec'))} req/s (1 connection) and ${int(fig('bare:N', 'reqPerSec'))} req/s (${input.settings.concurrent}) from the bare route answering the same JSON, ` +
        `${above ? 'above' : '**not above**'} every API row (at most ${int(fastest)} req/s); its CPU in the API rows is at most ${num(cpu, 2)} of a core`,
    );
  }
  return out;
}

export function reportText(input: ReportInput): string {
  const { seed, settings, sseOptions } = input;
  const fileSystem = fileSystemOf(settings.dataRoot);
  const sseText = input.sse
    ? [
        '## 4. SSE fan-out (distributed mode)',
        '',
        `${sseOptions.subscribers} subscribers of \`GET /problems/stream\` (no filter) as the non-admin caller, over ${sseOptions.processes} subscriber processes; ${sseOptions.rate} changes/s ` +
          `(${sseOptions.perMessage} per feed message) for ${sseOptions.seconds} s per run, published on PROBLEM_CHANGES by a process of its own, each change an \`opened\` problem on the next CI of a walk over all ` +
          `100 000 CIs, so each subscriber expects the 10 % on CIs it reads. Latency: the publisher's clock when it handed the message to the bus to the subscriber's when the frame arrived. ` +
          `Lost: expected − received per subscriber (ids unique), counted once nothing more arrived for 3 s. ${sseOptions.runs} runs after a ${sseOptions.warmupSeconds} s warm-up run. ` +
          `nats-server, redis-server, ClickHouse over HTTP (chDB in a Node process, holding the ${input.sse.openProblems} open problems the API's index loads) and the API process alone; set-up ${num(input.sse.setupSeconds, 0)} s.`,
        '',
        ...sseTable(input.sse),
        '',
      ]
    : [];
  return [
    '# Problems API benchmark (issue #30)',
    '',
    `Command: \`node --import tsx bench/problems-api.bench.ts\` (bench/README.md, section problems-api); scale ${settings.scale}; whole run ${num(input.wallSeconds / 60, 1)} min.`,
    '',
    `Data on ${fileSystem === 'tmpfs' ? 'tmpfs (memory)' : `disk (${fileSystem})`} under ${settings.dataRoot}. ` +
      'CMDB: 100 000 CIs (100 sites of 1 000 in 3 levels); the non-admin caller reads 10 % (5 sites it owns, 5 shared by a Tree grant on the root). ' +
      (seed
        ? `${seed.problems.toLocaleString('en-US')} problems over 30 days, ${seed.openProblems.toLocaleString('en-US')} open; ${seed.events.toLocaleString('en-US')} events over 24 h. ` +
          `Seeded in ${seed.seconds.cmdb} s (CMDB) + ${seed.seconds.problems} s (problems) + ${seed.seconds.events} s (events) + ${seed.seconds.optimize} s (OPTIMIZE … FINAL of both tables: one part per partition, no merge runs during the measurements).`
        : ''),
    '',
    ...rowsTable(input.rows),
    '',
    '## Targets',
    '',
    ...targetLines(input),
    '',
    ...sseText,
    ...(input.profile
      ? [
          "## Where the platform's CPU went (BENCH_PROFILE=1)",
          '',
          'A V8 CPU profile of the platform process over the timed runs of scenarios 1, 2, 3 and 5 together (the figures above include the profiler’s cost).',
          '',
          ...input.profile,
          '',
        ]
      : []),
    '## What the checks found',
    '',
    ...input.notes.map((n) => `- ${n}`),
    '',
    '## How it was measured',
    '',
    `- HTTP rows: autocannon in a process of its own per run, ${settings.warmup} s warm-up then ${settings.seconds} s; p50 / p99 from every 2xx answer's response time (fractional ms), req/s = answers / s; "load generator CPU" is that process's CPU over the run (1 = one core).`,
    `- Targets are read at 1 connection (each request alone on the server, as the SQL baseline runs); the ${settings.concurrent}-connection rows show the same requests from concurrent callers, waiting for each other on the API's event loop (and chDB's one query lane).`,
    `- SQL baselines: the statement(s) the API sends for the same request (problem-select.ts \`problemPageQuery\`, event-reads.ts \`readEvents\` recorded and replayed), run through the analytics store (chDB) in a process of its own on a copy of the seeded data, one at a time, for ${settings.seconds} s after 1 s.`,
    `- ${settings.runs} runs; every row once per run, in order; the table shows the medians of the runs (p99 per run beside).`,
    '- The platform: all parts in one process on its embedded engines (what `npm start` runs), started after the seed, so its open-problem index loads the seeded open problems; LOG_LEVEL warn.',
    '',
    '## Machine',
    '',
    ...machineDescription(input.loadAtStart),
    '',
  ].join('\n');
}

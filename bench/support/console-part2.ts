/**
 * The console benchmark's part 2 (issue #33), run by console.bench.ts once part 1 is done and its
 * platform stopped: commits the maintenance modes to the same installation
 * (console-part2-seed.ts), starts the whole platform again on it, makes the SLA template of
 * 10 000 CIs (the ten first sites of console-dataset.ts, each root `withDescendants`, target
 * 99.9 %) through the admin API, orders its report over the 30 days before the seed and waits
 * until it is `Ok`; then a warm-up run and `runs` runs of console-part2-runs.ts, and the month's
 * turning of the windows answer into days, timed in Node (console-part2-maths.ts).
 */
import type { Browser } from '../../test/support/browser.js';
import { type Child, startChild } from './child.js';
import type { Part2SeedInfo } from './console-part2-seed.js';
import { monthMaths, type MonthMaths } from './console-part2-maths.js';
import { part2Run, type Part2Plan, type Part2Run } from './console-part2-runs.js';
import { BENCH_ADMIN_TOKEN } from './problems-api-dataset.js';

/** The ten first sites of console-dataset.ts: roots 5 002, 6 002, … 14 002, 1 000 CIs each. */
const SLA_ROOTS = Array.from({ length: 10 }, (_, s) => 5_002 + s * 1_000);
const DAY_MS = 86_400_000;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

export interface Part2Result {
  seed: Part2SeedInfo;
  plan: Part2Plan;
  sla: { cis: number; problems: number; orderSeconds: number; range: { start: string; end: string } };
  platformStartSeconds: number;
  warmup: Part2Run;
  runs: Part2Run[];
  /** The month view's turning of the same answer into days, in Node, after the runs. */
  maths: MonthMaths;
}

async function api(origin: string, method: string, path: string, json?: unknown): Promise<any> {
  const answer = await fetch(origin + path, {
    method,
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Starts the platform on `env`'s data and waits until its open index holds `openProblems`. */
async function startPlatform(env: Record<string, string>, openProblems: number): Promise<{ server: Child; origin: string; seconds: number }> {
  const started = performance.now();
  const server = startChild('platform', 'bench/support/problems-server.ts', { ...env, BENCH_PARTS: '', LOG_LEVEL: process.env['LOG_LEVEL'] || 'warn' }, { ipc: true });
  const origin = `http://127.0.0.1:${(JSON.parse(await server.firstLine(300_000)) as { port: number }).port}`;
  for (;;) {
    const body = (await api(origin, 'GET', '/api/public/sm/v1/problems?limit=1&withTotal=true').catch(() => ({}))) as { total?: number };
    if (body.total === openProblems) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { server, origin, seconds: (performance.now() - started) / 1000 };
}

async function orderReport(origin: string, endMs: number): Promise<{ id: string; sla: Part2Result['sla'] }> {
  const me = (await api(origin, 'GET', '/api/admin/v1/me')) as { user: { id: number } };
  const template = (await api(origin, 'POST', '/api/admin/v1/sla/templates', {
    type: 'Single',
    name: 'Ten sites (10 000 CIs)',
    period: 'ThisMonth',
    ownerType: 'User',
    userId: me.user.id,
    timeZone: 'UTC',
    configItems: SLA_ROOTS.map((id) => ({ id, withDescendants: true })),
    target: 99.9,
  })) as { id: number };
  const range = { start: new Date(endMs - 30 * DAY_MS).toISOString(), end: new Date(endMs).toISOString() };
  const started = performance.now();
  const ordered = (await api(origin, 'POST', '/api/public/sm/v1/sla/ordered', { template: { id: template.id }, range })) as { id: string };
  for (;;) {
    const report = (await api(origin, 'GET', `/api/public/sm/v1/sla/ordered/${ordered.id}`)) as { status: string; error?: string };
    if (report.status === 'Ok') break;
    if (report.status === 'Error') throw new Error(`the SLA report failed: ${report.error ?? ''}`);
    if (performance.now() - started > 300_000) throw new Error('the SLA report was not Ok after 300 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const orderSeconds = (performance.now() - started) / 1000;
  const rows = (await api(origin, 'GET', `/api/public/sm/v1/sla/ordered/${ordered.id}/export?format=json&exportType=configItems`)) as Array<{ eventsCount: number }>;
  return { id: ordered.id, sla: { cis: rows.length, problems: rows.reduce((n, r) => n + r.eventsCount, 0), orderSeconds, range } };
}

const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Seeds part 2 on the stopped installation in `env`, restarts the platform, measures; stops the platform. */
export async function runPart2(browser: Browser, env: Record<string, string>, seedEndMs: number, openProblems: number, runs: number): Promise<Part2Result> {
  log('part 2: committing the maintenance modes...');
  const seed = JSON.parse(await startChild('seed-part2', 'bench/support/console-part2-seed.ts', env).output(600_000)) as Part2SeedInfo;
  log(`part 2: ${seed.modes} modes (${seed.recurring} recurring) in ${seed.seconds} s; starting the platform again`);
  const { server, origin, seconds: platformStartSeconds } = await startPlatform(env, openProblems);
  try {
    const { id, sla } = await orderReport(origin, seedEndMs);
    log(`part 2: SLA report of ${sla.cis} CIs Ok in ${sla.orderSeconds.toFixed(1)} s`);
    const signing = await browser.newContext();
    const signedIn = await signing.request.post(`${origin}/api/console/v1/session`, { data: { token: BENCH_ADMIN_TOKEN } });
    if (signedIn.status() !== 201) throw new Error(`sign-in: ${signedIn.status()}`);
    const storageState = await signing.storageState();
    await signing.close();
    // A date in the busy month (the seed's "now"), and one two years before every mode.
    const plan: Part2Plan = { busyDate: dayText(seed.nowMs), emptyDate: `${new Date(seed.nowMs).getUTCFullYear() - 2}-01-15`, reportId: id };
    const warmup = await part2Run(browser, storageState, origin, plan);
    log(`part 2 warm-up: month ${warmup.month.open.paintedMs.toFixed(0)} ms, next ${warmup.month.next.paintedMs.toFixed(0)} ms, SLA ${warmup.sla.open.paintedMs.toFixed(0)} ms`);
    const measured: Part2Run[] = [];
    for (let run = 1; run <= runs; run++) {
      const r = await part2Run(browser, storageState, origin, plan);
      measured.push(r);
      log(`part 2 run ${run}/${runs}: month ${r.month.open.paintedMs.toFixed(0)} ms, next ${r.month.next.paintedMs.toFixed(0)} ms, SLA ${r.sla.open.paintedMs.toFixed(0)} ms`);
    }
    const maths = await monthMaths(origin, plan.busyDate);
    return { seed, plan, sla, platformStartSeconds, warmup, runs: measured, maths };
  } finally {
    server.message(JSON.stringify({ cmd: 'stop' }));
    await server.output(120_000).catch(() => undefined);
  }
}

/**
 * The SSE fan-out scenario of the problems API benchmark (issue #30): GET /problems/stream with
 * many subscribers while changes arrive on the bus feed. The in-process bus reaches no other
 * process, so this runs the distributed mode: nats-server, redis-server and ClickHouse over HTTP
 * (support/distributed-servers.ts), an installation seeded by problems-api-seed.ts (the CMDB,
 * the non-admin user, the open problems only: the stream reads none of the history), and the API
 * alone in its process (support/problems-server.ts, BENCH_PARTS=api). Per run: subscriber
 * processes open the streams as the non-admin user, a publisher process sends changes on the
 * feed at a fixed rate, then the subscribers are asked, until nothing more arrives, what they
 * got. CPU of every process over the run is read from /proc (support/cpu-time.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Child, lines, startChild } from './child.js';
import { cpuWindow, LatencyHistogram } from './cpu-time.js';
import { startDistributedServers } from './distributed-servers.js';
import type { SeedInfo, SeedSpec } from './problems-api-seed.js';
import type { PublisherReport, PublisherSpec } from './problems-sse-publisher.js';
import type { SubscribersReport, SubscribersSpec } from './problems-sse-subscribers.js';

export interface SseOptions {
  dataRoot: string;
  subscribers: number;
  /** Subscriber processes the subscribers are split over. */
  processes: number;
  /** Changes per second, per message, and seconds per run. */
  rate: number;
  perMessage: number;
  seconds: number;
  runs: number;
  /** Seconds of a first run that is not counted. */
  warmupSeconds: number;
  log: (line: string) => void;
}

export interface SseRun {
  run: number;
  published: number;
  expectedEach: number;
  delivered: number;
  lost: number;
  duplicates: number;
  unexpected: number;
  disconnects: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Seconds from the publisher's last ack until the subscribers' count last grew (polled every 250 ms). */
  drainSeconds: number;
  publisher: PublisherReport;
  /** CPU per process over the run (1 = one core; the publisher's over its own run), and the machine's busy share (1 = every core). */
  cpu: { api: number; subscribers: number[]; publisher: number; machineBusy: number };
}

export interface SseResult {
  runs: SseRun[];
  openProblems: number;
  setupSeconds: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function oneRun(o: SseOptions, run: number, seconds: number, streamUrl: string, token: string, api: Child, natsUrl: string): Promise<SseRun> {
  const seqFrom = (run + 1) * 10_000_000;
  const seqCount = Math.round((o.rate * seconds) / o.perMessage) * o.perMessage;
  const subscribers: Array<{ child: Child; next: () => Promise<string> }> = [];
  for (let p = 0; p < o.processes; p++) {
    const share = Math.floor(o.subscribers / o.processes) + (p < o.subscribers % o.processes ? 1 : 0);
    const child = startChild(`sse-subscribers-${p + 1}`, 'bench/support/problems-sse-subscribers.ts');
    const spec: SubscribersSpec = { url: streamUrl, token, subscribers: share, seqFrom, seqCount };
    child.send(`${JSON.stringify(spec)}\n`);
    subscribers.push({ child, next: lines(child) });
  }
  for (const s of subscribers) await s.next();
  const publisher = startChild('sse-publisher', 'bench/support/problems-sse-publisher.ts', { NATS_URL: natsUrl });
  const fromPublisher = lines(publisher);
  const spec: PublisherSpec = { rate: o.rate, seconds, perMessage: o.perMessage, seqFrom };
  publisher.send(`${JSON.stringify(spec)}\n`);
  await fromPublisher();
  const pids: Record<string, number | undefined> = { api: api.process.pid };
  subscribers.forEach((s, i) => (pids[`s${i}`] = s.child.process.pid));
  const window = cpuWindow(pids);

  publisher.send('go\n', true);
  // The whole output once the child has exited: its last line may still be in the pipe when its exit is seen.
  const lastLine = async (child: Child): Promise<string> => (await child.output(seconds * 1000 + 60_000)).trim().split('\n').at(-1)!;
  const published = JSON.parse(await lastLine(publisher)) as PublisherReport;
  const publishedAt = performance.now();
  // Until every subscriber has all it expects, or nothing more arrived for 3 s.
  let total = -1;
  let lastChange = performance.now();
  for (;;) {
    let now = 0;
    for (const s of subscribers) {
      s.child.send('status\n');
      now += (JSON.parse(await s.next()) as { received: number }).received;
    }
    if (now !== total) {
      total = now;
      lastChange = performance.now();
    }
    if (performance.now() - lastChange > 3000) break;
    await sleep(250);
  }
  const cpu = window();
  const reports: SubscribersReport[] = [];
  for (const s of subscribers) s.child.send('report\n', true);
  for (const s of subscribers) reports.push(JSON.parse(await lastLine(s.child)) as SubscribersReport);
  const histogram = new LatencyHistogram();
  for (const r of reports) histogram.add(r.histogram);
  const sum = (f: (r: SubscribersReport) => number): number => reports.reduce((n, r) => n + f(r), 0);
  return {
    run,
    published: published.changes,
    expectedEach: reports[0]?.expectedEach ?? 0,
    delivered: sum((r) => r.received),
    lost: sum((r) => r.lost),
    duplicates: sum((r) => r.duplicates),
    unexpected: sum((r) => r.unexpected),
    disconnects: sum((r) => r.disconnects + r.ended),
    p50Ms: histogram.percentile(50),
    p99Ms: histogram.percentile(99),
    maxMs: histogram.percentile(100),
    drainSeconds: Math.max(0, (lastChange - publishedAt) / 1000),
    publisher: published,
    cpu: { api: cpu.shares['api']!, subscribers: subscribers.map((_, i) => cpu.shares[`s${i}`]!), publisher: published.cpuShare, machineBusy: cpu.machineBusy },
  };
}

export async function runSseScenario(o: SseOptions): Promise<SseResult> {
  const started = performance.now();
  const dirs = [mkdtempSync(join(o.dataRoot, 'ops-bench-sse-seed-')), mkdtempSync(join(o.dataRoot, 'ops-bench-sse-api-'))];
  const servers = await startDistributedServers(o.dataRoot);
  let api: Child | undefined;
  try {
    o.log('SSE: seeding the distributed installation (CMDB, user, open problems)...');
    const seedSpec: SeedSpec = { problemsPerCi: 10, openOnly: true, events: 0, streams: 0, optimize: false };
    const seed = startChild('sse-seed', 'bench/support/problems-api-seed.ts', { ...servers.env, OPS_DATA_DIR: dirs[0]!, SEED_SPEC: JSON.stringify(seedSpec) });
    const info = JSON.parse(await seed.output(300_000)) as SeedInfo;
    api = startChild('sse-api', 'bench/support/problems-server.ts', { ...servers.env, OPS_DATA_DIR: dirs[1]!, BENCH_PARTS: 'api' }, { ipc: true });
    const { port } = JSON.parse(await api.firstLine(120_000)) as { port: number };
    const streamUrl = `http://127.0.0.1:${port}/api/public/sm/v1/problems/stream`;
    const setupSeconds = (performance.now() - started) / 1000;
    const runs: SseRun[] = [];
    for (let run = 0; run <= o.runs; run++) {
      const result = await oneRun(o, run, run === 0 ? o.warmupSeconds : o.seconds, streamUrl, info.token, api, servers.env['NATS_URL']!);
      o.log(
        `SSE ${run === 0 ? 'warm-up' : `run ${run}/${o.runs}`}: ${result.published} changes, ${result.delivered} deliveries (${result.expectedEach} per subscriber), lost ${result.lost}, ` +
          `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms; CPU api ${result.cpu.api.toFixed(2)}, subscribers ${result.cpu.subscribers.map((c) => c.toFixed(2)).join(' + ')}, publisher ${result.cpu.publisher.toFixed(2)}`,
      );
      if (run > 0) runs.push(result);
    }
    return { runs, openProblems: info.openProblems, setupSeconds };
  } finally {
    if (api && api.process.exitCode === null && api.process.connected) {
      api.message(JSON.stringify({ cmd: 'stop' }));
      await api.output(20_000).catch(() => undefined);
    }
    await api?.stop();
    await servers.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Large bodies and the rest of the process (issue 14): `node --import tsx bench/large-body.bench.ts`
 *
 * The all-in-one platform on embedded engines (data on disk, under BENCH_DATA_DIR or the OS
 * temporary directory) gets one large NDJSON body at a time while a prober asks `/healthz` every
 * 20 ms over its own connection; the table gives the probe latencies while each body is taken
 * against the same probes with no body (the baseline, same run), and the process's resident
 * memory before, at its peak, and 10 s after the answer. Bodies: 5 000 000 `{}` lines (15 MB) and
 * 100 000 telemetry records of about 150 bytes (15 MB). Medians over BENCH_ROUNDS rounds (3).
 * Results: bench/results/large-body.md. Benchmarks assert nothing.
 */
import { mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lines, startChild, stopAllChildren } from './support/child.js';
import { machineDescription, median, writeResultFile } from './support/report.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PROBE_EVERY_MS = 20;
const PATH = '/api/public/cl/v1/stream-data';
const DATA_ROOT = process.env['BENCH_DATA_DIR'] ?? tmpdir();

const BODIES: Record<string, string> = {
  'no body (baseline)': '',
  '5 000 000 empty records': '{}\n'.repeat(5_000_000),
  '100 000 telemetry records': Array.from({ length: 100_000 }, (_, i) =>
    JSON.stringify({
      host: `web-${i % 50}`,
      service: 'checkout',
      status: i % 97 ? 'ok' : 'error',
      latencyMs: i % 300,
      message: `request ${i} handled by the checkout service of the shop`,
    }),
  ).join('\n'),
};

const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

interface Run {
  status: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
}

async function probeWhile(base: string, pid: number, work: () => Promise<number>, settleMs: number): Promise<Run> {
  const latencies: number[] = [];
  let peak = rssMb(pid);
  const before = peak;
  let stop = false;
  const prober = (async () => {
    while (!stop) {
      const started = performance.now();
      await (await fetch(`${base}/healthz`)).text();
      latencies.push(performance.now() - started);
      peak = Math.max(peak, rssMb(pid));
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  const started = performance.now();
  const status = await work();
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, settleMs));
  stop = true;
  await prober;
  return { status, seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: Math.max(...latencies), rssBefore: before, rssPeak: peak, rssAfter: rssMb(pid) };
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const runs = new Map<string, Run[]>();
  const dataDirs: string[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const dataDir = mkdtempSync(join(DATA_ROOT, 'ops-bench-large-'));
      dataDirs.push(dataDir);
      const server = startChild('platform', 'bench/support/ingest-server.ts', { OPS_DATA_DIR: dataDir, OPS_MAX_BODY_BYTES: String(32 * 1024 * 1024) }, { ipc: true });
      const next = lines(server);
      const { port, key } = JSON.parse(await next()) as { port: number; key: string };
      const base = `http://127.0.0.1:${port}`;
      const pid = server.process.pid!;
      for (const [name, body] of Object.entries(BODIES)) {
        const work = body
          ? async () => (await fetch(`${base}${PATH}?streamKey=${key}`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body })).status
          : async () => {
              await new Promise((r) => setTimeout(r, 3000));
              return 0;
            };
        const run = await probeWhile(base, pid, work, 10_000);
        runs.set(name, [...(runs.get(name) ?? []), run]);
        process.stderr.write(`round ${round} ${name}: ${JSON.stringify(run)}\n`);
      }
      server.message('stop');
      await server.stop(15_000);
    }
  } finally {
    await stopAllChildren();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
  const m = (name: string, f: (r: Run) => number, digits = 0) => median((runs.get(name) ?? []).map(f)).toFixed(digits);
  const table = [
    '| body | status | answered after, s | /healthz p50 ms | p99 ms | max ms | RSS before MB | peak MB | 10 s after MB |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...Object.keys(BODIES).map(
      (name) =>
        `| ${name} | ${m(name, (r) => r.status)} | ${m(name, (r) => r.seconds, 1)} | ${m(name, (r) => r.p50, 1)} | ${m(name, (r) => r.p99, 1)} | ${m(name, (r) => r.max, 1)} | ${m(name, (r) => r.rssBefore)} | ${m(name, (r) => r.rssPeak)} | ${m(name, (r) => r.rssAfter)} |`,
    ),
  ].join('\n');
  const FS: Record<number, string> = { 16914836: 'tmpfs', 61267: 'ext2/3/4' };
  const text = [
    '# Large bodies and /healthz',
    '',
    `One NDJSON body at a time to the all-in-one platform (embedded engines) while /healthz is probed every ${PROBE_EVERY_MS} ms; medians over ${ROUNDS} round(s). The baseline row probes for 3 s with no body, in the same run.`,
    '',
    table,
    '',
    '## Machine',
    ...machineDescription(loadAtStart),
    `- data directory under ${DATA_ROOT} (${FS[statfsSync(DATA_ROOT).type] ?? 'other'})`,
    '',
  ].join('\n');
  writeResultFile(new URL('./results/large-body.md', import.meta.url), text);
  process.stdout.write(text);
}

await main();

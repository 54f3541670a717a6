/**
 * Benchmark child, the load generator of the problems API benchmark: reads one HttpLoadSpec as
 * JSON from stdin, runs autocannon in this process (after a warm-up), prints {"measuring":true}
 * when the measured run starts (so the orchestrator can read the server's CPU over it) and then one
 * JSON line (HttpLoadResult): req/s, p50 / p99 of the 2xx response times in fractional milliseconds (from autocannon's
 * `response` events; its own histogram keeps whole milliseconds), failures, and this process's
 * CPU over the measured run as a share of one core — the figure that shows whether the load
 * generator, rather than the server, was the limit. Unlike support/load.ts it rotates over whole
 * paths (query strings included) and reports its CPU.
 */
import autocannon from 'autocannon';

export interface HttpLoadSpec {
  /** Origin, e.g. http://127.0.0.1:1234. */
  origin: string;
  /** Paths with their query strings; request k goes to paths[k % paths.length]. */
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of the same load before, not counted. */
  warmup: number;
}

export interface HttpLoadResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  answers: number;
  meanBytes: number;
  failures: number;
  /** CPU seconds of this process over the measured run, per second of it (1 = one core busy). */
  cpuShare: number;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const spec = JSON.parse(await readStdin()) as HttpLoadSpec;

function run(duration: number, record: boolean): Promise<{ result: autocannon.Result; times: number[]; bytes: number }> {
  let k = 0;
  const times: number[] = [];
  let bytes = 0;
  const instance = autocannon({
    url: spec.origin + spec.paths[0],
    method: 'GET',
    headers: spec.headers,
    connections: spec.connections,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          request.path = spec.paths[k++ % spec.paths.length]!;
          return request;
        },
      },
    ],
  });
  instance.on('response', (_client, status, resBytes, ms) => {
    if (!record || status < 200 || status >= 300) return;
    times.push(ms);
    bytes += resBytes;
  });
  return Promise.resolve(instance).then((result) => ({ result, times, bytes }));
}

if (spec.warmup > 0) await run(spec.warmup, false);
process.stdout.write(`${JSON.stringify({ measuring: true })}\n`);
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
const { result, times, bytes } = await run(spec.duration, true);
const cpu = process.cpuUsage(cpuBefore);
const wall = (performance.now() - wallBefore) / 1000;
const sorted = Float64Array.from(times).sort();
const at = (p: number): number => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const answer: HttpLoadResult = {
  reqPerSec: sorted.length / wall,
  p50Ms: at(50),
  p99Ms: at(99),
  answers: sorted.length,
  meanBytes: sorted.length ? bytes / sorted.length : 0,
  failures: result.non2xx + result.errors + result.timeouts,
  cpuShare: (cpu.user + cpu.system) / 1e6 / wall,
};
process.stdout.write(`${JSON.stringify(answer)}\n`);

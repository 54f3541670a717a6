/**
 * Benchmark child, the load generator: reads one LoadSpec as JSON from stdin, runs autocannon
 * (after a warm-up) in this process — never in the server's — and prints autocannon's result
 * JSON on stdout, with `precise`: p50 / p99 of the 2xx response times in fractional
 * milliseconds, taken from autocannon's `response` events (its own latency histogram records
 * whole milliseconds).
 */
import autocannon from 'autocannon';

export interface LoadSpec {
  /** Origin and default path, e.g. http://127.0.0.1:1234/path. */
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** When given, request k goes to `prefix + ids[(k * 7919) % ids.length]` (spread over the set). */
  rotate?: { prefix: string; ids: number[] };
  connections: number;
  /** Seconds. */
  duration: number;
  /** When given, exactly this many requests (every one answered) instead of a duration. */
  amount?: number;
  /** Seconds of warm-up load before the measured run (same connections). */
  warmup: number;
}

export interface PreciseLatency {
  count: number;
  p50: number;
  p99: number;
  /** Mean response body bytes (headers included), from the same events. */
  meanBytes: number;
}

export type LoadResult = autocannon.Result & { precise: PreciseLatency };

const STRIDE = 7919;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const spec = JSON.parse(await readStdin()) as LoadSpec;
let requests: autocannon.Request[] | undefined;
if (spec.rotate && spec.rotate.ids.length > 0) {
  const prefix = spec.rotate.prefix;
  const paths = spec.rotate.ids.map((id) => prefix + id);
  let k = 0;
  requests = [
    {
      setupRequest: (request) => {
        request.path = paths[(k++ * STRIDE) % paths.length]!;
        return request;
      },
    },
  ];
}

const times: number[] = [];
let bytes = 0;
const instance = autocannon({
  url: spec.url,
  method: spec.method,
  headers: spec.headers,
  ...(spec.body === undefined ? {} : { body: spec.body }),
  ...(requests ? { requests } : {}),
  connections: spec.connections,
  ...(spec.amount === undefined ? { duration: spec.duration } : { amount: spec.amount }),
  // autocannon runs a warm-up whenever the option is present, even of duration 0.
  ...(spec.warmup > 0 ? { warmup: { connections: spec.connections, duration: spec.warmup } } : {}),
});
instance.on('response', (_client, status, resBytes, responseTimeMs) => {
  if (status >= 200 && status < 300) {
    times.push(responseTimeMs);
    bytes += resBytes;
  }
});
const result = await instance;
const sorted = Float64Array.from(times).sort();
const precise: PreciseLatency = { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), meanBytes: sorted.length ? bytes / sorted.length : 0 };
process.stdout.write(`${JSON.stringify({ ...result, precise } satisfies LoadResult)}\n`);

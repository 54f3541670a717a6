/**
 * Polls `GET /healthz` on a connection of its own while something else runs, and records how
 * long each answer took from the moment its request was sent (issue #34: no single input may
 * hold the event loop). The probe uses node:http on one kept-alive socket, so it never queues
 * behind the request under test (sent with fetch, on other sockets). The process running it
 * must itself stay idle meanwhile, or its own delays would count.
 */
import { Agent, request } from 'node:http';

export interface ProbeFigures {
  /** Answers received. */
  count: number;
  /** Latencies in ms, in order. */
  samples: number[];
  max: number;
  p50: number;
  p99: number;
}

export interface HealthzProbe {
  /** Stops after the request in flight and answers the figures. */
  stop(): Promise<ProbeFigures>;
}

export const percentile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

function healthz(agent: Agent, base: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    const req = request({ agent, host: base.hostname, port: base.port, path: '/healthz', method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - sent) : reject(new Error(`/healthz answered ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts polling `base`/healthz every `intervalMs` (after each answer) until stopped. */
export function probeHealthz(base: string, intervalMs = 5): HealthzProbe {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(base);
  const samples: number[] = [];
  let stopping = false;
  let failure: unknown;
  const loop = (async () => {
    while (!stopping) {
      try {
        samples.push(await healthz(agent, url));
      } catch (error) {
        failure = error;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      agent.destroy();
      if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
      const sorted = [...samples].sort((a, b) => a - b);
      return { count: samples.length, samples, max: sorted[sorted.length - 1] ?? 0, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
    },
  };
}

/** Runs `work` with a probe polling beside it; answers what `work` answered and the probe's figures. */
export async function whileProbed<T>(base: string, work: () => Promise<T>, intervalMs = 5): Promise<{ result: T; healthz: ProbeFigures }> {
  const probe = probeHealthz(base, intervalMs);
  // Let the probe's first answer in, so an input that blocks at once is measured from a poll sent before it.
  await new Promise((resolve) => setTimeout(resolve, 20));
  try {
    const result = await work();
    // A last poll after the answer: work still running behind it (a record the worker is matching) shows here.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { result, healthz: await probe.stop() };
  } catch (error) {
    await probe.stop().catch(() => undefined);
    throw error;
  }
}

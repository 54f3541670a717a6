/**
 * The part of autocannon 9's programmatic API the benchmarks use (the package ships no types and
 * adding @types/autocannon would be a new dependency). See node_modules/autocannon/README.md.
 */
declare module 'autocannon' {
  namespace autocannon {
    interface RawRequest {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Request extends RawRequest {
      /** Called before each request is built; returning a falsy value restarts the sequence. */
      setupRequest?: (request: RawRequest & Record<string, unknown>, context: Record<string, unknown>) => (RawRequest & Record<string, unknown>) | null | undefined;
    }

    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request times out. */
      timeout?: number;
      requests?: Request[];
      /** A run before the measured one, with its own connections and duration (seconds). */
      warmup?: { connections?: number; duration?: number };
      title?: string;
    }

    /** An hdr-histogram-percentiles-obj summary. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p2_5: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      p99_99: number;
      p99_999: number;
      sent?: number;
      totalCount?: number;
    }

    interface Result {
      title?: string;
      url: string;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      connections: number;
      pipelining: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      start: Date;
      finish: Date;
    }

    interface Instance extends PromiseLike<Result> {
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): Instance;
      on(event: 'done', listener: (result: Result) => void): Instance;
      on(event: 'error', listener: (error: Error) => void): Instance;
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}

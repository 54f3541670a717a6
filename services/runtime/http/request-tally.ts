/**
 * The HTTP metrics (DESIGN §10): answers by route, method and status, and their durations by
 * route and method, kept in plain numbers on the request path and read by the registry at each
 * scrape. prom-client's own counter and histogram build and hash a label key on every call, even
 * through a labelled child: at 60 000 requests/s that was about 4 % of the event loop's time
 * (perf, single-record posts). The registry reads a metric through `get()` alone, so the two
 * metrics here are plain objects that give it what its counter and histogram would.
 */
import type { Counter, Histogram, Registry } from 'prom-client';

/** One series' value as the registry reads it from a metric (a histogram's carry their names). */
type Sample = Awaited<ReturnType<Histogram['get']>>['values'][number];

/** The requests of one route (or of none: `unmatched`) and one method. */
export class RouteTally {
  /** Answers by status code, since the start (or the registry's last reset). */
  readonly byStatus = new Map<number, number>();
  /** Answers per duration bucket (not cumulative); the last one is over the highest bound. */
  readonly inBucket: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly route: string,
    readonly method: string,
    private readonly bounds: readonly number[],
  ) {
    this.inBucket = new Float64Array(bounds.length + 1);
  }

  record(status: number, seconds: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    this.inBucket[i]! += 1;
    this.sum += seconds;
    this.count += 1;
  }

  reset(): void {
    this.byStatus.clear();
    this.inBucket.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

export interface RequestTallies {
  /** The tally of a route and method, the same object on every call. */
  of(route: string, method: string): RouteTally;
}

/** Registers `ops_http_requests_total` and `ops_http_request_duration_seconds` on `registry`. */
export function registerRequestTallies(registry: Registry, bounds: readonly number[]): RequestTallies {
  const tallies = new Map<string, RouteTally>();
  const all = (): RouteTally[] => [...tallies.values()];

  const durationName = 'ops_http_request_duration_seconds';
  // The registry's type names prom-client's classes, but it only calls get() and reset().
  const register = (name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): void =>
    registry.registerMetric({
      name,
      help,
      get: () => ({ name, help, type, aggregator: 'sum', values: values() }),
      // The server keeps the tallies it looked up: zeroed, not dropped.
      reset: () => {
        for (const t of tallies.values()) t.reset();
      },
    } as unknown as Counter);
  register('ops_http_requests_total', 'HTTP requests answered, by route name, method and status code', 'counter', () =>
    all().flatMap((t) =>
      [...t.byStatus].map(([status, n]) => ({
        labels: { route: t.route, method: t.method, status: String(status) },
        value: n,
      })),
    ),
  );
  register(durationName, 'Time from request to the end of the answer', 'histogram', () => all().flatMap((t) => histogramSamples(durationName, t, bounds)));

  return {
    of(route, method) {
      const key = `${method} ${route}`;
      let tally = tallies.get(key);
      if (!tally) tallies.set(key, (tally = new RouteTally(route, method, bounds)));
      return tally;
    },
  };
}

/** The series prom-client's histogram gives for one label set: cumulative buckets, +Inf, sum, count. */
function histogramSamples(name: string, tally: RouteTally, bounds: readonly number[]): Sample[] {
  const labels = { route: tally.route, method: tally.method };
  const samples: Sample[] = [];
  let cumulative = 0;
  for (let i = 0; i < bounds.length; i++) {
    cumulative += tally.inBucket[i]!;
    samples.push({
      labels: { le: bounds[i]!, ...labels },
      value: cumulative,
      metricName: `${name}_bucket`,
    });
  }
  samples.push({
    labels: { le: '+Inf', ...labels },
    value: tally.count,
    metricName: `${name}_bucket`,
  });
  samples.push({ labels, value: tally.sum, metricName: `${name}_sum` });
  samples.push({ labels, value: tally.count, metricName: `${name}_count` });
  return samples;
}

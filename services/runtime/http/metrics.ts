/**
 * Prometheus metrics of one process (DESIGN §10): requests by route and status, latencies,
 * bus lag and batch sizes. One registry per process, passed in (no module singleton).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly httpDuration: Histogram<'route' | 'method'>;
  readonly busPending: Gauge<'stream'>;
  readonly busRedeliveries: Gauge;
  readonly batchRecords: Histogram<'stage'>;
  readonly batchBytes: Histogram<'stage'>;
  /** The keyed problem stage (DESIGN §7a). */
  readonly problemHits: Counter<'outcome'>;
  readonly problemConflicts: Counter;
  readonly problemTransitions: Counter;
  /** Sets the function that refreshes the bus gauges at each scrape. */
  onScrape(refresh: () => Promise<void>): void;
  text(): Promise<string>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const refreshers: Array<() => Promise<void>> = [];
  const metrics: Metrics = {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route name, method and status code',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to the end of the answer',
      labelNames: ['route', 'method'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    busPending: new Gauge({
      name: 'bus_pending_messages',
      help: 'Messages stored on the bus and not yet acknowledged, by stream (bus lag)',
      labelNames: ['stream'],
      registers: [registry],
    }),
    busRedeliveries: new Gauge({
      name: 'bus_redeliveries',
      help: 'Messages this process received more than once since start',
      registers: [registry],
    }),
    batchRecords: new Histogram({
      name: 'batch_records',
      help: 'Records per batch, by pipeline stage',
      labelNames: ['stage'],
      buckets: [1, 10, 50, 100, 500, 1000, 5000, 10000, 50000],
      registers: [registry],
    }),
    batchBytes: new Histogram({
      name: 'batch_bytes',
      help: 'Bytes per batch, by pipeline stage',
      labelNames: ['stage'],
      buckets: [1024, 16384, 65536, 262144, 1048576, 4194304, 16777216],
      registers: [registry],
    }),
    problemHits: new Counter({
      name: 'problem_stage_hits_total',
      help: 'Trigger hits taken by the problem stage, by outcome (placed, known, too_late)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    problemConflicts: new Counter({
      name: 'problem_stage_conflicts_total',
      help: 'Key writes refused because another owner wrote the key first (each one is recomputed): 0 while every partition has one owner',
      registers: [registry],
    }),
    problemTransitions: new Counter({
      name: 'problem_stage_transitions_total',
      help: 'Key open/close transitions recorded in the control plane',
      registers: [registry],
    }),
    onScrape(refresh) {
      refreshers.push(refresh);
    },
    async text() {
      await Promise.all(refreshers.map((r) => r().catch(() => undefined)));
      return registry.metrics();
    },
  };
  return metrics;
}

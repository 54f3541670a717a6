/**
 * Prometheus metrics of one process (DESIGN §10): requests by route and status, latencies,
 * bus lag per stream and per consumer, batch sizes, the problem stage's lag and the SLA jobs'
 * durations. One registry per process, passed in (no module singleton). The
 * platform's own metrics carry the prefix `ops_`, units in their names and `_total` on counters
 * only; Node's and the process's standard ones keep their usual names, except three gauges that
 * prom-client names `…_total` (promtool refuses a `_total` that is not a counter), which are
 * left out. `promtool check metrics` passes on the exposition (test/integration/runtime).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { registerStorageMetrics, type StorageMetrics } from '../storage-metrics.js';
import { type RequestTallies, registerRequestTallies } from './request-tally.js';

export interface Metrics {
  readonly registry: Registry;
  /** Answers and their durations by route (request-tally.ts). */
  readonly http: RequestTallies;
  readonly busPending: Gauge<'stream'>;
  readonly busConsumerPending: Gauge<'stream' | 'consumer'>;
  readonly busRedeliveries: Counter;
  readonly batchRecords: Histogram<'stage'>;
  readonly batchBytes: Histogram<'stage'>;
  /** Per stream: records stored as events, and records kept as dead letters, by this process. */
  readonly streamEvents: Counter<'stream'>;
  readonly streamDeadLetters: Counter<'stream'>;
  /** The keyed problem stage (DESIGN §7a). */
  readonly problemHits: Counter<'outcome'>;
  readonly problemConflicts: Counter;
  readonly problemTransitions: Counter;
  /** From a hits message's publication to its hits being placed. */
  readonly problemLag: Histogram;
  /** Every bus consumer's edge (consumer-edge.ts): what became of each message, and the dead letters. */
  readonly consumerOutcomes: Counter<'consumer' | 'outcome'>;
  /** SLA report jobs: the whole job by outcome, and its phases when it finished. */
  readonly slaJobDuration: Histogram<'outcome'>;
  readonly slaJobPhaseDuration: Histogram<'phase'>;
  /** Live SLA (issue #18) of the CIs of templates with a target, set at each scrape. */
  readonly slaAvailability: Gauge<'ci' | 'window'>;
  readonly slaBudgetRemaining: Gauge<'template' | 'ci'>;
  readonly slaBurnRate: Gauge<'template' | 'ci' | 'window'>;
  /** Notification deliveries (issue #31): attempts by receiver and outcome, and their latency by receiver type. */
  readonly notifyDeliveries: Counter<'receiver' | 'outcome'>;
  readonly notifyDeliverySeconds: Histogram<'type'>;
  readonly notifyBacklog: Gauge<'stage'>;
  /** Free space, full stores, failed log writes and table sizes (storage-metrics.ts). */
  readonly storage: StorageMetrics;
  /** Brings the redeliveries counter up to the bus's own count since start (a counter only goes up). */
  recordRedeliveries(sinceStart: number): void;
  /** Sets the function that refreshes the bus gauges at each scrape. */
  onScrape(refresh: () => Promise<void>): void;
  text(): Promise<string>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
  const refreshers: Array<() => Promise<void>> = [];
  let redeliveriesCounted = 0;
  const metrics: Metrics = {
    registry,
    storage: registerStorageMetrics(registry),
    http: registerRequestTallies(registry, [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
    busPending: new Gauge({
      name: 'ops_bus_pending_messages',
      help: 'Messages stored on the bus and not yet acknowledged, by stream (bus lag)',
      labelNames: ['stream'],
      registers: [registry],
    }),
    busConsumerPending: new Gauge({
      name: 'ops_bus_consumer_pending_messages',
      help: 'Messages of the stream the durable consumer has not acknowledged yet (its lag), by stream and consumer',
      labelNames: ['stream', 'consumer'],
      registers: [registry],
    }),
    busRedeliveries: new Counter({
      name: 'ops_bus_redeliveries_total',
      help: 'Messages this process received more than once',
      registers: [registry],
    }),
    batchRecords: new Histogram({
      name: 'ops_batch_records',
      help: 'Records per batch, by pipeline stage',
      labelNames: ['stage'],
      buckets: [1, 10, 50, 100, 500, 1000, 5000, 10000, 50000],
      registers: [registry],
    }),
    batchBytes: new Histogram({
      name: 'ops_batch_bytes',
      help: 'Bytes per batch, by pipeline stage',
      labelNames: ['stage'],
      buckets: [1024, 16384, 65536, 262144, 1048576, 4194304, 16777216],
      registers: [registry],
    }),
    streamEvents: new Counter({
      name: 'ops_stream_events_total',
      help: 'Records stored as events, by stream id (a redelivered batch counts again)',
      labelNames: ['stream'],
      registers: [registry],
    }),
    streamDeadLetters: new Counter({
      name: 'ops_stream_dead_letters_total',
      help: 'Records kept as dead letters (the stream could not parse them), by stream id',
      labelNames: ['stream'],
      registers: [registry],
    }),
    problemHits: new Counter({
      name: 'ops_problem_stage_hits_total',
      help: 'Trigger hits taken by the problem stage, by outcome (placed, known, too_late)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    consumerOutcomes: new Counter({
      name: 'ops_consumer_messages_total',
      help: 'Bus messages settled by a consumer edge, by consumer and outcome (ok, retry, dead_letter, drop)',
      labelNames: ['consumer', 'outcome'],
      registers: [registry],
    }),
    problemConflicts: new Counter({
      name: 'ops_problem_stage_conflicts_total',
      help: 'Key writes refused because another owner wrote the key first (each one is recomputed): 0 while every partition has one owner',
      registers: [registry],
    }),
    problemTransitions: new Counter({
      name: 'ops_problem_stage_transitions_total',
      help: 'Key open/close transitions recorded in the control plane',
      registers: [registry],
    }),
    problemLag: new Histogram({
      name: 'ops_problem_stage_lag_seconds',
      help: 'Time from a trigger hits message being published to its hits being placed by the problem stage',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    slaJobDuration: new Histogram({
      name: 'ops_sla_job_duration_seconds',
      help: 'SLA report jobs from start to end, by outcome (ok, failed: the report is an Error, interrupted: it will run again)',
      labelNames: ['outcome'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    slaJobPhaseDuration: new Histogram({
      name: 'ops_sla_job_phase_duration_seconds',
      help: 'Phases of the SLA jobs that finished: problems (read and copy), maths, store',
      labelNames: ['phase'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    slaAvailability: new Gauge({
      name: 'ops_sla_availability_percent',
      help: 'Live availability of each CI of an SLA template with a target, over the rolling window ending now (24h, 7d, 30d; default rules)',
      labelNames: ['ci', 'window'],
      registers: [registry],
    }),
    slaBudgetRemaining: new Gauge({
      name: 'ops_sla_error_budget_remaining_ratio',
      help: "Share of the error budget left in the template's current period, per template with a target and CI (negative once the target is missed)",
      labelNames: ['template', 'ci'],
      registers: [registry],
    }),
    slaBurnRate: new Gauge({
      name: 'ops_sla_burn_rate',
      help: "Error budget burn rate over the window (1h, 6h) against the template's target: 1 spends the budget exactly over the period",
      labelNames: ['template', 'ci', 'window'],
      registers: [registry],
    }),
    notifyDeliveries: new Counter({
      name: 'ops_notifications_deliveries_total',
      help: 'Attempts to deliver a notification message, by receiver id and outcome (delivered, retry, refused, gone, expired, skipped)',
      labelNames: ['receiver', 'outcome'],
      registers: [registry],
    }),
    notifyDeliverySeconds: new Histogram({
      name: 'ops_notifications_delivery_seconds',
      help: 'Time a receiver took to answer one delivery attempt, by receiver type',
      labelNames: ['type'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    }),
    notifyBacklog: new Gauge({
      name: 'ops_notifications_backlog_messages',
      help: 'Notification messages waiting on the bus, by stage: route (events not yet routed), deliver (messages not yet delivered)',
      labelNames: ['stage'],
      registers: [registry],
    }),
    recordRedeliveries(sinceStart) {
      if (sinceStart > redeliveriesCounted) metrics.busRedeliveries.inc(sinceStart - redeliveriesCounted);
      redeliveriesCounted = Math.max(redeliveriesCounted, sinceStart);
    },
    onScrape(refresh) {
      refreshers.push(refresh);
    },
    async text() {
      await Promise.all(refreshers.map((r) => r().catch(() => undefined)));
      return registry.metrics();
    },
  };
  // Every outcome is exposed from the start, so the first failed job is an increase from 0 that
  // increase() and the alert rules see, not a new series.
  for (const outcome of ['ok', 'failed', 'interrupted']) metrics.slaJobDuration.zero({ outcome });
  return metrics;
}

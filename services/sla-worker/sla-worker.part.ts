/**
 * The SLA worker (DESIGN §9, spec 8): takes report jobs from the bus one at a time, runs the
 * calculation with the interval maths on piscina threads, stores the rows and records `Ok` or
 * `Error`. A job is acked only once its report is finished; while it runs the worker tells the
 * bus it is still working, so a worker that dies mid-job leaves the job to be delivered again.
 * At start, and then every minute, pending reports whose job may have been lost (in-process
 * jobs die with their process; a publish may fail) are queued again; results past their day
 * are deleted.
 */

import { randomUUID } from 'node:crypto';
import { Piscina } from 'piscina';
import type { CiFiguresOutcome } from '../../pipelines/sla/single-template.js';
import { DROP_REPORT_PROBLEMS, REPORTS_IN_PROBLEMS } from '../../schemas/tables/sla-report-problems.table.js';
import { DROP_REPORT_ROWS, REPORTS_IN_ROWS } from '../../schemas/tables/sla-report-rows.table.js';
import { finishReport, forgetOldReports, heartbeatReport, lastSignOfLife, requeueReport } from '../control-plane/sla/sla-reports.commands.js';
import { REPORT_RETENTION_MS } from '../control-plane/sla/sla-reports.types.js';
import type { Part, PlatformContext } from '../part.js';
import type { BusMessage } from '../runtime/adapters/bus/bus.port.js';
import { SLA_JOBS_STREAM } from '../runtime/bus-streams.js';
import { type ConsumerEdge, createConsumerEdge, deadLetter, engineCall, isTransient, ok, type Outcome, outcomeOfError } from '../runtime/consumer-edge.js';
import { analyticsThroughEngineCalls } from '../runtime/engine-call.js';
import type { PackedChunk } from './calculate.thread.js';
import { type CalculationDeps, calculateReport, ReportError } from './calculate-report.js';
import { decodeJob, queueJob } from '../runtime/sla-jobs.js';

export const SLA_WORKER_CONSUMER = {
  stream: SLA_JOBS_STREAM.name,
  durable: 'sla-worker',
  // One calculation at a time per worker (spec 8).
  maxBatch: 1,
  maxWaitMs: 1000,
  ackWaitMs: 30_000,
  maxDeliver: -1,
};

/** How often a running job tells the bus, and the other workers, that it is alive. */
const HEARTBEAT_MS = 10_000;
const RETRY_MS = 1000;
const JOURNAL = 'control-plane journal';
const SWEEP_EVERY_MS = 60_000;
/** A pending report without a sign of life for this long may have lost its job. */
const STALE_PENDING_MS = 2 * 60_000;

export interface SlaWorkerHooks {
  /** Runs before a job's calculation (tests stop the worker here). */
  beforeCalculation?: (reportId: string) => Promise<void> | void;
}

export function createSlaWorkerPart(hooks: SlaWorkerHooks = {}): Part {
  return {
    name: 'sla-worker',
    async start(ctx) {
      const { bus, analytics } = ctx.engines;
      await bus.ensureStream(SLA_JOBS_STREAM);
      const threads = ctx.config.slaThreads;
      const pool = new Piscina<PackedChunk, CiFiguresOutcome[]>({ filename: new URL('./calculate.thread.ts', import.meta.url).href, minThreads: threads, maxThreads: threads });
      const deps: CalculationDeps = { model: ctx.controlPlane.model, analytics: analyticsThroughEngineCalls(analytics), pool, threads, now: ctx.now };
      const edge = createConsumerEdge(
        { consumer: 'sla-worker', maxDeliveries: ctx.config.maxDeliveries, heartbeatMs: HEARTBEAT_MS },
        { analytics, metrics: ctx.metrics, logger: ctx.logger, now: ctx.now },
      );
      const running = new Set<string>();
      const purged = new Set<string>();

      const sweep = async (olderThanMs: number) => {
        await purge(ctx, purged);
        for (const report of ctx.controlPlane.model.slices.slaReports.pending()) {
          if (running.has(report.id) || lastSignOfLife(report) > ctx.now() - olderThanMs) continue;
          const next = await ctx.controlPlane.execute(requeueReport(report.id));
          if (next) queueJob(bus, { reportId: next.id, attempt: next.attempt }, ctx.logger);
        }
      };

      const consumer = bus.consume(SLA_WORKER_CONSUMER, (batch) => runJobs(edge, batch, (message) => handle(ctx, deps, message, running, hooks)));
      // In-process jobs die with their process: at start every pending report is queued again.
      // JetStream keeps them; then only those without a sign of life are.
      await sweep(bus.profile.oneProcess ? 0 : STALE_PENDING_MS);
      const timer = setInterval(() => {
        sweep(STALE_PENDING_MS).catch((err: unknown) => ctx.logger.error({ err }, 'SLA sweep failed'));
      }, SWEEP_EVERY_MS);
      timer.unref();
      ctx.lifecycle.onStop('sla worker', async () => {
        clearInterval(timer);
        await consumer.stop();
        await pool.destroy();
      });
      return [];
    },
  };
}

/** One job at a time (maxBatch is 1), each settled by the edge. */
function runJobs(edge: ConsumerEdge, batch: BusMessage[], handleOne: (message: BusMessage) => Promise<Outcome>): Promise<void> {
  return edge.run(batch, async (messages) => {
    const outcomes: Outcome[] = [];
    for (const message of messages) outcomes.push(await handleOne(message));
    return outcomes;
  });
}

/**
 * A job's outcome: ok once its report is finished, Ok or Error (a failure of the report's own,
 * e.g. a statement the engine refuses or a failing calculation, is the report's `error`);
 * retried while an engine is unavailable; dead-lettered when it cannot be read, or when even its
 * failure cannot be recorded within the edge's deliveries.
 */
async function handle(ctx: PlatformContext, deps: CalculationDeps, message: BusMessage, running: Set<string>, hooks: SlaWorkerHooks): Promise<Outcome> {
  const job = decodeJob(message.data);
  if (!job) return deadLetter('not an SLA job');
  // The order may come from another process: make sure its record has arrived.
  await engineCall(JOURNAL, () => ctx.controlPlane.catchUp());
  const report = ctx.controlPlane.model.slices.slaReports.reports.get(job.reportId);
  if (report?.status !== 'Pending') return ok;
  const log = ctx.logger.child({ report: report.id, attempt: job.attempt });
  running.add(report.id);
  const beat = () => ctx.controlPlane.execute(heartbeatReport(report.id, ctx.now())).catch((err: unknown) => log.warn({ err }, 'SLA heartbeat not recorded'));
  await beat();
  const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
  const started = performance.now();
  const took = (outcome: 'ok' | 'failed' | 'interrupted') => ctx.metrics.slaJobDuration.observe({ outcome }, (performance.now() - started) / 1000);
  try {
    await hooks.beforeCalculation?.(report.id);
    const phases = await calculateReport(deps, report);
    await engineCall(JOURNAL, () =>
      ctx.controlPlane.execute(
        finishReport(report.id, { status: 'Ok', reportId: randomUUID(), ...(phases.calculatedAt === undefined ? {} : { calculatedAt: phases.calculatedAt }) }, ctx.now()),
      ),
    );
    const round = (ms: number) => Math.round(ms);
    took('ok');
    for (const [phase, ms] of [
      ['problems', phases.problemsMs],
      ['maths', phases.mathsMs],
      ['store', phases.storeMs],
    ] as const)
      ctx.metrics.slaJobPhaseDuration.observe({ phase }, ms / 1000);
    log.info(
      {
        ms: Math.round(performance.now() - started),
        threads: deps.threads,
        problemsMs: round(phases.problemsMs),
        mathsMs: round(phases.mathsMs),
        threadsMs: round(phases.threadsMs),
        storeMs: round(phases.storeMs),
      },
      'SLA report calculated',
    );
    return ok;
  } catch (error) {
    if (!(error instanceof ReportError) && isTransient(error)) {
      took('interrupted');
      log.error({ err: error }, 'SLA calculation interrupted; the job will run again');
      return outcomeOfError(error, RETRY_MS);
    }
    took('failed');
    log.warn({ err: error }, 'SLA report failed');
    // Throws when the failure cannot be recorded: the edge delivers the job again.
    await engineCall(JOURNAL, () => ctx.controlPlane.execute(finishReport(report.id, { status: 'Error', error: (error as Error).message }, ctx.now())));
    return ok;
  } finally {
    clearInterval(heartbeat);
    running.delete(report.id);
  }
}

/**
 * Deletes the results of reports past their day (the TTL does it too, on the server's clock and
 * at its own pace) and forgets month-old reports.
 */
async function purge(ctx: PlatformContext, purged: Set<string>): Promise<void> {
  const expired = [...ctx.controlPlane.model.slices.slaReports.reports.values()]
    .filter((r) => !purged.has(r.id) && Date.parse(r.createdAt) + REPORT_RETENTION_MS <= ctx.now())
    .map((r) => r.id);
  if (expired.length > 0) {
    // Only the partitions there are: at a start every report of the last 30 days is past its day.
    const { analytics } = ctx.engines;
    for (const [reportsIn, drop] of [
      [REPORTS_IN_ROWS, DROP_REPORT_ROWS],
      [REPORTS_IN_PROBLEMS, DROP_REPORT_PROBLEMS],
    ] as const) {
      const stored = new Set((await analytics.query<{ report_id: string }>(reportsIn)).map((row) => row.report_id));
      for (const id of expired) if (stored.has(id)) await analytics.command(drop, { report: id });
    }
    for (const id of expired) purged.add(id);
  }
  await ctx.controlPlane.execute(forgetOldReports(ctx.now()));
}

export const slaWorkerPart: Part = createSlaWorkerPart();

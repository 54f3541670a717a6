/** The SLA job message (which report, which attempt, so a requeued job is not a duplicate): queued by the API, consumed by the SLA worker. */
import type { Bus } from './adapters/bus/bus.port.js';
import { SLA_JOBS_SUBJECT } from './bus-streams.js';
import type { Logger } from './logger.js';

export interface SlaJob {
  reportId: string;
  attempt: number;
}

export const encodeJob = (job: SlaJob): Uint8Array => Buffer.from(JSON.stringify(job));

export function decodeJob(data: Uint8Array): SlaJob | undefined {
  try {
    const job = JSON.parse(Buffer.from(data).toString('utf8')) as Partial<SlaJob>;
    return typeof job.reportId === 'string' && typeof job.attempt === 'number' ? { reportId: job.reportId, attempt: job.attempt } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Queues a job without waiting: in-process, a publish resolves only once a worker has acked the
 * job, i.e. after the calculation. A job that never reaches the bus is queued again by the SLA
 * workers' sweep of pending reports.
 */
export function queueJob(bus: Bus, job: SlaJob, logger: Logger): void {
  bus.publish(SLA_JOBS_SUBJECT, encodeJob(job), { msgId: `${job.reportId}:${job.attempt}` }).catch((err: unknown) => {
    logger.warn({ err, report: job.reportId }, 'queueing an SLA job failed; the pending-report sweep will queue it again');
  });
}

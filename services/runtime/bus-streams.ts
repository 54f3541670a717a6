/** The bus streams of the platform, declared by whoever publishes or consumes them. */
import type { FeedSpec, StreamSpec } from './adapters/bus/bus.port.js';

/**
 * Stream records, one bus message per micro-batch, subject `records.<streamId>`. A work queue:
 * a batch is gone once an event worker acked it (its rows are stored). In-process it is logged,
 * as JetStream keeps it on disk: the ingress answers 200 once the batch is in the bus log, and
 * the event worker inserts behind it, many batches at a time, so no request waits for an insert's
 * fixed cost (issue #14); a restart delivers again what was not stored. The bounds turn a stalled
 * pipeline into 503s at the ingress instead of unbounded memory (in-process the messages are held
 * in memory too).
 */
export const RECORDS_STREAM: StreamSpec = {
  name: 'RECORDS',
  subjects: ['records.>'],
  duplicateWindowMs: 120_000,
  retention: 'workqueue',
  maxMessages: 100_000,
  maxBytes: 256 * 1024 * 1024,
  inProcess: 'logged',
  paceBytes: 32 * 1024 * 1024,
};

export const recordsSubject = (streamId: number): string => `records.${streamId}`;

/**
 * SLA calculation jobs (DESIGN §9), one message per report attempt, subject `sla.jobs`. A work
 * queue shared by the SLA workers, each taking one job at a time (spec 8).
 */
export const SLA_JOBS_STREAM: StreamSpec = {
  name: 'SLA_JOBS',
  subjects: ['sla.jobs'],
  duplicateWindowMs: 120_000,
  retention: 'workqueue',
  maxMessages: 10_000,
};

export const SLA_JOBS_SUBJECT = 'sla.jobs';

/**
 * Trigger hits on their way to the owner of their key (DESIGN §7a): subject `hits.<partition>`,
 * one durable consumer per partition, so each partition is processed in order by one worker at
 * a time. A work queue, bounded like the records. In-process it is logged: the event worker's
 * publish resolves once the hits are on disk, not once their problems are written, so the
 * problem stage works behind the ingest, on whatever has gathered, as it does with JetStream.
 */
export const HITS_STREAM: StreamSpec = {
  name: 'HITS',
  subjects: ['hits.>'],
  duplicateWindowMs: 120_000,
  retention: 'workqueue',
  maxMessages: 100_000,
  inProcess: 'logged',
};

export const hitsSubject = (partition: number): string => `hits.${partition}`;

/**
 * The problem change feed (issue #30, DESIGN §11): one message per group the problem stage wrote,
 * with the problems that changed and its answers to operators' actions. Every API replica reads it
 * whole (SSE, the open-problem index, the answers its action requests wait for); a client that
 * reconnects resumes from it within its retention: ten minutes, and at most 100 000 messages (a
 * message holds one group's changes, so far more changes than that).
 */
export const PROBLEM_CHANGES_FEED: FeedSpec = {
  name: 'PROBLEM_CHANGES',
  subjects: ['problems.changes'],
  duplicateWindowMs: 120_000,
  maxAgeMs: 10 * 60_000,
  maxMessages: 100_000,
};

export const PROBLEM_CHANGES_SUBJECT = 'problems.changes';

/**
 * Notifications (issue #31, DESIGN §11): on `notifications.route`, the events the dispatcher made
 * from the problem change feed, routed by one consumer one batch at a time, in order; on
 * `notifications.<partition>`, the messages routing made of them, each stored before anything is
 * sent. One durable consumer per partition holds one message out at a time, so the messages of
 * one problem to one receiver go in order and a retry waits in place. The duplicate window
 * outlasts the feed's retention: a dispatcher that reads the feed again from its start (a
 * restart, a second dispatcher) stores no event twice.
 */
export const NOTIFICATIONS_STREAM: StreamSpec = {
  name: 'NOTIFICATIONS',
  subjects: ['notifications.>'],
  duplicateWindowMs: PROBLEM_CHANGES_FEED.maxAgeMs + 5 * 60_000,
  retention: 'workqueue',
  maxMessages: 100_000,
  inProcess: 'logged',
};

export const notificationsSubject = (partition: number): string => `notifications.${partition}`;
/** The events to route, read by one consumer in order (services/notifications/route-step.ts). */
export const NOTIFICATIONS_ROUTE_SUBJECT = 'notifications.route';
/** Its durable consumer (the deliveries' are `notifications-<partition>`). */
export const NOTIFICATIONS_ROUTE_DURABLE = 'notifications-route';

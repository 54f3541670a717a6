/**
 * The one edge of every bus consumer (issue #34, STYLE habit 2): steps return an outcome per
 * message, `ok | retry(delay) | deadLetter(reason) | drop`, and only this edge acknowledges,
 * retries, terminates, counts deliveries and tells the bus it is still working.
 *
 * - ok: acked.
 * - retry: nakked with its delay; once a message has been delivered `maxDeliveries` times, it is
 *   dead-lettered instead, so one message that always fails cannot hold its partition.
 *   A transient failure (an engine down: the error catalogue's `unavailable` kind) is retried
 *   without end, since the message is not at fault and dead-lettering it would lose it.
 * - deadLetter: written to `dead_letters` (stream 0, the consumer and the reason), then acked;
 *   if the write fails, nakked, so nothing is dropped in silence.
 * - drop: terminated (the message is known to need nothing).
 *
 * Engine calls go through engine-call.ts, which tells the engine's failures from the message's.
 */
import { createHash } from 'node:crypto';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';
import type { AnalyticsStore } from './adapters/analytics/analytics.port.js';
import { type BusMessage, BusUnavailableError } from './adapters/bus/bus.port.js';
import { isAppError } from '../../schemas/errors.js';
import type { Metrics } from './http/metrics.js';
import type { Logger } from './logger.js';

export { engineCall } from './engine-call.js';

export type Outcome = { kind: 'ok' } | { kind: 'retry'; delayMs: number; reason: string; transient: boolean } | { kind: 'deadLetter'; reason: string } | { kind: 'drop' };

export const ok: Outcome = { kind: 'ok' };
export const drop: Outcome = { kind: 'drop' };
export const deadLetter = (reason: string): Outcome => ({ kind: 'deadLetter', reason });
export const retry = (reason: string, delayMs: number, transient = false): Outcome => ({ kind: 'retry', reason, delayMs, transient });

/** The failure is the store's or the bus's, not the message's (the catalogue's `unavailable` kind). */
export const isTransient = (error: unknown): boolean => error instanceof BusUnavailableError || (isAppError(error) && error.kind === 'unavailable');

/** The outcome of a step that threw: retried (transient without end, otherwise within maxDeliveries). */
export const outcomeOfError = (error: unknown, delayMs: number): Outcome => retry(error instanceof Error ? error.message : String(error), delayMs, isTransient(error));

export interface EdgeConfig {
  /** Names the consumer in metrics, logs and dead letters. */
  consumer: string;
  /** Deliveries after which a message that still fails is dead-lettered. */
  maxDeliveries: number;
  /** How often the messages in hand are reported as still being worked on. */
  heartbeatMs: number;
}

export interface EdgeDeps {
  analytics: AnalyticsStore;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

export type Step = (messages: BusMessage[]) => Promise<Outcome[]>;

export interface ConsumerEdge {
  /** Runs `step` on a batch, keeping its messages meanwhile, and settles each by its outcome. */
  run(messages: BusMessage[], step: Step): Promise<void>;
  /**
   * For a consumer whose outcomes are decided later than its step returns (the event worker's
   * pipelined inserts): keeps the messages until the returned function is called.
   */
  hold(messages: readonly BusMessage[]): () => void;
  /** Settles each message by its outcome. */
  settle(messages: readonly BusMessage[], outcomes: readonly Outcome[]): Promise<void>;
}

/**
 * A retry delay spread over a quarter more: messages that failed together do not all return at
 * once, and a redelivery does not fall in step with a consumer's pull expiry (nats-server 2.9
 * was seen to lose such a redelivery until the ack wait passed, with 1 s delays and 500 ms pulls).
 */
const jittered = (delayMs: number): number => (delayMs > 0 ? Math.round(delayMs * (1 + Math.random() / 4)) : 0);

/** Where a message is kept once dead-lettered (0001_events.sql `dead_letters`). */
function deadLetterRow(consumer: string, message: BusMessage, reason: string, now: number) {
  const id = createHash('sha256')
    .update(`${consumer}\n${message.subject}\n${message.msgId ?? ''}\n`)
    .update(message.data)
    .digest('hex');
  return {
    id: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`,
    stream_id: 0,
    received_at: clickhouseDateTime(now),
    reason: `${consumer}: ${reason} (subject ${message.subject}, message ${message.msgId ?? 'without id'}, delivery ${message.deliveryCount})`,
    payload: Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength).toString('utf8'),
  };
}

export function createConsumerEdge(config: EdgeConfig, deps: EdgeDeps): ConsumerEdge {
  const log = deps.logger.child({ component: 'consumer-edge', consumer: config.consumer });
  const count = (outcome: string, n = 1): void => deps.metrics.consumerOutcomes.inc({ consumer: config.consumer, outcome }, n);

  // A slow store must not look like a dead consumer: keep the messages while working on them.
  const hold = (messages: readonly BusMessage[]): (() => void) => {
    const heartbeat = setInterval(() => {
      for (const m of messages) m.working();
    }, config.heartbeatMs);
    return () => clearInterval(heartbeat);
  };

  async function settle(messages: readonly BusMessage[], outcomes: readonly Outcome[]): Promise<void> {
    const dead: Array<{ message: BusMessage; reason: string }> = [];
    messages.forEach((message, i) => {
      const outcome = outcomes[i] ?? retry('the step gave no outcome for this message', 1000);
      if (outcome.kind === 'ok') {
        message.ack();
        count('ok');
      } else if (outcome.kind === 'drop') {
        message.term();
        count('drop');
      } else if (outcome.kind === 'deadLetter') {
        dead.push({ message, reason: outcome.reason });
      } else if (!outcome.transient && message.deliveryCount >= config.maxDeliveries) {
        dead.push({ message, reason: `still failing after ${message.deliveryCount} deliveries: ${outcome.reason}` });
      } else {
        message.nak(jittered(outcome.delayMs));
        count('retry');
      }
    });
    if (dead.length === 0) return;
    const rows = dead.map((d) => deadLetterRow(config.consumer, d.message, d.reason, deps.now()));
    try {
      // The token makes a second write of the same letters (an ack lost, a redelivery) a no-op.
      await deps.analytics.insert('dead_letters', rows, {
        deduplicationToken: createHash('sha256')
          .update(rows.map((r) => r.id).join(','))
          .digest('hex'),
      });
    } catch (error) {
      log.error({ err: error, messages: dead.length }, 'dead-lettering failed; the messages will be delivered again');
      for (const d of dead) d.message.nak(1000);
      return;
    }
    for (const d of dead) {
      log.warn({ reason: d.reason, subject: d.message.subject, msgId: d.message.msgId }, 'message dead-lettered');
      d.message.ack();
    }
    count('dead_letter', dead.length);
  }

  async function run(messages: BusMessage[], step: Step): Promise<void> {
    const release = hold(messages);
    let outcomes: Outcome[];
    try {
      outcomes = await step(messages);
    } catch (error) {
      log.error({ err: error, messages: messages.length }, 'a step failed for the whole batch');
      outcomes = messages.map(() => outcomeOfError(error, 1000));
    } finally {
      release();
    }
    await settle(messages, outcomes);
  }

  return { run, hold, settle };
}

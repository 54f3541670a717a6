/**
 * The event worker (DESIGN §6): pulls record batches from the bus, runs pipelines/records on
 * each, inserts the event rows (and dead letters) and only then acks. The insert carries the
 * batch's message id as deduplication token, so a batch redelivered after a crash between insert
 * and ack adds no second row. Several workers share one durable consumer.
 */
import { createHash } from 'node:crypto';
import type { Part, PlatformContext } from '../platform.js';
import type { BusMessage } from '../runtime/adapters/bus/bus.port.js';
import { RECORDS_STREAM } from '../runtime/bus-streams.js';
import { processBatch } from '../../pipelines/records/record-pipeline.js';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';

export const EVENT_WORKER_CONSUMER = {
  stream: RECORDS_STREAM.name,
  durable: 'event-worker',
  maxBatch: 16,
  // Ingress requests wait for these acks and the ingress sends one message per stream at a time:
  // hand over at once what is there (JetStream's shortest pull expiry still applies).
  maxWaitMs: 0,
  ackWaitMs: 60_000,
  maxDeliver: -1,
};

/** Retry delay after a failed insert: the store is likely down or overloaded. */
const RETRY_MS = 1000;

export interface EventWorkerHooks {
  /** Runs after a batch's rows are stored and before its ack (tests inject a crash here). */
  afterInsert?: (message: BusMessage) => void;
}

export function createBatchHandler(ctx: PlatformContext, hooks: EventWorkerHooks = {}) {
  const { analytics } = ctx.engines;
  const streams = ctx.controlPlane.model.slices.streams.streams;
  const configOf = (id: number) => streams.get(id)?.config;

  async function handle(message: BusMessage): Promise<void> {
    const batchId = message.msgId && /^[0-9a-f]{32}$/.test(message.msgId) ? message.msgId : createHash('sha256').update(message.data).digest('hex').slice(0, 32);
    const text = Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength).toString('utf8');
    let rows;
    try {
      rows = processBatch(batchId, text, configOf);
    } catch (error) {
      // A batch the pipeline cannot even decode is kept whole in the dead letters, never dropped.
      const reason = `undecodable batch: ${(error as Error).message}`;
      ctx.logger.error({ err: error, batchId }, 'dead-lettering an undecodable batch');
      await analytics.insert('dead_letters', [{ id: batchId.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'), stream_id: 0, received_at: clickhouseDateTime(ctx.now()), reason, payload: text }], {
        deduplicationToken: `${batchId}:undecodable`,
      });
      message.ack();
      return;
    }
    if (rows.eventCount > 0) await analytics.insert('events', Buffer.from(rows.events), { deduplicationToken: batchId });
    if (rows.deadLetterCount > 0) {
      await analytics.insert('dead_letters', Buffer.from(rows.deadLetters), { deduplicationToken: `${batchId}:dead` });
      ctx.logger.warn({ batchId, streamId: rows.streamId, deadLetters: rows.deadLetterCount }, 'records dead-lettered');
    }
    ctx.metrics.batchRecords.observe({ stage: 'insert' }, rows.eventCount);
    hooks.afterInsert?.(message);
    message.ack();
  }

  return async (batch: BusMessage[]): Promise<void> => {
    for (const message of batch) {
      try {
        await handle(message);
      } catch (error) {
        ctx.logger.error({ err: error, msgId: message.msgId, delivery: message.deliveryCount }, 'storing a record batch failed; it will be redelivered');
        message.nak(RETRY_MS);
      }
    }
  };
}

export function createEventWorkerPart(hooks: EventWorkerHooks = {}): Part {
  return {
    name: 'event-worker',
    async start(ctx) {
      await ctx.engines.bus.ensureStream(RECORDS_STREAM);
      const consumer = ctx.engines.bus.consume(EVENT_WORKER_CONSUMER, createBatchHandler(ctx, hooks));
      ctx.lifecycle.onStop('event worker', () => consumer.stop());
      return [];
    },
  };
}

export const eventWorkerPart: Part = createEventWorkerPart();

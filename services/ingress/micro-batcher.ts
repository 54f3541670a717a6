/**
 * Packs the records of many requests into one bus message per stream (DESIGN §6), bounded by
 * record count, bytes and a few milliseconds. Each request waits for the acknowledgement of the
 * message holding its records. One message per stream is on its way at a time; while it is, new
 * records gather in the next one, so messages grow with the load (large inserts downstream, which
 * run one at a time anyway) and stay small and quick when it is light. A publish that fails is retried with the same message id until
 * the publish timeout (the bus drops the duplicate if the first try had landed); a backlog over
 * the bound refuses new records at once so the ingress answers 503.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/http/metrics.js';
import { BusUnavailableError, type Bus } from '../runtime/adapters/bus/bus.port.js';
import { recordsSubject } from '../runtime/bus-streams.js';
import { encodeBatch, type BatchPart } from '../../pipelines/records/envelope.js';

interface OpenBatch {
  parts: BatchPart[];
  records: number;
  bytes: number;
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
  timer: NodeJS.Timeout | undefined;
}

export interface MicroBatcher {
  /** Resolves once the records are durably on the bus. */
  add(streamId: number, part: BatchPart, bytes: number): Promise<void>;
  /** Publishes every open batch now and waits for them (at stop). */
  flush(): Promise<void>;
  inFlight(): number;
}

const RETRY_DELAY_MS = 100;
const IN_FLIGHT_PER_STREAM = 1;

export function createMicroBatcher(config: Config['batching'], deps: { bus: Bus; logger: Logger; metrics: Metrics }): MicroBatcher {
  const open = new Map<number, OpenBatch>();
  const publishing = new Set<Promise<void>>();
  const inFlightOf = new Map<number, number>();

  async function publishWithRetry(subject: string, data: Buffer, msgId: string): Promise<void> {
    const deadline = Date.now() + config.publishTimeoutMs;
    for (;;) {
      try {
        await deps.bus.publish(subject, data, { msgId, timeoutMs: Math.max(1, deadline - Date.now()) });
        return;
      } catch (error) {
        if (!(error instanceof BusUnavailableError) || Date.now() + RETRY_DELAY_MS >= deadline) throw error;
        await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
      }
    }
  }

  function send(streamId: number): void {
    const batch = open.get(streamId);
    if (!batch) return;
    open.delete(streamId);
    clearTimeout(batch.timer);
    deps.metrics.batchRecords.observe({ stage: 'ingress' }, batch.records);
    deps.metrics.batchBytes.observe({ stage: 'ingress' }, batch.bytes);
    const msgId = randomBytes(16).toString('hex');
    inFlightOf.set(streamId, (inFlightOf.get(streamId) ?? 0) + 1);
    const settled = (): void => {
      publishing.delete(done);
      inFlightOf.set(streamId, (inFlightOf.get(streamId) ?? 1) - 1);
      // What gathered while the window was full goes now, unless its own timer is still running.
      const next = open.get(streamId);
      if (next && next.timer === undefined) send(streamId);
    };
    const done: Promise<void> = publishWithRetry(recordsSubject(streamId), Buffer.from(encodeBatch(streamId, batch.parts)), msgId).then(
      () => {
        settled();
        // The next message is handed over before the answers are written: in-process, the event
        // worker can start its insert first.
        for (const w of batch.waiters) w.resolve();
      },
      (error: unknown) => {
        settled();
        deps.logger.warn({ err: error, streamId, records: batch.records, msgId }, 'batch not accepted by the bus');
        const refusal = error instanceof BusUnavailableError ? error : new BusUnavailableError(`the bus refused the batch: ${(error as Error).message}`);
        for (const w of batch.waiters) w.reject(refusal);
      },
    );
    publishing.add(done);
  }

  return {
    add(streamId, part, bytes) {
      if (publishing.size >= config.maxPendingBatches) {
        return Promise.reject(new BusUnavailableError(`${publishing.size} batches are waiting for the bus; retry shortly`, 1));
      }
      let batch = open.get(streamId);
      if (!batch) {
        batch = { parts: [], records: 0, bytes: 0, waiters: [], timer: undefined };
        open.set(streamId, batch);
      }
      batch.parts.push(part);
      batch.records += part.count;
      batch.bytes += bytes;
      const promise = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
      const windowFull = (inFlightOf.get(streamId) ?? 0) >= IN_FLIGHT_PER_STREAM;
      if (batch.records >= config.maxRecords || batch.bytes >= config.maxBytes) send(streamId);
      else if (windowFull) {
        // Sent when a message of this stream is acknowledged (see send).
      } else if (config.maxWaitMs === 0) send(streamId);
      else
        batch.timer ??= setTimeout(() => {
          const current = open.get(streamId);
          if (!current) return;
          current.timer = undefined;
          if ((inFlightOf.get(streamId) ?? 0) < IN_FLIGHT_PER_STREAM) send(streamId);
        }, config.maxWaitMs);
      return promise;
    },
    async flush() {
      for (const streamId of [...open.keys()]) send(streamId);
      await Promise.allSettled([...publishing]);
    },
    inFlight: () => publishing.size + open.size,
  };
}

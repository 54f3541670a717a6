/**
 * Packs the records of many requests into one bus message per stream (DESIGN §6), bounded by
 * record count and bytes. Each request waits for the acknowledgement of the message holding its
 * records. One message per stream is on its way at a time; while it is, new records gather in
 * the next one, so messages grow with the load and stay small and quick when it is light. An idle
 * stream's message goes at the end of the event loop's turn, with every request read in it (or
 * after `maxWaitMs`, when set). A publish that fails is retried with the same message id until
 * the publish timeout (the bus drops the duplicate if the first try had landed); a backlog over
 * the bound refuses new records at once so the ingress answers 503.
 */
import { randomBytes } from 'node:crypto';
import { type BatchPart, encodeBatch } from '../../pipelines/records/envelope.js';
import { type Bus, BusUnavailableError } from '../runtime/adapters/bus/bus.port.js';
import { recordsSubject } from '../runtime/bus-streams.js';
import type { Config } from '../runtime/config.js';
import type { Metrics } from '../runtime/http/metrics.js';
import type { Logger } from '../runtime/logger.js';

interface OpenBatch {
  parts: BatchPart[];
  records: number;
  bytes: number;
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
  /** Cancels the batch's wait (its timer, or the end of the turn) while one is armed. */
  cancelWait: (() => void) | undefined;
  /** Goes as soon as the stream's window allows: it is full, has waited, or formed behind one. */
  ready: boolean;
}

export interface MicroBatcher {
  /** Resolves once the records are durably on the bus. `bytes`: the part's size in its message. */
  add(streamId: number, part: BatchPart, bytes: number): Promise<void>;
  /** Publishes every open batch now and waits for them (at stop). */
  flush(): Promise<void>;
  inFlight(): number;
}

const RETRY_DELAY_MS = 100;
const IN_FLIGHT_PER_STREAM = 1;

/**
 * `config.maxBytes` bounds a message's parts: a part that would take its batch past it starts
 * the next batch, so a message stays under the bound unless one part alone is larger (the
 * ingress sizes parts under it).
 */
export function createMicroBatcher(config: Config['batching'], deps: { bus: Bus; logger: Logger; metrics: Metrics }): MicroBatcher {
  /** Per stream, oldest first; only the last one takes new parts. */
  const open = new Map<number, OpenBatch[]>();
  const publishing = new Set<Promise<void>>();
  const inFlightOf = new Map<number, number>();
  const isFull = (b: OpenBatch): boolean => b.records >= config.maxRecords || b.bytes >= config.maxBytes;

  async function publishWithRetry(subject: string, data: Buffer, msgId: string): Promise<void> {
    const deadline = Date.now() + config.publishTimeoutMs;
    for (;;) {
      try {
        await deps.bus.publish(subject, data, { msgId, timeoutMs: Math.max(1, deadline - Date.now()) });
        return;
      } catch (error) {
        // A full disk under the bus log (its cause says so) does not clear in 100 ms: answered at once.
        if (!(error instanceof BusUnavailableError) || error.cause !== undefined || Date.now() + RETRY_DELAY_MS >= deadline) throw error;
        await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
      }
    }
  }

  /** Sends what may go now, within the stream's window; arms the wait of a batch still gathering. */
  function pump(streamId: number): void {
    const queue = open.get(streamId);
    while (queue && queue.length > 0 && (inFlightOf.get(streamId) ?? 0) < IN_FLIGHT_PER_STREAM) {
      const head = queue[0]!;
      if (!head.ready && head === queue.at(-1) && !isFull(head)) {
        if (!head.cancelWait) {
          const go = (): void => {
            head.cancelWait = undefined;
            head.ready = true;
            pump(streamId);
          };
          if (config.maxWaitMs > 0) {
            const timer = setTimeout(go, config.maxWaitMs);
            head.cancelWait = () => clearTimeout(timer);
          } else {
            // The requests read in the same turn of the event loop share the message.
            const turn = setImmediate(go);
            head.cancelWait = () => clearImmediate(turn);
          }
        }
        return;
      }
      queue.shift();
      if (queue.length === 0) open.delete(streamId);
      send(streamId, head);
    }
  }

  function send(streamId: number, batch: OpenBatch): void {
    batch.cancelWait?.();
    deps.metrics.batchRecords.observe({ stage: 'ingress' }, batch.records);
    deps.metrics.batchBytes.observe({ stage: 'ingress' }, batch.bytes);
    const msgId = randomBytes(16).toString('hex');
    inFlightOf.set(streamId, (inFlightOf.get(streamId) ?? 0) + 1);
    const settled = (): void => {
      publishing.delete(done);
      inFlightOf.set(streamId, (inFlightOf.get(streamId) ?? 1) - 1);
      // What gathered while the window was full goes now, unless its own wait is still running.
      pump(streamId);
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
      let queue = open.get(streamId);
      if (!queue) open.set(streamId, (queue = []));
      let batch = queue.at(-1);
      if (!batch || (batch.records > 0 && (batch.records + part.count > config.maxRecords || batch.bytes + bytes > config.maxBytes))) {
        if (batch) batch.ready = true;
        // Formed while the window is full: it goes when the message ahead is acknowledged.
        batch = { parts: [], records: 0, bytes: 0, waiters: [], cancelWait: undefined, ready: (inFlightOf.get(streamId) ?? 0) >= IN_FLIGHT_PER_STREAM };
        queue.push(batch);
      }
      batch.parts.push(part);
      batch.records += part.count;
      batch.bytes += bytes;
      const target = batch;
      const promise = new Promise<void>((resolve, reject) => target.waiters.push({ resolve, reject }));
      pump(streamId);
      return promise;
    },
    async flush() {
      for (const [streamId, queue] of [...open]) {
        for (const b of queue) b.ready = true;
        pump(streamId);
      }
      await Promise.allSettled([...publishing]);
      // What could not go while the window was full went as the messages ahead settled.
      while (publishing.size > 0) await Promise.allSettled([...publishing]);
    },
    inFlight: () => publishing.size + [...open.values()].reduce((n, q) => n + q.length, 0),
  };
}

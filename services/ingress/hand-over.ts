/**
 * What every listener does once it has its records: hand them to the micro-batcher in parts a bus
 * message can carry (each under the batch bounds and the bus's message size), and resolve once
 * the bus holds them all. A single record larger than a message is a 413; a bus that cannot take
 * them is a 503 with Retry-After. Records of a large body go in several messages, so a 503 may
 * come after some of them were stored: the answer says so. While the data directory is under its
 * free-space watermark nothing is taken (503 `ingest.disk_low`, disk-watch.ts), and a bus log on
 * a full disk answers 503 `storage.full`.
 */

import { type BatchPart, batchParts, type RecordKind } from '../../pipelines/records/envelope.js';
import type { StreamsSlice } from '../control-plane/streams/streams.slice.js';
import { BusUnavailableError } from '../runtime/adapters/bus/bus.port.js';
import { AppError, fail, failLater, isAppError } from '../../schemas/errors.js';
import { storageFull, storageFullReason } from '../runtime/storage-full.js';
import type { MicroBatcher } from './micro-batcher.js';

export interface ReceiverDeps {
  streams: StreamsSlice;
  batcher: MicroBatcher;
  now: () => number;
  maxBodyBytes: number;
  /** One message's records and record bytes at most (the batch bounds, under the bus's message size). */
  maxRecords: number;
  maxMessageBytes: number;
  /** The data directory's free space (absent: nothing refused for it). */
  disk?: { ingestRefusal(): AppError | undefined };
}

/** A part's header line in its message, counted with its records. */
const PART_HEADER_BYTES = 64;

/** `what` names the records in the answers ("record", "document", "alert"). */
export function handOver(deps: ReceiverDeps, streamId: number, receivedAt: number, kind: RecordKind, records: readonly string[], what = 'record'): Promise<void> {
  return handOverThen(deps, streamId, receivedAt, kind, records, what, stored);
}

const stored = (): void => undefined;

/**
 * handOver, resolving with what `then` makes once the bus holds the records. Not an async
 * function: a request whose records fit one message (nearly all) waits on one promise made on the
 * batcher's own, not on a promise per function and step (a promise and a turn each, at tens of
 * thousands of requests a second).
 */
export function handOverThen<T>(deps: ReceiverDeps, streamId: number, receivedAt: number, kind: RecordKind, records: readonly string[], what: string, then: () => T): Promise<T> {
  const paused = deps.disk?.ingestRefusal();
  if (paused) return Promise.reject(paused);
  // batchParts cuts parts under the bound; only a part of one record can be over it.
  const parts = batchParts(receivedAt, kind, records, deps.maxRecords, deps.maxMessageBytes - PART_HEADER_BYTES);
  const sizes = parts.map((p) => Buffer.byteLength(p.text) + PART_HEADER_BYTES);
  const tooLarge = sizes.find((size) => size > deps.maxMessageBytes);
  if (tooLarge !== undefined) {
    return Promise.reject(fail('ingest.larger_than_bus_message', { what, bytes: tooLarge - PART_HEADER_BYTES, limit: deps.maxMessageBytes }));
  }
  if (parts.length === 1) {
    return deps.batcher.add(streamId, parts[0]!, sizes[0]!).then(then, (error: unknown) => {
      throw refusal(error, what, '');
    });
  }
  return handOverParts(deps, streamId, parts, sizes, what).then(then);
}

async function handOverParts(deps: ReceiverDeps, streamId: number, parts: readonly BatchPart[], sizes: readonly number[], what: string): Promise<void> {
  const added = await Promise.allSettled(parts.map((part, i) => deps.batcher.add(streamId, part, sizes[i]!)));
  const failed = added.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return;
  const partly = added.some((r) => r.status === 'fulfilled') ? ` (some ${what}s of this request were stored: it went in several messages)` : '';
  throw refusal(failed.reason, what, partly);
}

/** The answer to a part the bus did not take: 503 with Retry-After, or the error it already is. */
function refusal(error: unknown, what: string, partly: string): AppError {
  if (error instanceof BusUnavailableError) {
    // A full store under the bus (the in-process log's disk, JetStream's storage), when nothing of
    // the request was stored: the same answer as every other full store.
    const full = partly === '' ? storageFullReason(error) : undefined;
    if (full !== undefined) return isAppError(error.cause) ? error.cause : storageFull('bus', full, error);
    return failLater('ingest.bus_unavailable', error.retryAfterSeconds, { what, reason: error.message, partly });
  }
  return error instanceof AppError ? error : failLater('ingest.not_accepted', 1, { what, partly });
}

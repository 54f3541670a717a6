/**
 * What every listener does once it has its records: hand them to the micro-batcher in parts a bus
 * message can carry (each under the batch bounds and the bus's message size), and resolve once
 * the bus holds them all. A single record larger than a message is a 413; a bus that cannot take
 * them is a 503 with Retry-After. Records of a large body go in several messages, so a 503 may
 * come after some of them were stored: the answer says so.
 */

import { batchParts, type RecordKind } from '../../pipelines/records/envelope.js';
import type { StreamsSlice } from '../control-plane/streams/streams.slice.js';
import { BusUnavailableError } from '../runtime/adapters/bus/bus.port.js';
import { AppError, fail, failLater } from '../runtime/errors.js';
import type { MicroBatcher } from './micro-batcher.js';

export interface ReceiverDeps {
  streams: StreamsSlice;
  batcher: MicroBatcher;
  now: () => number;
  maxBodyBytes: number;
  /** One message's records and record bytes at most (the batch bounds, under the bus's message size). */
  maxRecords: number;
  maxMessageBytes: number;
}

/** A part's header line in its message, counted with its records. */
const PART_HEADER_BYTES = 64;

/** `what` names the records in the answers ("record", "document", "alert"). */
export async function handOver(deps: ReceiverDeps, streamId: number, receivedAt: number, kind: RecordKind, records: readonly string[], what = 'record'): Promise<void> {
  // batchParts cuts parts under the bound; only a part of one record can be over it.
  const parts = batchParts(receivedAt, kind, records, deps.maxRecords, deps.maxMessageBytes - PART_HEADER_BYTES);
  const sizes = parts.map((p) => Buffer.byteLength(p.text) + PART_HEADER_BYTES);
  const tooLarge = sizes.find((size) => size > deps.maxMessageBytes);
  if (tooLarge !== undefined) {
    throw fail('ingest.larger_than_bus_message', { what, bytes: tooLarge - PART_HEADER_BYTES, limit: deps.maxMessageBytes });
  }
  const added = await Promise.allSettled(parts.map((part, i) => deps.batcher.add(streamId, part, sizes[i]!)));
  const failed = added.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return;
  const partly = added.some((r) => r.status === 'fulfilled') ? ` (some ${what}s of this request were stored: it went in several messages)` : '';
  const error: unknown = failed.reason;
  if (error instanceof BusUnavailableError) throw failLater('ingest.bus_unavailable', error.retryAfterSeconds, { what, reason: error.message, partly });
  throw error instanceof AppError ? error : failLater('ingest.not_accepted', 1, { what, partly });
}

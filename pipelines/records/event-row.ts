/**
 * Event and dead-letter rows (DESIGN §6) as JSONEachRow lines. Ids are derived from the batch
 * id and the record's position, so a redelivered batch yields the very same rows.
 */
import type { IncomingRecord } from './envelope.js';
import type { Prepared } from './preprocess.step.js';
import { clickhouseDateTime } from './timestamps.js';

/** A UUID from a 32-hex-digit batch id and a record index (the last 8 digits carry the index). */
export function recordId(batchId: string, index: number): string {
  const hex = batchId.slice(0, 24) + index.toString(16).padStart(8, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function eventRow(batchId: string, streamId: number, record: IncomingRecord, prepared: Prepared, labelsJson: string): string {
  return (
    `{"id":"${recordId(batchId, record.index)}","stream_id":${streamId},"ts":"${clickhouseDateTime(prepared.ts)}",` +
    `"received_at":"${clickhouseDateTime(record.receivedAt)}","route":${JSON.stringify(prepared.route)},"labels":${labelsJson},` +
    `"payload":${JSON.stringify(prepared.payload)}}`
  );
}

export function deadLetterRow(batchId: string, streamId: number, record: IncomingRecord, reason: string): string {
  return JSON.stringify({
    id: recordId(batchId, record.index),
    stream_id: streamId,
    received_at: clickhouseDateTime(record.receivedAt),
    reason,
    payload: record.raw,
  });
}

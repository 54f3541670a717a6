/**
 * Event and dead-letter rows (DESIGN §6) as JSONEachRow lines, for the tables of
 * schemas/tables/events.table.ts and dead-letters.table.ts: each line begins with the fields of
 * the table's row head, in its order (services/event-worker/unstored-rows.ts reads them so). Ids
 * are derived from the batch id and the record's position, so a redelivered batch yields the very
 * same rows.
 */
import { DEAD_LETTER_ROW_HEAD, type DeadLetterRow } from '../../schemas/tables/dead-letters.table.js';
import { EVENT_ROW_HEAD } from '../../schemas/tables/events.table.js';
import type { IncomingRecord } from './envelope.js';
import { clickhouseDateTime } from './timestamps.js';

/** The first 28 characters of the UUIDs of a batch's records (from its 32-hex-digit id). */
export const idPrefix = (batchId: string): string => `${batchId.slice(0, 8)}-${batchId.slice(8, 12)}-${batchId.slice(12, 16)}-${batchId.slice(16, 20)}-${batchId.slice(20, 24)}`;

/** A UUID from a batch id and a record index (the last 8 digits carry the index). */
export function recordId(batchId: string, index: number): string {
  return idPrefix(batchId) + index.toString(16).padStart(8, '0');
}

/**
 * Settings an insert of these rows needs: a JSON object or array given for the String column
 * `payload` is stored as its own text, so a record's JSON goes in as it came, unescaped. Rows of
 * any number of months go in one insert (the table is partitioned by month, and ClickHouse
 * refuses more than 100 partitions in one block by default): a backfill of old records must not
 * make the whole batch, with the records sent beside it, fail again on every retry.
 */
export const EVENT_ROW_SETTINGS = { input_format_json_read_objects_as_strings: 1, input_format_json_read_arrays_as_strings: 1, max_partitions_per_insert_block: 0 } as const;

/** The payload as it goes into the row: objects and arrays as they are, anything else quoted. */
function payloadField(payload: string): string {
  const first = payload.charCodeAt(0);
  return first === 123 /* { */ || first === 91 /* [ */ ? payload : JSON.stringify(payload);
}

/**
 * The row's `retention_days` field from the stream's retentionDays ('' when it has none: the row
 * takes the table's default, OPS_EVENTS_RETENTION_DAYS; 0007_retention.sql).
 */
export const retentionField = (days: number | undefined): string => (days === undefined ? '' : `,"retention_days":${days}`);

const [ID, STREAM_ID, TS] = EVENT_ROW_HEAD;
// The head's field names joined into the text around them once, not on every row.
const OPEN_ID = `{"${ID}":"`;
const THEN_STREAM_ID = `","${STREAM_ID}":`;
const THEN_TS = `,"${TS}":"`;

/**
 * One event row; `prefix` is idPrefix(batchId), dates already in ClickHouse form; `payload` is JSON
 * text; `retention` is retentionField(...).
 */
export function eventRowLine(
  prefix: string,
  index: number,
  streamId: number,
  ts: string,
  receivedAt: string,
  routeJson: string,
  labelsJson: string,
  payload: string,
  retention = '',
): string {
  return (
    `${OPEN_ID}${prefix}${index.toString(16).padStart(8, '0')}${THEN_STREAM_ID}${streamId}${THEN_TS}${ts}","received_at":"${receivedAt}",` +
    `"route":${routeJson},"labels":${labelsJson}${retention},"payload":${payloadField(payload)}}`
  );
}

export function deadLetterRow(batchId: string, streamId: number, record: IncomingRecord, reason: string): string {
  const [id, stream, date] = DEAD_LETTER_ROW_HEAD;
  // The head first, in its order (JSON.stringify keeps the keys' order).
  const row: DeadLetterRow = { [id]: recordId(batchId, record.index), [stream]: streamId, [date]: clickhouseDateTime(record.receivedAt), reason, payload: record.raw };
  return JSON.stringify(row);
}

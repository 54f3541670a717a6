/**
 * The `events` table (0001_events.sql, 0007_retention.sql): the stored records, written by the
 * event worker as JSONEachRow lines (pipelines/records/event-row.ts), checked for redelivered rows
 * (services/event-worker/unstored-rows.ts) and read by the stream API (services/api/streams/).
 */
import { epochMs, type RowOf, selectList, table } from './table.js';

const DATE = "DateTime64(3, 'UTC')";

export const EVENTS = table('events', {
  id: 'UUID',
  stream_id: 'UInt64',
  ts: DATE,
  received_at: DATE,
  route: 'LowCardinality(String)',
  labels: 'Map(String, String)',
  /** The record's JSON (objects and arrays stored as their text). */
  payload: 'String',
  /** Absent from a row: the table's default (OPS_EVENTS_RETENTION_DAYS). */
  retention_days: 'UInt16',
});

export type EventRow = RowOf<typeof EVENTS>;

/** The fields a written row begins with: id, stream_id, then the sort key's date. */
export type RowHead = readonly [id: string, streamId: string, date: string];

/**
 * The fields an events row begins with, in this order (the table's first three columns):
 * pipelines/records/event-row.ts writes them so, unstored-rows.ts reads them off a line without
 * parsing it (rowHeadPattern).
 */
export const EVENT_ROW_HEAD = ['id', 'stream_id', 'ts'] as const satisfies RowHead & ReadonlyArray<keyof EventRow>;

/** A row's head as written (JSONEachRow, no spaces): captures the id, the stream id and the date text. */
export const rowHeadPattern = ([id, streamId, date]: RowHead): RegExp => new RegExp(`^\\{"${id}":"([0-9a-fA-F-]{36})","${streamId}":(\\d+),"${date}":"([^"\\\\]*)"`);

/** A record of a stream as the stream API reads it (instants as epoch milliseconds). */
export const EVENT_ITEM_LIST = selectList<keyof EventRow & string>(['ts', 'received_at', 'route', 'labels', 'payload'], {
  ts: `${epochMs('ts')} AS ts_ms`,
  received_at: `${epochMs('received_at')} AS received_ms`,
});

/**
 * The `dead_letters` table (0001_events.sql, 0007_retention.sql): records that could not be
 * stored as events, with the reason, written by the event worker, the problem stage and the
 * consumer edge (pipelines/records/event-row.ts `deadLetterRow`) and read by the stream API.
 */
import type { RowHead } from './events.table.js';
import { epochMs, type RowOf, selectList, table } from './table.js';

export const DEAD_LETTERS = table('dead_letters', {
  id: 'UUID',
  stream_id: 'UInt64',
  received_at: "DateTime64(3, 'UTC')",
  reason: 'String',
  payload: 'String',
});

export type DeadLetterRow = RowOf<typeof DEAD_LETTERS>;

/** The fields a written row begins with, in this order: id, stream_id, then the sort key's date (as in events.table.ts). */
export const DEAD_LETTER_ROW_HEAD = ['id', 'stream_id', 'received_at'] as const satisfies RowHead & ReadonlyArray<keyof DeadLetterRow>;

/** A dead letter as the stream API reads it. */
export const DEAD_LETTER_ITEM_LIST = selectList<keyof DeadLetterRow & string>(['received_at', 'reason', 'payload'], { received_at: `${epochMs('received_at')} AS received_ms` });

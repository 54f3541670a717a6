/**
 * Pages of a stream's events and dead letters (issue #30), newest first, by keyset: each page
 * holds what sorts after the cursor by (date, id), read with FINAL so a record is one row. A page
 * is read in two steps, so that no answer holds more than PAGE_BYTES of records however large
 * they are: the keys and sizes of up to `limit` + 1 items, then the rows of those that fit.
 * Ids are compared as text, in the statement and in its ORDER BY alike: ClickHouse's own UUID
 * comparison does not follow the order it sorts them by.
 */
import { DEAD_LETTER_ITEM_LIST, DEAD_LETTER_ROW_HEAD } from '../../../schemas/tables/dead-letters.table.js';
import { EVENT_ITEM_LIST, EVENT_ROW_HEAD } from '../../../schemas/tables/events.table.js';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import type { DeadLetterModel, DeadLetterPageModel, StreamEventModel, StreamEventPageModel } from '../../../schemas/stream-events.schema.js';
import type { AnalyticsStore, QueryParams } from '../../runtime/adapters/analytics/analytics.port.js';
import { encodeCursor, type ReadCursor } from './read-cursor.js';

/** The most record bytes one page carries (it carries at least one record, however large). */
export const PAGE_BYTES = 4 * 1024 * 1024;

/** Conditions on the rows beyond stream and dates (filters, route), with their parameters. */
export interface RowConditions {
  sql: readonly string[];
  params: QueryParams;
}

export const NO_CONDITIONS: RowConditions = { sql: [], params: {} };

export interface PageRequest {
  streamId: number;
  /** Milliseconds since the epoch: `from` inclusive, `to` exclusive. */
  from: number;
  to: number;
  limit: number;
  cursor: ReadCursor | undefined;
  conditions: RowConditions;
}

type Table = 'events' | 'dead_letters';
/** The date each table is paged by: its sort key's (the last field of its row head). */
const DATE_OF: Record<Table, 'ts' | 'received_at'> = { events: EVENT_ROW_HEAD[2], dead_letters: DEAD_LETTER_ROW_HEAD[2] };

interface KeyRow {
  item_id: string;
  at_ms: string;
  bytes: string;
}

export interface EventRow {
  item_id: string;
  ts_ms: string;
  received_ms: string;
  route: string;
  labels: Record<string, string>;
  payload: string;
}

interface DeadLetterRow {
  item_id: string;
  received_ms: string;
  reason: string;
  payload: string;
}

const iso = (ms: string | number): string => new Date(Number(ms)).toISOString();

/** The record as JSON; a payload that is somehow not JSON is given as its text. */
function recordOf(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

export const eventItem = (streamId: number, row: EventRow): StreamEventModel => ({
  id: row.item_id,
  streamId,
  ts: iso(row.ts_ms),
  receivedAt: iso(row.received_ms),
  route: row.route,
  labels: row.labels,
  record: recordOf(row.payload),
});

const deadLetterItem = (streamId: number, row: DeadLetterRow): DeadLetterModel => ({
  id: row.item_id,
  streamId,
  receivedAt: iso(row.received_ms),
  reason: row.reason,
  payload: row.payload,
});

/** The leading keys whose records fit in `budget` bytes (at least one). */
export function keysWithin<T extends { bytes: string | number }>(keys: readonly T[], budget: number): T[] {
  let total = 0;
  let n = 0;
  while (n < keys.length) {
    total += Number(keys[n]!.bytes);
    if (n > 0 && total > budget) break;
    n += 1;
  }
  return keys.slice(0, n);
}

/** The keys of the page's items, newest first, and whether more follow. */
async function pageKeys(analytics: AnalyticsStore, table: Table, page: PageRequest): Promise<{ keys: KeyRow[]; cursor: ReadCursor | undefined }> {
  const date = DATE_OF[table];
  const after = page.cursor ? `AND ${date} <= {after:DateTime64(3)} AND (${date}, toString(id)) < ({after:DateTime64(3)}, {afterId:String})` : '';
  const rows = await analytics.query<KeyRow>(
    `SELECT toString(id) AS item_id, toUnixTimestamp64Milli(${date}) AS at_ms, length(payload) AS bytes
     FROM ${table} FINAL
     WHERE stream_id = {stream:UInt64} AND ${date} >= {from:DateTime64(3)} AND ${date} < {to:DateTime64(3)} ${after}
       ${page.conditions.sql.map((condition) => `AND ${condition}`).join(' ')}
     ORDER BY ${date} DESC, item_id DESC
     LIMIT {take:UInt32}`,
    {
      ...page.conditions.params,
      stream: page.streamId,
      from: clickhouseDateTime(page.from),
      to: clickhouseDateTime(page.to),
      take: page.limit + 1,
      ...(page.cursor ? { after: clickhouseDateTime(page.cursor.ms), afterId: page.cursor.id } : {}),
    },
  );
  const keys = keysWithin(rows.slice(0, page.limit), PAGE_BYTES);
  const last = keys.at(-1);
  return { keys, cursor: last && keys.length < rows.length ? { ms: Number(last.at_ms), id: last.item_id } : undefined };
}

/** The rows of `ids` (all of one stream, dated from `low` to `high` by `date`), in `order`. */
export function rowsByIds<T>(
  analytics: AnalyticsStore,
  table: Table,
  columns: string,
  streamId: number,
  date: 'ts' | 'received_at',
  range: { low: number; high: number },
  ids: readonly string[],
  order: 'ASC' | 'DESC',
): Promise<T[]> {
  return analytics.query<T>(
    `SELECT toString(id) AS item_id, ${columns}
     FROM ${table} FINAL
     WHERE stream_id = {stream:UInt64} AND ${date} >= {low:DateTime64(3)} AND ${date} <= {high:DateTime64(3)} AND id IN {ids:Array(UUID)}
     ORDER BY ${date} ${order}, item_id ${order}`,
    { stream: streamId, low: clickhouseDateTime(range.low), high: clickhouseDateTime(range.high), ids },
  );
}

async function readPage<R, I>(
  analytics: AnalyticsStore,
  table: Table,
  columns: string,
  page: PageRequest,
  item: (streamId: number, row: R) => I,
): Promise<{ items: I[]; nextCursor: string | null }> {
  const { keys, cursor } = await pageKeys(analytics, table, page);
  if (keys.length === 0) return { items: [], nextCursor: null };
  const dates = keys.map((key) => Number(key.at_ms));
  const range = { low: Math.min(...dates), high: Math.max(...dates) };
  const rows = await rowsByIds<R>(
    analytics,
    table,
    columns,
    page.streamId,
    DATE_OF[table],
    range,
    keys.map((key) => key.item_id),
    'DESC',
  );
  return { items: rows.map((row) => item(page.streamId, row)), nextCursor: cursor ? encodeCursor(cursor) : null };
}

/** A page of the stream's events by event date (`ts`), newest first. */
export const readEvents = (analytics: AnalyticsStore, page: PageRequest): Promise<StreamEventPageModel> => readPage(analytics, 'events', EVENT_ITEM_LIST, page, eventItem);

/** A page of the stream's dead letters by receipt date, newest first. */
export const readDeadLetters = (analytics: AnalyticsStore, page: PageRequest): Promise<DeadLetterPageModel> =>
  readPage(analytics, 'dead_letters', DEAD_LETTER_ITEM_LIST, page, deadLetterItem);

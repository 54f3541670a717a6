/**
 * The rows of a redelivered bus message that are not stored yet (issue 13). An insert's
 * deduplication token names the group of messages fetched together (0001_events.sql), so a
 * message delivered again in another group would add its rows a second time: physical copies
 * that only a FINAL read hides. Its rows are therefore checked against the table first, and only
 * those whose id is not there go in again.
 *
 * The check reads no FINAL: an id stored once or several times is stored. It asks, per stream,
 * for the given ids between the rows' earliest and latest date, so the table's sort key
 * (stream_id, date, id) narrows the read to the granules that can hold them; the ids go in
 * chunks, each a bound parameter small enough for an HTTP request line.
 */
import { DEAD_LETTER_ROW_HEAD } from '../../schemas/tables/dead-letters.table.js';
import { EVENT_ROW_HEAD, type RowHead, rowHeadPattern } from '../../schemas/tables/events.table.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';

export type RowTable = 'events' | 'dead_letters';

/**
 * Ids bound per query. A bound parameter travels in the URL of a ClickHouse HTTP request, about
 * 45 bytes an id there; 150 keep the request line under 8 KB, a common limit of the proxies in
 * front of a server (Node's HTTP server allows 16 KB, ClickHouse itself 1 MB).
 */
export const IDS_PER_QUERY = 150;

/** Each table's row head (id, stream_id, then the sort key's date), as its table module states it. */
const ROW_HEAD: Record<RowTable, RowHead> = { events: EVENT_ROW_HEAD, dead_letters: DEAD_LETTER_ROW_HEAD };

/** The date column each table is sorted by after stream_id. */
const DATE_COLUMN: Record<RowTable, string> = { events: ROW_HEAD.events[2], dead_letters: ROW_HEAD.dead_letters[2] };

/**
 * The head of a row as pipelines/records/event-row.ts writes it (the table module's row head).
 * Read without parsing the rest of the line (the payload may be large).
 */
const HEAD: Record<RowTable, RegExp> = { events: rowHeadPattern(ROW_HEAD.events), dead_letters: rowHeadPattern(ROW_HEAD.dead_letters) };

/** `YYYY-MM-DD hh:mm:ss.mmm`, as clickhouseDateTime writes it: fixed width, so its text order is its time order. */
const CANONICAL_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;

interface Row {
  line: string;
  id: string;
  streamId: string;
  date: string | undefined;
}

/** Id, stream and date of a row: from its head when it has the usual form, else from the whole line. */
function rowOf(table: RowTable, line: string): Row {
  const head = HEAD[table].exec(line);
  if (head) return { line, id: head[1]!.toLowerCase(), streamId: head[2]!, date: head[3] };
  const parsed = JSON.parse(line) as Record<string, unknown>;
  const [idField, streamField, dateField] = ROW_HEAD[table];
  const id = parsed[idField];
  const streamId = parsed[streamField];
  const date = parsed[dateField];
  if (typeof id !== 'string' || (typeof streamId !== 'number' && typeof streamId !== 'string')) {
    throw new Error(`a ${table} row without id or stream_id: ${line.slice(0, 120)}`);
  }
  return { line, id: id.toLowerCase(), streamId: String(streamId), date: typeof date === 'string' ? date : undefined };
}

/** The rows of one stream, and the date range that holds them all (none when a date is not canonical). */
interface StreamRows {
  ids: string[];
  from: string | undefined;
  to: string | undefined;
  bounded: boolean;
}

function byStream(rows: readonly Row[]): Map<string, StreamRows> {
  const streams = new Map<string, StreamRows>();
  for (const row of rows) {
    let s = streams.get(row.streamId);
    if (!s) streams.set(row.streamId, (s = { ids: [], from: undefined, to: undefined, bounded: true }));
    s.ids.push(row.id);
    if (!s.bounded) continue;
    if (row.date === undefined || !CANONICAL_DATE.test(row.date)) {
      s.bounded = false;
      continue;
    }
    if (s.from === undefined || row.date < s.from) s.from = row.date;
    if (s.to === undefined || row.date > s.to) s.to = row.date;
  }
  return streams;
}

/** The ids among `ids` that `table` holds for this stream (physically: with or without copies). */
async function storedIds(analytics: AnalyticsStore, table: RowTable, streamId: string, rows: StreamRows): Promise<string[]> {
  const column = DATE_COLUMN[table];
  const dates = rows.bounded ? ` AND ${column} >= {from:DateTime64(3, 'UTC')} AND ${column} <= {to:DateTime64(3, 'UTC')}` : '';
  const sql = `SELECT id FROM ${table} WHERE stream_id = {stream:UInt64}${dates} AND id IN {ids:Array(UUID)}`;
  const stream = Number.isSafeInteger(Number(streamId)) ? Number(streamId) : streamId;
  const found: string[] = [];
  for (let i = 0; i < rows.ids.length; i += IDS_PER_QUERY) {
    const ids = rows.ids.slice(i, i + IDS_PER_QUERY);
    const params = rows.bounded ? { stream, from: rows.from, to: rows.to, ids } : { stream, ids };
    for (const row of await analytics.query<{ id: string }>(sql, params)) found.push(row.id.toLowerCase());
  }
  return found;
}

/**
 * The lines of `rowsText` (JSONEachRow, as the record pipeline makes it) whose id `table` does
 * not hold yet, in their order, each ending in a newline ('' when none is left). A line repeated
 * in the text is kept once.
 */
export async function unstoredRows(analytics: AnalyticsStore, table: RowTable, rowsText: string): Promise<string> {
  const rows: Row[] = [];
  for (const line of rowsText.split('\n')) if (line.length > 0) rows.push(rowOf(table, line));
  if (rows.length === 0) return '';
  const stored = new Set<string>();
  for (const [streamId, streamRows] of byStream(rows)) {
    for (const id of await storedIds(analytics, table, streamId, streamRows)) stored.add(id);
  }
  let text = '';
  for (const row of rows) {
    if (stored.has(row.id)) continue;
    stored.add(row.id);
    text += `${row.line}\n`;
  }
  return text;
}

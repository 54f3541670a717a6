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
  return idPrefix(batchId) + hex8(index);
}

/** The 8 lower-case hex digits of a record's index in its id. */
const hex8 = (index: number): string => index.toString(16).padStart(8, '0');

/**
 * Settings an insert of these rows needs: a JSON object or array given for the String column
 * `payload` is stored as its own text, so a record's JSON goes in as it came, unescaped. Rows of
 * any number of months go in one insert (the table is partitioned by month, and ClickHouse
 * refuses more than 100 partitions in one block by default): a backfill of old records must not
 * make the whole batch, with the records sent beside it, fail again on every retry.
 */
export const EVENT_ROW_SETTINGS = { input_format_json_read_objects_as_strings: 1, input_format_json_read_arrays_as_strings: 1, max_partitions_per_insert_block: 0 } as const;

/** The first byte of a JSON object or array: such a payload goes into its row as it is. */
export const isObjectOrArrayStart = (byte: number | undefined): boolean => byte === 123 /* { */ || byte === 91; /* [ */

/** The payload as it goes into the row: objects and arrays as they are, anything else quoted. */
function payloadField(payload: string): string {
  return isObjectOrArrayStart(payload.charCodeAt(0)) ? payload : JSON.stringify(payload);
}

/**
 * The row's `retention_days` field from the stream's retentionDays ('' when it has none: the row
 * takes the table's default, OPS_EVENTS_RETENTION_DAYS; 0007_retention.sql).
 */
export const retentionField = (days: number | undefined): string => (days === undefined ? '' : `,"retention_days":${days}`);

const [ID, STREAM_ID, TS] = EVENT_ROW_HEAD;

/*
 * An event row's text around what changes from record to record (its index, its date and its
 * payload), in one place for both ways of writing it (eventRowLine, EventRowBytes).
 */
const rowOpen = (prefix: string): string => `{"${ID}":"${prefix}`;
const beforeTs = (streamId: number): string => `","${STREAM_ID}":${streamId},"${TS}":"`;
const beforePayload = (receivedAt: string, routeJson: string, labelsJson: string, retention: string): string =>
  `","received_at":"${receivedAt}","route":${routeJson},"labels":${labelsJson}${retention},"payload":`;
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
  return `${rowOpen(prefix)}${hex8(index)}${beforeTs(streamId)}${ts}${beforePayload(receivedAt, routeJson, labelsJson, retention)}${payloadField(payload)}}`;
}

/** What the rows of one part share: its receipt date, route and labels (EventRowBytes.part). */
export interface RowPart {
  /** The row's text up to its payload for a record dated by its receipt, with room for the index. */
  readonly head: Buffer;
  /** What follows the date, up to the payload. */
  readonly tail: Buffer;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef');

/**
 * The event rows of one bus message as NDJSON bytes. A JSON object or array record goes in as the
 * bytes it came in, copied from the message: no text is decoded from it or encoded again, which
 * at hundreds of thousands of records a second is most of what the rows cost. Other rows come as
 * text (eventRowLine). The rows are written once all are known, into one buffer of their size.
 */
export class EventRowBytes {
  readonly #prefix: string;
  readonly #streamId: number;
  /** The row's text up to its index, and from the index to its date. */
  readonly #open: Buffer;
  readonly #beforeTs: Buffer;
  /** Per row: its text; or, copied, its index, its own date ('' when dated by receipt), its part and its payload's place. */
  readonly #texts: Array<string | undefined> = [];
  readonly #indexes: number[] = [];
  readonly #dates: string[] = [];
  readonly #parts: RowPart[] = [];
  readonly #sources: Buffer[] = [];
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];

  constructor(prefix: string, streamId: number) {
    this.#prefix = prefix;
    this.#streamId = streamId;
    this.#open = Buffer.from(rowOpen(prefix));
    this.#beforeTs = Buffer.from(beforeTs(streamId));
  }

  get count(): number {
    return this.#texts.length;
  }

  part(receivedAt: string, routeJson: string, labelsJson: string, retention: string): RowPart {
    const tail = beforePayload(receivedAt, routeJson, labelsJson, retention);
    return { head: Buffer.from(`${rowOpen(this.#prefix)}${hex8(0)}${beforeTs(this.#streamId)}${receivedAt}${tail}`), tail: Buffer.from(tail) };
  }

  /**
   * A row whose payload is `source` from `start` to `end`, a JSON object or array
   * (isObjectOrArrayStart); `ts` is its date in ClickHouse form (ASCII), or '' for its receipt date.
   */
  copied(index: number, ts: string, part: RowPart, source: Buffer, start: number, end: number): void {
    this.#texts.push(undefined);
    this.#indexes.push(index);
    this.#dates.push(ts);
    this.#parts.push(part);
    this.#sources.push(source);
    this.#starts.push(start);
    this.#ends.push(end);
  }

  /** A row made as text (eventRowLine). */
  text(row: string): void {
    this.#texts.push(row);
    this.#indexes.push(0);
    this.#dates.push('');
    this.#parts.push(EMPTY_PART);
    this.#sources.push(EMPTY_PART.head);
    this.#starts.push(0);
    this.#ends.push(0);
  }

  /** Every row, each ending in a newline (empty when none). */
  bytes(): Buffer {
    const n = this.count;
    const open = this.#open;
    const beforeTs = this.#beforeTs;
    let size = 0;
    for (let i = 0; i < n; i++) {
      const text = this.#texts[i];
      const date = this.#dates[i]!;
      const part = this.#parts[i]!;
      const head = date === '' ? part.head.length : open.length + 8 + beforeTs.length + date.length + part.tail.length;
      size += text !== undefined ? Buffer.byteLength(text) + 1 : head + this.#ends[i]! - this.#starts[i]! + 2;
    }
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const text = this.#texts[i];
      if (text !== undefined) {
        at += out.write(text, at);
        out[at++] = 10; /* \n */
        continue;
      }
      const date = this.#dates[i]!;
      const part = this.#parts[i]!;
      if (date === '') {
        out.set(part.head, at);
        writeHex8(out, at + open.length, this.#indexes[i]!);
        at += part.head.length;
      } else {
        out.set(open, at);
        at += open.length;
        writeHex8(out, at, this.#indexes[i]!);
        out.set(beforeTs, (at += 8));
        at += beforeTs.length;
        for (let c = 0; c < date.length; c++) out[at++] = date.charCodeAt(c);
        out.set(part.tail, at);
        at += part.tail.length;
      }
      at += this.#sources[i]!.copy(out, at, this.#starts[i], this.#ends[i]);
      out[at++] = 125; /* } */
      out[at++] = 10; /* \n */
    }
    return out;
  }
}

const EMPTY_PART: RowPart = { head: Buffer.alloc(0), tail: Buffer.alloc(0) };

/** The 8 lower-case hex digits of `index` (as hex8) into `out` at `at`. */
function writeHex8(out: Buffer, at: number, index: number): void {
  for (let digit = 7; digit >= 0; digit--) {
    out[at + digit] = HEX_DIGITS[index & 15]!;
    index >>>= 4;
  }
}

export function deadLetterRow(batchId: string, streamId: number, record: IncomingRecord, reason: string): string {
  const [id, stream, date] = DEAD_LETTER_ROW_HEAD;
  // The head first, in its order (JSON.stringify keeps the keys' order).
  const row: DeadLetterRow = { [id]: recordId(batchId, record.index), [stream]: streamId, [date]: clickhouseDateTime(record.receivedAt), reason, payload: record.raw };
  return JSON.stringify(row);
}

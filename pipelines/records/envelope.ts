/**
 * The bus message that carries a micro-batch of records from the ingress to the event workers.
 * One header line, then for each request a part header and its records, one per line:
 *
 *   {"v":1,"s":<streamId>}
 *   {"t":<receivedAt ms>,"k":"json"|"xml"|"text","n":<records>}
 *   <record line> × n
 *
 * A JSON record is its own text on one line (a valid JSON text has raw newlines only as
 * whitespace, so they fold into spaces); XML and plain text travel as JSON strings. The ingress
 * copies NDJSON lines as they are, so packing costs little on its hot path.
 */
export type RecordKind = 'json' | 'xml' | 'text';

/**
 * The records of one request as they wait for their message: one string rather than an array of
 * lines, since a batch lives for a whole insert and every string it holds is work for the GC.
 */
export interface BatchPart {
  receivedAt: number;
  kind: RecordKind;
  /** How many records `text` holds. */
  count: number;
  /** Record lines in the encoding above (no newline inside), joined by newlines. */
  text: string;
}

export function batchPart(receivedAt: number, kind: RecordKind, lines: readonly string[]): BatchPart {
  return { receivedAt, kind, count: lines.length, text: lines.join('\n') };
}

/**
 * The records of one request as parts of at most `maxRecords` records and about `maxBytes`
 * bytes each (one bus message, and one event worker's rows, each bounded), in order. A single
 * record over `maxBytes` is a part of its own: the caller decides whether the bus can carry it.
 */
export function batchParts(receivedAt: number, kind: RecordKind, lines: readonly string[], maxRecords: number, maxBytes: number): BatchPart[] {
  const parts: BatchPart[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    const size = Buffer.byteLength(lines[i]!) + 1;
    if (i > start && (i - start >= maxRecords || bytes + size > maxBytes)) {
      parts.push(batchPart(receivedAt, kind, lines.slice(start, i)));
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (start < lines.length) parts.push(batchPart(receivedAt, kind, start === 0 ? lines : lines.slice(start)));
  return parts;
}

export interface IncomingRecord {
  /** Position in the batch: with the batch id, the record's stable identity. */
  index: number;
  receivedAt: number;
  kind: RecordKind;
  /** JSON text for `json`; the document or text itself for `xml` and `text`. */
  raw: string;
}

/**
 * The records of one part as they lie in the message's bytes: a record line is read only when
 * something needs it as text (the event worker copies most of them into its rows as bytes).
 */
export interface DecodedPart {
  receivedAt: number;
  kind: RecordKind;
  /** The whole message, as UTF-8. */
  bytes: Buffer;
  /** Where each record line (in the encoding above) begins in `bytes`, and where it ends (exclusive). */
  starts: number[];
  ends: number[];
  /** Batch index of the part's first record. */
  firstIndex: number;
}

export interface DecodedBatch {
  streamId: number;
  /** The whole message, as UTF-8 (each part's `bytes`). */
  bytes: Buffer;
  parts: DecodedPart[];
  count: number;
}

/** The line of the part's record at `i`, as text. */
export const lineOf = (part: DecodedPart, i: number): string => part.bytes.toString('utf8', part.starts[i], part.ends[i]);

/** The record at `i` of a part, decoded from its line. */
export function recordOf(part: DecodedPart, i: number): IncomingRecord {
  const line = lineOf(part, i);
  return { index: part.firstIndex + i, receivedAt: part.receivedAt, kind: part.kind, raw: part.kind === 'json' ? line : (JSON.parse(line) as string) };
}

export function encodeBatch(streamId: number, parts: readonly BatchPart[]): string {
  let out = `{"v":1,"s":${streamId}}\n`;
  for (const part of parts) {
    if (part.count === 0) continue;
    out += `{"t":${part.receivedAt},"k":"${part.kind}","n":${part.count}}\n${part.text}\n`;
  }
  return out;
}

export class MalformedBatchError extends Error {
  override readonly name = 'MalformedBatchError';
}

interface PartHeader {
  t: number;
  k: RecordKind;
  n: number;
}

const KINDS: readonly RecordKind[] = ['json', 'xml', 'text'];
const KIND_BYTES = KINDS.map((k) => Buffer.from(`"k":"${k}","n":`));
const T_OPEN = Buffer.from('{"t":');

/** The digits of a non-negative integer at `at`, and where they end; undefined: none, or too many. */
function digitsAt(bytes: Buffer, at: number, end: number): { value: number; next: number } | undefined {
  let value = 0;
  let i = at;
  while (i < end && bytes[i]! >= 48 && bytes[i]! <= 57 && i - at < 15) value = value * 10 + (bytes[i++]! - 48);
  return i === at ? undefined : { value, next: i };
}

/** Whether `bytes` holds `expected` at `at`. Byte by byte: for a few dozen bytes, cheaper than a call into Buffer's native compare. */
export const matchesAt = (bytes: Buffer, at: number, expected: Buffer): boolean => {
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
};

/**
 * A part header as encodeBatch writes it, `{"t":<ms>,"k":"<kind>","n":<count>}`, read from the
 * bytes; undefined for any other spelling, which JSON.parse reads. A message of single-record
 * requests has a header per record, and JSON.parse of each was half of decoding it.
 */
function partHeaderAt(bytes: Buffer, at: number, end: number): PartHeader | undefined {
  if (!matchesAt(bytes, at, T_OPEN)) return undefined;
  const t = digitsAt(bytes, at + T_OPEN.length, end);
  if (!t || bytes[t.next] !== 44 /* , */) return undefined;
  const kindAt = t.next + 1;
  const k = KIND_BYTES.findIndex((kind) => matchesAt(bytes, kindAt, kind));
  if (k < 0) return undefined;
  const n = digitsAt(bytes, kindAt + KIND_BYTES[k]!.length, end);
  if (!n || n.next !== end - 1 || bytes[n.next] !== 125 /* } */) return undefined;
  return { t: t.value, k: KINDS[k]!, n: n.value };
}

/** A message as the bus carries it (UTF-8), or as text. */
export function decodeBatch(message: Uint8Array | string): DecodedBatch {
  const bytes = typeof message === 'string' ? Buffer.from(message) : Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  let at = 0;
  let lineNumber = 0;
  /** The end of the line that begins at `at` (a last line may lack its newline). */
  const endOfLine = (): number => {
    const end = bytes.indexOf(10, at);
    return end < 0 ? bytes.length : end;
  };
  const nextLine = (): string => {
    const end = endOfLine();
    const line = bytes.toString('utf8', at, end);
    at = end + 1;
    lineNumber += 1;
    return line;
  };
  const header = JSON.parse(at < bytes.length ? nextLine() : 'null') as { v?: number; s?: number } | null;
  if (header?.v !== 1 || typeof header.s !== 'number') throw new MalformedBatchError('batch header missing or of an unknown version');
  const parts: DecodedPart[] = [];
  let count = 0;
  while (at < bytes.length) {
    const end = endOfLine();
    const part = partHeaderAt(bytes, at, end) ?? (JSON.parse(bytes.toString('utf8', at, end)) as PartHeader);
    at = end + 1;
    lineNumber += 1;
    const starts: number[] = [];
    const ends: number[] = [];
    for (let i = 0; i < part.n; i++) {
      if (at >= bytes.length) throw new MalformedBatchError(`part at line ${lineNumber} announces ${part.n} records; the batch ends first`);
      const end = endOfLine();
      starts.push(at);
      ends.push(end);
      at = end + 1;
    }
    lineNumber += part.n;
    parts.push({ receivedAt: part.t, kind: part.k, bytes, starts, ends, firstIndex: count });
    count += part.n;
  }
  return { streamId: header.s, bytes, parts, count };
}

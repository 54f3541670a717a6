/**
 * decode ▸ parse ▸ preprocess ▸ event rows, for one bus message (DESIGN §1). Pure: given the
 * message and the stream's configuration, it returns the rows to insert; the consumer edge
 * inserts them and acks.
 *
 * Hot path: a JSON record on a stream without field rules goes straight to its row, with no parse
 * and no intermediate object, when it has no `@timestamp` (its date is the receipt time) or
 * begins with it.
 */
import type { StreamConfigModel } from '../../schemas/stream.schema.js';
import { decodeBatch, matchesAt, recordOf } from './envelope.js';
import { deadLetterRow, EventRowBytes, eventRowLine, idPrefix, isObjectOrArrayStart, recordId, retentionField, type RowPart } from './event-row.js';
import { createParseStep } from './parse.step.js';
import { createPreprocessStep, needsFields } from './preprocess.step.js';
import { clickhouseDateTime, parseTimestamp } from './timestamps.js';

const TIMESTAMP_KEY = Buffer.from('"@timestamp"');
const LEADING_TIMESTAMP = Buffer.from('{"@timestamp":"');

/**
 * The instant of a JSON record's `@timestamp` when the record (`bytes` from `start` to `end`)
 * begins with it, as agents write it (Beats, Logstash...), read without parsing the record: the
 * ingress has parsed and checked every JSON record already (validate-body.step.ts), so only the
 * date is left to read. `key` and `nextKey` are where the first `"@timestamp"` of the record is
 * and the one after it (-1: none). Undefined when only a parse can tell: the field is not first
 * or comes twice (the last one counts). A value with an escape in it is no date to
 * parseTimestamp either, so the parse reads it too.
 */
function leadingTimestamp(bytes: Buffer, start: number, end: number, key: number, nextKey: number): number | undefined {
  if (key !== start + 1 || (nextKey >= 0 && nextKey < end)) return undefined;
  if (!matchesAt(bytes, start, LEADING_TIMESTAMP)) return undefined;
  const valueStart = start + LEADING_TIMESTAMP.length;
  let valueEnd = valueStart;
  while (valueEnd < end && bytes[valueEnd] !== 34 /* " */) valueEnd++;
  return valueEnd === end ? undefined : parseTimestamp(bytes.toString('latin1', valueStart, valueEnd));
}

/** A stored event with its fields, as the trigger matcher (pipelines/problems/trigger-match.ts) reads it. */
export interface TriggeredEvent {
  id: string;
  streamId: number;
  ts: number;
  fields: unknown;
}

export interface BatchRows {
  streamId: number;
  /** NDJSON of event rows (empty when none). */
  events: Buffer;
  eventCount: number;
  deadLetters: Buffer;
  deadLetterCount: number;
  /** The events with their fields, when the caller asked for them (streams with triggers). */
  fielded: TriggeredEvent[];
}

/** The stream's configuration by id, or undefined when the stream was deleted meanwhile. */
export type StreamConfigLookup = (streamId: number) => StreamConfigModel | undefined;

/**
 * `wantsFields` says whether the stream's events must come out with their fields too (its
 * triggers read them); such a stream leaves the hot path.
 */
export function processBatch(batchId: string, message: Uint8Array | string, configOf: StreamConfigLookup, wantsFields: (streamId: number) => boolean = () => false): BatchRows {
  const batch = decodeBatch(message);
  const streamId = batch.streamId;
  // A stream deleted after its records were accepted still gets them stored: they were acknowledged.
  const config = configOf(streamId) ?? {};
  const collect = wantsFields(streamId);
  const fieldsNeeded = collect || needsFields(config);
  const fielded: TriggeredEvent[] = [];
  const parse = createParseStep(config, fieldsNeeded);
  const preprocess = createPreprocessStep(config);
  const labelsJson = JSON.stringify(config.preprocessor?.labels ?? {});
  const routeJson = JSON.stringify(config.routeLabel ?? '');
  const retention = retentionField(config.retentionDays);
  const prefix = idPrefix(batchId);
  const events = new EventRowBytes(prefix, streamId);
  const dead: string[] = [];
  // The `"@timestamp"` keys of the message, met in order: the first at or after the record being
  // read, and the one after it (-1: none left). Each part is a request, and a message may hold
  // thousands of single-record requests: the message is searched once, not once per part.
  let key = batch.bytes.indexOf(TIMESTAMP_KEY);
  let nextKey = key >= 0 ? batch.bytes.indexOf(TIMESTAMP_KEY, key + 1) : -1;
  let received = '';
  let rows: RowPart | undefined;
  for (const part of batch.parts) {
    // Requests of the same millisecond share their receipt date, and the text of their rows' heads.
    const partReceived = clickhouseDateTime(part.receivedAt);
    if (!rows || partReceived !== received) {
      received = partReceived;
      rows = events.part(received, routeJson, labelsJson, retention);
    }
    const { bytes, starts, ends } = part;
    const fast = part.kind === 'json' && !fieldsNeeded;
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i]!;
      const end = ends[i]!;
      if (fast && isObjectOrArrayStart(bytes[start])) {
        if (key >= 0 && key < start) {
          key = nextKey >= start ? nextKey : bytes.indexOf(TIMESTAMP_KEY, start);
          nextKey = key >= 0 ? bytes.indexOf(TIMESTAMP_KEY, key + 1) : -1;
        }
        // Without `@timestamp` the record is dated by its receipt; with it first, by its own date.
        const ts = key >= 0 && key < end ? leadingTimestamp(bytes, start, end, key, nextKey) : part.receivedAt;
        if (ts !== undefined) {
          events.copied(part.firstIndex + i, ts === part.receivedAt ? '' : clickhouseDateTime(ts), rows, bytes, start, end);
          continue;
        }
      }
      const record = recordOf(part, i);
      const parsed = parse(record);
      if (!parsed.ok) {
        dead.push(deadLetterRow(batchId, streamId, record, parsed.reason));
        continue;
      }
      const prepared = preprocess(record, parsed.value);
      const ts = prepared.ts === part.receivedAt ? received : clickhouseDateTime(prepared.ts);
      events.text(eventRowLine(prefix, record.index, streamId, ts, received, routeJson, labelsJson, prepared.payload, retention));
      if (collect) fielded.push({ id: recordId(batchId, record.index), streamId, ts: prepared.ts, fields: prepared.fields });
    }
  }
  return {
    streamId,
    events: events.bytes(),
    eventCount: events.count,
    deadLetters: Buffer.from(dead.length > 0 ? `${dead.join('\n')}\n` : ''),
    deadLetterCount: dead.length,
    fielded,
  };
}

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
import { decodeBatch, recordOf } from './envelope.js';
import { deadLetterRow, eventRowLine, idPrefix, recordId, retentionField } from './event-row.js';
import { createParseStep } from './parse.step.js';
import { createPreprocessStep, needsFields } from './preprocess.step.js';
import { clickhouseDateTime, parseTimestamp } from './timestamps.js';

const LEADING_TIMESTAMP = '{"@timestamp":"';

/**
 * The instant of a JSON record's `@timestamp` when the record begins with it, as agents write it
 * (Beats, Logstash...), read without parsing the record: the ingress has parsed and checked every
 * JSON record already (validate-body.step.ts), so only the date is left to read. Undefined when
 * only a parse can tell: the field is not first or comes twice (the last one counts). A value
 * with an escape in it is no date to parseTimestamp either, so the parse reads it too.
 */
function leadingTimestamp(line: string): number | undefined {
  if (!line.startsWith(LEADING_TIMESTAMP) || line.lastIndexOf('"@timestamp"') !== 1) return undefined;
  const end = line.indexOf('"', LEADING_TIMESTAMP.length);
  return end < 0 ? undefined : parseTimestamp(line.slice(LEADING_TIMESTAMP.length, end));
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
  /** NDJSON of event rows ('' when none). */
  events: string;
  eventCount: number;
  deadLetters: string;
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
export function processBatch(batchId: string, message: string, configOf: StreamConfigLookup, wantsFields: (streamId: number) => boolean = () => false): BatchRows {
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
  // Rows gathered and joined once: appending to one string builds a rope the insert has to flatten.
  const events: string[] = [];
  const dead: string[] = [];
  for (const part of batch.parts) {
    const received = clickhouseDateTime(part.receivedAt);
    const fast = part.kind === 'json' && !fieldsNeeded;
    for (let i = 0; i < part.lines.length; i++) {
      const line = part.lines[i]!;
      if (fast) {
        // Without `@timestamp` the record is dated by its receipt; with it first, by its own date.
        const ts = line.includes('"@timestamp"') ? leadingTimestamp(line) : part.receivedAt;
        if (ts !== undefined) {
          events.push(
            eventRowLine(prefix, part.firstIndex + i, streamId, ts === part.receivedAt ? received : clickhouseDateTime(ts), received, routeJson, labelsJson, line, retention),
          );
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
      events.push(eventRowLine(prefix, record.index, streamId, ts, received, routeJson, labelsJson, prepared.payload, retention));
      if (collect) fielded.push({ id: recordId(batchId, record.index), streamId, ts: prepared.ts, fields: prepared.fields });
    }
  }
  return {
    streamId,
    events: events.length > 0 ? `${events.join('\n')}\n` : '',
    eventCount: events.length,
    deadLetters: dead.length > 0 ? `${dead.join('\n')}\n` : '',
    deadLetterCount: dead.length,
    fielded,
  };
}

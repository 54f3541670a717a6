/**
 * decode ▸ parse ▸ preprocess ▸ event rows, for one bus message (DESIGN §1). Pure: given the
 * message and the stream's configuration, it returns the rows to insert; the consumer edge
 * inserts them and acks.
 */
import type { StreamConfigModel } from '../../schemas/stream.schema.js';
import { decodeBatch } from './envelope.js';
import { deadLetterRow, eventRow } from './event-row.js';
import { createParseStep } from './parse.step.js';
import { createPreprocessStep, needsFields } from './preprocess.step.js';

export interface BatchRows {
  streamId: number;
  /** NDJSON of event rows ('' when none). */
  events: string;
  eventCount: number;
  deadLetters: string;
  deadLetterCount: number;
}

/** The stream's configuration by id, or undefined when the stream was deleted meanwhile. */
export type StreamConfigLookup = (streamId: number) => StreamConfigModel | undefined;

export function processBatch(batchId: string, message: string, configOf: StreamConfigLookup): BatchRows {
  const batch = decodeBatch(message);
  // A stream deleted after its records were accepted still gets them stored: they were acknowledged.
  const config = configOf(batch.streamId) ?? {};
  const parse = createParseStep(config, needsFields(config));
  const preprocess = createPreprocessStep(config);
  const labelsJson = JSON.stringify(config.preprocessor?.labels ?? {});
  const events: string[] = [];
  const dead: string[] = [];
  for (const record of batch.records) {
    const parsed = parse(record);
    if (!parsed.ok) {
      dead.push(deadLetterRow(batchId, batch.streamId, record, parsed.reason));
      continue;
    }
    events.push(eventRow(batchId, batch.streamId, record, preprocess(record, parsed.value), labelsJson));
  }
  return {
    streamId: batch.streamId,
    events: events.length > 0 ? events.join('\n') + '\n' : '',
    eventCount: events.length,
    deadLetters: dead.length > 0 ? dead.join('\n') + '\n' : '',
    deadLetterCount: dead.length,
  };
}

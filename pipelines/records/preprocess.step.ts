/**
 * The stream's preprocessor (DESIGN §6) and the event date (spec 4.4): the preprocessor's
 * timestamp field, when configured and present, wins over `@timestamp`; without either the
 * event date is the time of receipt. Then renames, drops, static labels and the route label.
 */
import type { StreamConfigModel } from '../../schemas/stream.schema.js';
import type { IncomingRecord } from './envelope.js';
import type { Parsed } from './parse.step.js';
import { presetReadsJson } from './presets/presets.js';
import { parseTimestamp } from './timestamps.js';

export interface Prepared {
  ts: number;
  /** The record as JSON text (the payload column). */
  payload: string;
  /** The record's fields after renames and drops (undefined when they were not parsed). */
  fields: unknown;
  labels: Record<string, string>;
  route: string;
}

function valueAt(fields: unknown, path: string): unknown {
  let current = fields;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True when the stream's configuration needs a record's fields (not only its date): field rules, or a preset that reads JSON records. */
export const needsFields = (config: StreamConfigModel): boolean => {
  const p = config.preprocessor;
  if (presetReadsJson(config.parser)) return true;
  return !!p && (p.timestampField !== undefined || (p.renames !== undefined && Object.keys(p.renames).length > 0) || (p.drops?.length ?? 0) > 0);
};

export function createPreprocessStep(config: StreamConfigModel): (record: IncomingRecord, parsed: Parsed) => Prepared {
  const pre = config.preprocessor ?? null;
  const labels = pre?.labels ?? {};
  const route = config.routeLabel ?? '';
  const renames = Object.entries(pre?.renames ?? {});
  const drops = pre?.drops ?? [];

  return function preprocess(record, parsed) {
    let ts: number | undefined;
    if (pre?.timestampField) ts = parseTimestamp(valueAt(parsed.fields, pre.timestampField), pre.timestampFormat ?? 'iso8601');
    if (ts === undefined && isObject(parsed.fields)) ts = parseTimestamp(parsed.fields['@timestamp']);
    ts ??= record.receivedAt;

    let fields = parsed.fields;
    let text = parsed.text;
    if (isObject(fields) && (renames.length > 0 || drops.length > 0)) {
      const copy: Record<string, unknown> = { ...fields };
      for (const [from, to] of renames) {
        if (from in copy) {
          copy[to] = copy[from];
          delete copy[from];
        }
      }
      for (const key of drops) delete copy[key];
      fields = copy;
      text = undefined;
    }
    return { ts, payload: text ?? JSON.stringify(fields), fields, labels, route };
  };
}

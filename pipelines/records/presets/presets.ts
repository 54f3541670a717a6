/**
 * Parser presets (issue #37): the formats agents speak, chosen by name in a stream's
 * configuration (`"parser": {"type": "collectd"}`) instead of a pattern. Each is a pure function
 * from one line to the record's fields, with `@timestamp` when the agent dated it (the event
 * date, preprocess.step.ts), or the reason the line is not in its format (a dead letter, as any
 * record the stream cannot parse). docs/parser-presets.md shows each format's records.
 *
 * A stream with a preset and no `framing` of its own reads a text body by lines, and collectd's
 * JSON (an array of value lists) by elements: one record per line, one per value list.
 */
import type { ParserModel, StreamConfigModel } from '../../../schemas/stream.schema.js';
import { isTimeZone } from '../../time/time-zone.js';
import { deadLetter, type Outcome } from '../outcome.js';
import type { Framing, MediaType } from '../validate-body.step.js';
import { collectdValueList, parseCollectdCommand } from './collectd.js';
import { parseGraphiteLine } from './graphite.js';
import { parseInfluxLine } from './influx.js';
import { parseLogfmtLine } from './logfmt.js';
import type { Fields } from './preset-fields.js';
import { parseSyslogLine } from './syslog.js';

/**
 * The longest line a preset reads: each reads in linear time, at most about 100 ns a character,
 * so no line holds the event loop for more than a few tens of milliseconds (DESIGN §11). Agents'
 * lines are far shorter (syslog-ng's largest message is 64 KiB by default); a longer one is a
 * dead letter, as a text longer than its pattern's window is.
 */
export const MAX_PRESET_LINE = 262_144;

export type PresetParser = Exclude<ParserModel, { type: 'xml' } | { type: 'text' }>;
export type PresetName = PresetParser['type'];

export const isPreset = (parser: ParserModel | null | undefined): parser is PresetParser => !!parser && parser.type !== 'xml' && parser.type !== 'text';

export interface Preset {
  /** One line of text (its line break removed) as the record's fields, or why it is not in the format. */
  text(line: string, receivedAt: number): Outcome<Fields>;
  /** A JSON record's value as the record's fields; absent when the preset stores JSON records as they are. */
  json?(value: unknown): Outcome<Fields>;
}

export function createPreset(parser: PresetParser): Preset {
  switch (parser.type) {
    case 'collectd':
      return { text: parseCollectdCommand, json: collectdValueList };
    case 'influx': {
      const precision = parser.precision ?? 'ns';
      return { text: (line) => parseInfluxLine(line, precision) };
    }
    case 'graphite':
      return { text: parseGraphiteLine };
    case 'syslog': {
      const timeZone = parser.timeZone ?? 'UTC';
      // Refused when saved (streams.commands.ts); one stored before, or a zone this runtime lacks, dead-letters.
      if (!isTimeZone(timeZone)) return { text: () => deadLetter(`the stream's timeZone ${JSON.stringify(timeZone)} is not an IANA time zone`) };
      return { text: (line, receivedAt) => parseSyslogLine(line, receivedAt, timeZone) };
    }
    case 'logfmt':
      return { text: parseLogfmtLine };
  }
}

/** Whether the stream's parser reads JSON records' fields (so no JSON record may skip the parse). */
export const presetReadsJson = (parser: ParserModel | null | undefined): boolean => parser?.type === 'collectd';

/**
 * The framing a body is read with: the stream's own; else, with a preset, text by lines and
 * collectd's JSON arrays by elements; else `body` (validate-body.step.ts).
 */
export function streamFraming(config: StreamConfigModel, mediaType: MediaType): Framing {
  if (config.framing) return config.framing;
  if (!isPreset(config.parser)) return 'body';
  if (mediaType === 'text/plain') return 'lines';
  return config.parser.type === 'collectd' ? 'elements' : 'body';
}

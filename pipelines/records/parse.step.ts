/**
 * Turns a record into fields (DESIGN §6). JSON records are their own fields. XML and plain text
 * need the stream's parser (spec 4.4): `xml` gives the document as an object; `text` gives
 * `{message: <text>}`, or with a pattern (RE2, linear time: linear-pattern.ts) the pattern's named
 * groups. A preset (presets/presets.ts: collectd, influx, graphite, syslog, logfmt) reads each
 * text line in its agent's format, and collectd's also reads JSON value lists. A record the
 * stream cannot parse is dead-lettered with the reason.
 */
import { XMLParser } from 'fast-xml-parser';
import type { StreamConfigModel } from '../../schemas/stream.schema.js';
import type { IncomingRecord } from './envelope.js';
import { compileLinearPattern } from './linear-pattern.js';
import { deadLetter, type Outcome, ok } from './outcome.js';
import { createPreset, isPreset, MAX_PRESET_LINE } from './presets/presets.js';

export type Fields = Record<string, unknown>;

/** Parsed fields, or the untouched JSON text when nothing downstream needs the fields. */
export type Parsed = { fields: unknown; text?: string };

export function createParseStep(config: StreamConfigModel, needsFields: boolean): (record: IncomingRecord) => Outcome<Parsed> {
  const parser = config.parser ?? null;
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: true });
  // RE2 in linear time (linear-pattern.ts); a stored pattern RE2 refuses dead-letters the text records.
  const compiled = parser?.type === 'text' && parser.pattern ? compileLinearPattern(parser.pattern) : undefined;
  const pattern = compiled?.ok ? compiled.pattern : undefined;
  const preset = isPreset(parser) ? { name: parser.type, ...createPreset(parser) } : undefined;

  return function parse(record) {
    switch (record.kind) {
      case 'json':
        if (preset?.json) {
          let value: unknown;
          try {
            value = JSON.parse(record.raw);
          } catch (error) {
            return deadLetter(`record is not valid JSON: ${(error as Error).message}`);
          }
          const read = preset.json(value);
          return read.ok ? ok({ fields: read.value }) : deadLetter(`${preset.name} preset: ${read.reason}`);
        }
        // Most streams only need the event date: look for it before paying for a parse.
        if (!needsFields && !record.raw.includes('"@timestamp"')) return ok({ fields: undefined, text: record.raw });
        try {
          return ok({ fields: JSON.parse(record.raw), text: record.raw });
        } catch (error) {
          return deadLetter(`record is not valid JSON: ${(error as Error).message}`);
        }
      case 'xml':
        if (parser?.type !== 'xml') return deadLetter('the stream has no xml parser configured for text/xml records');
        try {
          return ok({ fields: xml.parse(record.raw) as Fields });
        } catch (error) {
          return deadLetter(`xml parser failed: ${(error as Error).message}`);
        }
      case 'text': {
        if (preset) {
          if (record.raw.includes('\n')) {
            const lines = record.raw.split('\n').length;
            return deadLetter(`${preset.name} preset: the text holds ${lines} lines; a preset reads one record per line (framing lines, the default with a preset)`);
          }
          if (record.raw.length > MAX_PRESET_LINE) {
            return deadLetter(`${preset.name} preset: a line of ${record.raw.length} characters is longer than the ${MAX_PRESET_LINE} a preset reads (see Limits)`);
          }
          const read = preset.text(record.raw.endsWith('\r') ? record.raw.slice(0, -1) : record.raw, record.receivedAt);
          return read.ok ? ok({ fields: read.value }) : deadLetter(`${preset.name} preset: ${read.reason}`);
        }
        if (parser?.type !== 'text') return deadLetter('the stream has no text parser configured for text/plain records');
        if (compiled && !compiled.ok) return deadLetter(`the stream's pattern is not accepted: ${compiled.reason}`);
        if (!pattern) return ok({ fields: { message: record.raw } });
        if (record.raw.length > pattern.window) {
          return deadLetter(`text of ${record.raw.length} characters is longer than the ${pattern.window} the stream's pattern is matched on (see Limits)`);
        }
        const groups = pattern.groups(record.raw);
        if (!groups) return deadLetter(`text does not match the stream's pattern ${pattern.source}`);
        return ok({ fields: groups });
      }
    }
  };
}

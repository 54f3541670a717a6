/**
 * The ingress's check of a body against its declared type and its stream's framing (spec 4.4,
 * DESIGN §6). The media type says how to read the body; the framing says where records begin:
 * - `body` (default, as the spec says): a JSON body is one record, an array included; XML and
 *   plain text are one record each;
 * - `elements`: a top-level JSON array is one record per element (collectd's write_http and
 *   many agents post arrays); any other JSON text is one record;
 * - `lines`: plain text is one record per non-empty line (each goes through the stream's
 *   parser; a line that does not parse becomes a dead letter), and a JSON body is read as NDJSON.
 * NDJSON (application/x-ndjson, application/ndjson, application/jsonlines) is always one JSON
 * text per non-empty line, and every line must parse. XML must be well-formed and is one record.
 * A record's `@timestamp`, when present, must be an ISO 8601 date-time of a real day the event
 * table can hold: it sets the event date, so a wrong one would store the event elsewhere. The
 * rule and its message are the ones every receiver gives (timestamps.ts dateTimeFault). Any
 * failure refuses the whole body, naming the line.
 */
import { XMLValidator } from 'fast-xml-parser';
import type { RecordKind } from './envelope.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-depth.js';
import { dateTimeFault } from './timestamps.js';

export const MEDIA_TYPES = ['application/json', 'application/x-ndjson', 'application/ndjson', 'application/jsonlines', 'text/xml', 'text/plain'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const FRAMINGS = ['body', 'elements', 'lines'] as const;
export type Framing = (typeof FRAMINGS)[number];

const NDJSON_TYPES: ReadonlySet<MediaType> = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonlines']);

/** The body is read line by line: NDJSON, or JSON and plain text framed by `lines`. */
export const readsLines = (mediaType: MediaType, framing: Framing): boolean =>
  NDJSON_TYPES.has(mediaType) || (framing === 'lines' && (mediaType === 'application/json' || mediaType === 'text/plain'));

export type BodyCheck = { ok: true; kind: RecordKind; lines: string[] } | { ok: false; reason: string };

/** The record's `@timestamp` checked by the rule every receiver shares (timestamps.ts dateTimeFault). */
function checkTimestamp(value: unknown, where: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const ts = (value as Record<string, unknown>)['@timestamp'];
  if (ts === undefined) return undefined;
  const fault = dateTimeFault(ts);
  return fault === undefined ? undefined : `${where}${fault}`;
}

function parseJson(text: string, where: string): { value: unknown } | { reason: string } {
  if (jsonNestsDeeperThan(text)) return { reason: `${where}nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { reason: `${where}not valid JSON (${(error as Error).message})` };
  }
}

/**
 * Adds the records of one JSON text to `out`: itself (as sent; a whole body with its raw line
 * breaks folded into spaces, which JSON reads as whitespace), or its elements under `elements`.
 */
function addJson(out: string[], text: string, value: unknown, framing: Framing, where: string, wholeBody: boolean): string | undefined {
  if (framing === 'elements' && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = checkTimestamp(value[i], `${where ? `${where}, e` : 'E'}lement ${i + 1}: `);
      if (bad) return bad;
      out.push(JSON.stringify(value[i]) ?? 'null');
    }
    return undefined;
  }
  const bad = checkTimestamp(value, where ? `${where}: ` : '');
  if (bad) return bad;
  out.push(wholeBody && (text.includes('\n') || text.includes('\r')) ? text.replace(/[\r\n]+/g, ' ') : text);
  return undefined;
}

/**
 * Line-framed bodies may come in slices (see the route): `firstLine` is the number of the
 * slice's first line, so a refusal names the line of the whole body.
 */
export function validateBody(mediaType: MediaType, body: string, framing: Framing = 'body', firstLine = 1): BodyCheck {
  if (body.trim() === '') return { ok: false, reason: 'The body is empty' };
  const lines: string[] = [];
  if (readsLines(mediaType, framing)) {
    const json = mediaType !== 'text/plain';
    let lineNo = firstLine - 1;
    for (const rawLine of body.split('\n')) {
      lineNo += 1;
      const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
      if (line.trim() === '') continue;
      if (!json) {
        lines.push(JSON.stringify(line));
        continue;
      }
      const parsed = parseJson(line, `Line ${lineNo} is `);
      if ('reason' in parsed) return { ok: false, reason: parsed.reason };
      const bad = addJson(lines, line, parsed.value, framing, `Line ${lineNo}`, false);
      if (bad) return { ok: false, reason: bad };
    }
    return { ok: true, kind: json ? 'json' : 'text', lines };
  }
  switch (mediaType) {
    case 'text/xml': {
      const valid = XMLValidator.validate(body);
      if (valid !== true) return { ok: false, reason: `The body is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})` };
      return { ok: true, kind: 'xml', lines: [JSON.stringify(body)] };
    }
    case 'text/plain':
      return { ok: true, kind: 'text', lines: [JSON.stringify(body)] };
    default: {
      const parsed = parseJson(body, 'The body is ');
      if ('reason' in parsed) return { ok: false, reason: parsed.reason };
      const bad = addJson(lines, body, parsed.value, framing, '', true);
      if (bad) return { ok: false, reason: bad };
      return { ok: true, kind: 'json', lines };
    }
  }
}

/**
 * A line-read body cut at line ends into slices of about `maxBytes`, each with the number of its
 * first line: the ingress checks a large body slice by slice, letting other requests run in
 * between.
 */
export function lineSlices(body: string, maxBytes: number): Array<{ text: string; firstLine: number }> {
  const slices: Array<{ text: string; firstLine: number }> = [];
  let start = 0;
  let line = 1;
  while (start < body.length) {
    let end = body.length;
    if (body.length - start > maxBytes) {
      const cut = body.indexOf('\n', start + maxBytes);
      end = cut < 0 ? body.length : cut + 1;
    }
    const text = body.slice(start, end);
    slices.push({ text, firstLine: line });
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
    start = end;
  }
  return slices;
}

/**
 * The ingress's check of a body against its declared type (spec 4.4, DESIGN §6): a JSON body is
 * one record (an array included); NDJSON is one record per non-empty line, every line must parse;
 * XML must be well-formed and is one record; plain text is one record. A record's `@timestamp`,
 * when present, must be an ISO 8601 date-time: it sets the event date, so a wrong one would store
 * the event at the wrong time. Any failure refuses the whole body.
 */
import { XMLValidator } from 'fast-xml-parser';
import type { RecordKind } from './envelope.js';
import { isIsoDateTime } from './timestamps.js';

export const MEDIA_TYPES = ['application/json', 'application/x-ndjson', 'text/xml', 'text/plain'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export type BodyCheck = { ok: true; kind: RecordKind; lines: string[] } | { ok: false; reason: string };

function checkTimestamp(value: unknown, where: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const ts = (value as Record<string, unknown>)['@timestamp'];
  if (ts === undefined || isIsoDateTime(ts)) return undefined;
  return `${where}@timestamp is not an ISO 8601 date-time: ${JSON.stringify(ts).slice(0, 80)}`;
}

function parseJson(text: string, where: string): { value: unknown } | { reason: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { reason: `${where}not valid JSON (${(error as Error).message})` };
  }
}

export function validateBody(mediaType: MediaType, body: string): BodyCheck {
  if (body.trim() === '') return { ok: false, reason: 'The body is empty' };
  switch (mediaType) {
    case 'application/json': {
      const parsed = parseJson(body, 'The body is ');
      if ('reason' in parsed) return { ok: false, reason: parsed.reason };
      const bad = checkTimestamp(parsed.value, '');
      if (bad) return { ok: false, reason: bad };
      return { ok: true, kind: 'json', lines: [body.includes('\n') || body.includes('\r') ? body.replace(/[\r\n]+/g, ' ') : body] };
    }
    case 'application/x-ndjson': {
      const lines: string[] = [];
      let lineNo = 0;
      for (const rawLine of body.split('\n')) {
        lineNo += 1;
        const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
        if (line.trim() === '') continue;
        const parsed = parseJson(line, `Line ${lineNo} is `);
        if ('reason' in parsed) return { ok: false, reason: parsed.reason };
        const bad = checkTimestamp(parsed.value, `Line ${lineNo}: `);
        if (bad) return { ok: false, reason: bad };
        lines.push(line);
      }
      return { ok: true, kind: 'json', lines };
    }
    case 'text/xml': {
      const valid = XMLValidator.validate(body);
      if (valid !== true) return { ok: false, reason: `The body is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})` };
      return { ok: true, kind: 'xml', lines: [JSON.stringify(body)] };
    }
    case 'text/plain':
      return { ok: true, kind: 'text', lines: [JSON.stringify(body)] };
  }
}

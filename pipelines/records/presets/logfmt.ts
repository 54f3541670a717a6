/**
 * The `logfmt` preset: `key=value` pairs separated by spaces, one record per line, as Go's
 * log/slog text handler, logrus, go-kit and Heroku write them:
 *
 *   `time=2026-11-21T10:00:00.123Z level=ERROR msg="disk full" host=db-1 retry=3 dry_run`
 *   → `{"@timestamp": "2026-11-21T10:00:00.123Z", time: "…", level: "ERROR", msg: "disk full", host: "db-1", retry: "3", dry_run: true}`
 *
 * A key runs to `=` or a space; a value is a bare word (up to the next space, `=` and `"`
 * included) or a double-quoted string with `\"` `\\` `\n` `\r` `\t` `\uXXXX` escapes (Go's
 * strconv.Quote output, which slog uses). Values stay text, as written (`retry=3` is "3": triggers
 * compare as text anyway); a key without `=` is true; `key=` is "". A later duplicate key wins.
 * The record is dated by the first of `@timestamp`, `time`, `ts`, `timestamp` whose value begins
 * as an ISO 8601 date-time does (`2026-11-21T`): it must then be one, with its offset (the rule
 * and message of every receiver). Other values (epoch numbers) stay fields only, the record
 * dated by its receipt: the stream's `preprocessor.timestampField` reads them. A line with no
 * `key=value` pair at all is not logfmt.
 */
import { deadLetter, type Outcome, ok } from '../outcome.js';
import { type Fields, put } from './preset-fields.js';
import { checked } from './preset-time.js';

const TIME_KEYS = ['@timestamp', 'time', 'ts', 'timestamp'] as const;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}T/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** The quoted string opening at `at`: its text and the index after it, or why it is none. */
function quoted(line: string, at: number): { text: string; next: number } | string {
  let out = '';
  let i = at + 1;
  let from = i;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '"') return { text: out + line.slice(from, i), next: i + 1 };
    if (ch !== '\\') {
      i++;
      continue;
    }
    const e = line[i + 1];
    let replacement = e === undefined ? undefined : ESCAPES[e];
    let width = 2;
    if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(line.slice(i + 2, i + 6))) {
      replacement = String.fromCharCode(parseInt(line.slice(i + 2, i + 6), 16));
      width = 6;
    }
    if (replacement === undefined) return `column ${i + 1}: unknown escape ${JSON.stringify(line.slice(i, i + 2))} in a quoted value`;
    out += line.slice(from, i) + replacement;
    i += width;
    from = i;
  }
  return `column ${at + 1}: the quoted value is not closed`;
}

/** One logfmt line as a record, or why it is not one. */
export function parseLogfmtLine(line: string): Outcome<Fields> {
  const fields: Fields = {};
  let pairs = 0;
  let i = 0;
  while (i < line.length) {
    while (isSpace(line[i])) i++;
    if (i >= line.length) break;
    const start = i;
    while (i < line.length && !isSpace(line[i]) && line[i] !== '=') i++;
    const key = line.slice(start, i);
    if (key === '') return deadLetter(`column ${start + 1}: a value without a key`);
    if (key.includes('"')) return deadLetter(`column ${start + 1}: the key ${JSON.stringify(key.slice(0, 80))} holds a quote`);
    if (line[i] !== '=') {
      put(fields, key, true);
      continue;
    }
    i++;
    pairs++;
    if (line[i] === '"') {
      const value = quoted(line, i);
      if (typeof value === 'string') return deadLetter(value);
      if (value.next < line.length && !isSpace(line[value.next])) return deadLetter(`column ${value.next + 1}: a space must follow the quoted value of ${JSON.stringify(key)}`);
      put(fields, key, value.text);
      i = value.next;
    } else {
      const from = i;
      while (i < line.length && !isSpace(line[i])) i++;
      put(fields, key, line.slice(from, i));
    }
  }
  if (pairs === 0) return deadLetter('no key=value pair: the line is not logfmt');

  const timeKey = TIME_KEYS.find((k) => typeof fields[k] === 'string' && DATE_LIKE.test(fields[k]));
  if (timeKey === undefined) return ok(fields);
  const text = fields[timeKey] as string;
  const ts = checked(text, `${timeKey}=${text.slice(0, 40)}`);
  if (!ts.ok) return ts;
  return ok({ '@timestamp': ts.value, ...fields });
}

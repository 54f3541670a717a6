/**
 * The `influx` preset: InfluxDB line protocol, as Telegraf's http output (data_format "influx")
 * and InfluxDB clients write it, one record per line:
 *
 *   `<measurement>[,<tag>=<value>…] <field>=<value>[,<field>=<value>…] [<timestamp>]`
 *   → `{"@timestamp", name, tags: {…}, fields: {…}}` (the names of Telegraf's JSON format)
 *
 * The grammar and escapes are those of InfluxData's reference decoder (github.com/influxdata/
 * line-protocol, line-protocol.ebnf): in the measurement `\ ` and `\,`; in tag keys, tag values
 * and field keys `\,` `\=` `\ `; in string field values `\"` `\\` and `\n` `\r` `\t`; a backslash
 * before any other character is itself. Field values: floats (`1`, `-1.5`, `1e3`), integers
 * (`1i`, signed 64-bit), unsigned integers (`1u`), strings (`"…"`), booleans (`t` `T` `true`
 * `True` `TRUE`, `f` … `FALSE`); numbers become JSON numbers (beyond 2^53 they lose their last
 * digits). The timestamp is an integer in the stream's `precision` (ns by default, as Telegraf
 * sends it), kept to the nanosecond in `@timestamp`; without one the record is dated by its
 * receipt, as InfluxDB dates it by the server's clock. A tag key given twice is refused (as the
 * reference decoder does); a later duplicate field wins. A `#` comment line is not a point: it is
 * dead-lettered as such.
 */
import { deadLetter, type Outcome, ok } from '../outcome.js';
import { type Fields, put } from './preset-fields.js';
import { timestampOfNs } from './preset-time.js';

export type InfluxPrecision = 'ns' | 'us' | 'ms' | 's';

const NS_PER: Record<InfluxPrecision, bigint> = { ns: 1n, us: 1_000n, ms: 1_000_000n, s: 1_000_000_000n };

const nonPrintable = (c: number): boolean => c < 32 || c === 127;

class Scan {
  i = 0;
  constructor(readonly line: string) {}
  ch(): string | undefined {
    return this.line[this.i];
  }
  fail(what: string): Outcome<never> {
    return deadLetter(`column ${this.i + 1}: ${what}`);
  }
  /**
   * Text up to a character of `stops` or a non-printable one, a backslash before one of
   * `escapes` standing for it.
   */
  take(stops: string, escapes: string): string {
    const { line } = this;
    let out = '';
    let from = this.i;
    while (this.i < line.length) {
      const ch = line[this.i]!;
      if (ch === '\\' && this.i + 1 < line.length && escapes.includes(line[this.i + 1]!)) {
        out += line.slice(from, this.i) + line[this.i + 1];
        this.i += 2;
        from = this.i;
        continue;
      }
      if (stops.includes(ch) || nonPrintable(line.charCodeAt(this.i))) break;
      this.i++;
    }
    return out + line.slice(from, this.i);
  }
  spaces(): number {
    const start = this.i;
    while (this.line[this.i] === ' ') this.i++;
    return this.i - start;
  }
}

const BOOLEANS: Record<string, boolean> = { t: true, T: true, true: true, True: true, TRUE: true, f: false, F: false, false: false, False: false, FALSE: false };
const FLOAT = /^-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)$/;
const INT_MIN = -(2n ** 63n);
const INT_MAX = 2n ** 63n - 1n;
const UINT_MAX = 2n ** 64n - 1n;
const STRING_ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', n: '\n', r: '\r', t: '\t' };

function stringValue(s: Scan): string | undefined {
  const { line } = s;
  s.i++; // the opening quote
  let out = '';
  let from = s.i;
  while (s.i < line.length) {
    const ch = line[s.i]!;
    if (ch === '"') {
      out += line.slice(from, s.i);
      s.i++;
      return out;
    }
    const escaped = ch === '\\' ? STRING_ESCAPES[line[s.i + 1] ?? ''] : undefined;
    if (escaped !== undefined) {
      out += line.slice(from, s.i) + escaped;
      s.i += 2;
      from = s.i;
    } else s.i++;
  }
  return undefined;
}

/** A field value at the scan position, or why it is none. */
function fieldValue(s: Scan, key: string): Outcome<unknown> {
  const first = s.ch();
  if (first === '"') {
    const text = stringValue(s);
    return text === undefined ? s.fail(`the string value of field ${JSON.stringify(key)} is not closed`) : ok(text);
  }
  const start = s.i;
  const raw = s.take(', ', '');
  if (raw === '') return s.fail(`field ${JSON.stringify(key)} has no value`);
  if (first === 't' || first === 'T' || first === 'f' || first === 'F') {
    const b = BOOLEANS[raw];
    return b === undefined ? deadLetter(`column ${start + 1}: ${JSON.stringify(raw)} is not a boolean (field ${JSON.stringify(key)})`) : ok(b);
  }
  const suffix = raw[raw.length - 1];
  if (suffix === 'i' || suffix === 'u') {
    const digits = raw.slice(0, -1);
    // 64-bit integers have at most 20 digits (leading zeros aside): a longer text is refused before BigInt reads it.
    const valid = digits.replace(/^(-?)0+(?=\d)/, '$1').length <= 21 && (suffix === 'i' ? /^-?\d+$/.test(digits) : /^\d+$/.test(digits));
    const n = valid ? BigInt(digits) : undefined;
    if (n === undefined || (suffix === 'i' ? n < INT_MIN || n > INT_MAX : n > UINT_MAX)) {
      return deadLetter(`column ${start + 1}: ${JSON.stringify(raw)} is not ${suffix === 'i' ? 'a signed' : 'an unsigned'} 64-bit integer (field ${JSON.stringify(key)})`);
    }
    return ok(Number(digits));
  }
  const n = FLOAT.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n)) return deadLetter(`column ${start + 1}: ${JSON.stringify(raw.slice(0, 40))} is not a float, integer, string or boolean (field ${JSON.stringify(key)})`);
  return ok(n);
}

/** One line of line protocol as a record, or why it is not one. */
export function parseInfluxLine(line: string, precision: InfluxPrecision = 'ns'): Outcome<Fields> {
  const s = new Scan(line);
  s.spaces();
  if (s.ch() === '#') return deadLetter('a comment line (#), not a point');
  if (s.i >= line.length) return deadLetter('the line is empty');
  const name = s.take(', ', ' ,');
  if (name === '') return s.fail('the line does not begin with a measurement');

  const tags: Fields = {};
  while (s.ch() === ',') {
    s.i++;
    const key = s.take(',= ', ',= ');
    if (key === '') return s.fail('a tag key is empty');
    if (s.ch() !== '=') return s.fail(`"=" must follow the tag key ${JSON.stringify(key)}`);
    s.i++;
    const value = s.take(',= ', ',= ');
    if (value === '') return s.fail(`the tag ${JSON.stringify(key)} has no value`);
    if (Object.hasOwn(tags, key)) return s.fail(`the tag key ${JSON.stringify(key)} is given twice`);
    put(tags, key, value);
  }
  if (s.ch() !== ' ') return s.fail(s.i >= line.length ? 'the line has no fields' : `unexpected ${JSON.stringify(s.ch())} after the measurement and tags`);
  s.spaces();

  const fields: Fields = {};
  for (;;) {
    const key = s.take(',= ', ',= ');
    if (key === '') return s.fail('a field key is missing');
    if (s.ch() !== '=') return s.fail(`"=" must follow the field key ${JSON.stringify(key)}`);
    s.i++;
    const value = fieldValue(s, key);
    if (!value.ok) return value;
    put(fields, key, value.value);
    if (s.ch() === ',') {
      s.i++;
      continue;
    }
    if (s.i < line.length && s.ch() !== ' ') return s.fail(`unexpected ${JSON.stringify(s.ch())} after field ${JSON.stringify(key)}`);
    break;
  }

  s.spaces();
  const record: Fields = {};
  if (s.i < line.length) {
    const start = s.i;
    while (s.i < line.length && s.ch() !== ' ') s.i++;
    const text = line.slice(start, s.i);
    s.spaces();
    if (!/^-?\d+$/.test(text) || s.i < line.length) return deadLetter(`column ${start + 1}: the timestamp ${JSON.stringify(line.slice(start, start + 40))} is not an integer`);
    const ns = text.replace(/^(-?)0+(?=\d)/, '$1').length <= 21 ? BigInt(text) * NS_PER[precision] : undefined;
    // As InfluxDB: nanoseconds since the epoch in a signed 64-bit integer (1677 to 2262).
    if (ns === undefined || ns < INT_MIN || ns > INT_MAX) return deadLetter(`column ${start + 1}: the timestamp ${text.slice(0, 40)} (${precision}) is out of range`);
    const ts = timestampOfNs(ns, `the timestamp ${text} (${precision})`);
    if (!ts.ok) return ts;
    record['@timestamp'] = ts.value;
  }
  record['name'] = name;
  record['tags'] = tags;
  record['fields'] = fields;
  return ok(record);
}

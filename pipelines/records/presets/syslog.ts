/**
 * The `syslog` preset: one syslog message per line, RFC 5424 or RFC 3164 (told apart by the
 * version after the PRI), as syslog-ng, rsyslog and loggen write them:
 *
 *   RFC 5424 `<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3"] BOMAn application event`
 *   RFC 3164 `<34>Oct 11 22:14:15 mymachine su[230]: 'su root' failed for lonvick on /dev/pts/8`
 *   → `{"@timestamp", facility, facility_code, severity, severity_code, [version,] host, app, procid, msgid, structured_data, message}`
 *
 * - PRI is facility × 8 + severity (0–191), named as syslog-ng and Linux name them (`daemon`,
 *   `local0`; `err`, `warning`); a line without PRI (read from a file) has neither.
 * - RFC 5424: the header fields one space apart, `-` for none (the field is then left out); the
 *   timestamp is RFC 3339 with its offset, taken as it is; structured data as
 *   `{<SD-ID>: {<name>: <value>}}`, a name given twice (RFC 5424 §7.2.2's `ip`) as an array of
 *   its values, `\"` `\\` `\]` unescaped; the message without its UTF-8 BOM.
 * - RFC 3164: `Mmm dd hh:mm:ss` (the year is the one that puts the date nearest the record's
 *   receipt, so a December message received in January is of the year before) or an ISO 8601
 *   date-time (syslog-ng's and loggen's), then the host and the tag `app[procid]:` (a tag right
 *   after the date means no host). A date without an offset is wall time in the stream's
 *   `timeZone` (default UTC). A line without a date is all message (RFC 3164 §4.3.3).
 * A date that cannot be (`Feb 30`, an offset out of range) dead-letters the line with the rule and
 * message of every receiver (timestamps.ts dateTimeFault).
 */
import { zoneClock } from '../../maintenance/zone-clock.js';
import { deadLetter, type Outcome, ok } from '../outcome.js';
import { type Fields, put } from './preset-fields.js';
import { checked } from './preset-time.js';

const FACILITIES = ['kern', 'user', 'mail', 'daemon', 'auth', 'syslog', 'lpr', 'news', 'uucp', 'cron', 'authpriv', 'ftp', 'ntp', 'security', 'console', 'solaris-cron'];
const SEVERITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const facilityName = (code: number): string => FACILITIES[code] ?? `local${code - 16}`;

/**
 * The instant of a wall time in `timeZone`, from its fields (already checked to exist): by the
 * zone's table of offsets for the year (zone-clock.ts, a memo), not by Intl calls per line.
 */
function wallInstant(year: number, month: number, day: number, hms: [number, number, number], ms: number, timeZone: string): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hms[0], hms[1], hms[2], ms);
  return timeZone === 'UTC' ? d.getTime() : zoneClock(timeZone, year).toUtc(d.getTime());
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `@timestamp` of a wall time without offset: checked as a date (in UTC), then placed in `timeZone`. */
function wallTimestamp(year: number, month: number, day: number, hms: [number, number, number], ms: number, timeZone: string, what: string): Outcome<string> {
  const asUtc = checked(`${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hms[0])}:${pad(hms[1])}:${pad(hms[2])}.${pad(ms, 3)}Z`, what);
  if (!asUtc.ok || timeZone === 'UTC') return asUtc;
  const instant = wallInstant(year, month, day, hms, ms, timeZone);
  return checked(new Date(instant).toISOString(), what);
}

const BSD_DATE = /^([A-Z][a-z]{2}) ([ \d]?\d) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))? /;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})? /;
const TAG = /^([^\s[\]:]+)(?:\[([^\]\s]*)\])?:$/;

/** The date of an RFC 3164 line: its @timestamp (undefined when the line has none) and the text after it. */
function bsdDate(rest: string, receivedAt: number, timeZone: string): Outcome<{ ts?: string; after: string }> {
  const bsd = BSD_DATE.exec(rest);
  if (bsd) {
    const month = MONTHS.indexOf(bsd[1]!) + 1;
    if (month > 0) {
      const day = Number(bsd[2]!.trim());
      const hms: [number, number, number] = [Number(bsd[3]), Number(bsd[4]), Number(bsd[5])];
      const ms = Math.floor(Number(`0.${bsd[6] ?? '0'}`) * 1000);
      const what = `the date ${JSON.stringify(bsd[0].trim())}`;
      // The receipt's year in UTC: its year in the zone is at most one off, and the three candidates cover it.
      const year = new Date(receivedAt).getUTCFullYear();
      let best: Outcome<string> | undefined;
      let distance = Infinity;
      for (const y of [year - 1, year, year + 1]) {
        const ts = wallTimestamp(y, month, day, hms, ms, timeZone, what);
        if (!ts.ok) {
          best ??= ts;
          continue;
        }
        const d = Math.abs(Date.parse(ts.value) - receivedAt);
        if (d < distance) [best, distance] = [ts, d];
      }
      if (!best!.ok) return best as Outcome<never>;
      return ok({ ts: best!.value, after: rest.slice(bsd[0].length) });
    }
  }
  const iso = ISO_DATE.exec(rest);
  if (iso) {
    const text = iso[0].trimEnd();
    const what = `the date ${JSON.stringify(text)}`;
    const ts = iso[8]
      ? checked(text, what)
      : wallTimestamp(
          Number(iso[1]),
          Number(iso[2]),
          Number(iso[3]),
          [Number(iso[4]), Number(iso[5]), Number(iso[6])],
          Math.floor(Number(`0.${iso[7] ?? '0'}`) * 1000),
          timeZone,
          what,
        );
    return ts.ok ? ok({ ts: ts.value, after: rest.slice(iso[0].length) }) : ts;
  }
  return ok({ after: rest });
}

function parse3164(record: Fields, rest: string, receivedAt: number, timeZone: string): Outcome<Fields> {
  const date = bsdDate(rest, receivedAt, timeZone);
  if (!date.ok) return date;
  if (date.value.ts === undefined) {
    record['message'] = rest;
    return ok(record);
  }
  record['@timestamp'] = date.value.ts;
  let text = date.value.after.replace(/^ +/, '');
  const first = /^\S+/.exec(text)?.[0] ?? '';
  if (first !== '' && !TAG.test(first)) {
    record['host'] = first;
    text = text.slice(first.length).replace(/^ /, '');
  }
  const tag = TAG.exec(/^\S+/.exec(text)?.[0] ?? '');
  if (tag) {
    record['app'] = tag[1];
    if (tag[2] !== undefined && tag[2] !== '') record['procid'] = tag[2];
    text = text.slice(tag[0].length).replace(/^ /, '');
  }
  record['message'] = text;
  return ok(record);
}

/** RFC 5424 structured data at the start of `text`: the elements and the text after them, or why it is malformed. */
function structuredData(text: string): Outcome<{ sd: Fields; after: string }> {
  const sd: Fields = {};
  let i = 0;
  while (text[i] === '[') {
    let end = i + 1;
    while (end < text.length && text[end] !== ' ' && text[end] !== ']') end++;
    if (end === i + 1 || end >= text.length) return deadLetter(`structured data at column ${i + 1}: an element needs an SD-ID and its closing ]`);
    const id = text.slice(i + 1, end);
    i = end;
    const params: Fields = Object.hasOwn(sd, id) ? (sd[id] as Fields) : {};
    while (text[i] === ' ') {
      const eq = text.indexOf('="', i + 1);
      const name = eq < 0 ? '' : text.slice(i + 1, eq);
      if (name === '' || /[ \]"]/.test(name)) return deadLetter(`structured data of ${id}: a parameter is not name="value"`);
      let value = '';
      let j = eq + 2;
      let from = j;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\' || text[j + 1] === ']')) {
          value += text.slice(from, j);
          from = ++j;
        }
      }
      if (j >= text.length) return deadLetter(`structured data of ${id}: the value of ${name} is not closed`);
      value += text.slice(from, j);
      const had = Object.hasOwn(params, name) ? params[name] : undefined;
      if (Array.isArray(had)) had.push(value);
      else put(params, name, had === undefined ? value : [had, value]);
      i = j + 1;
    }
    if (text[i] !== ']') return deadLetter(`structured data of ${id}: ] expected at column ${i + 1}`);
    i++;
    put(sd, id, params);
  }
  return ok({ sd, after: text.slice(i) });
}

const HEADER_NAMES = ['host', 'app', 'procid', 'msgid'] as const;

function parse5424(record: Fields, version: string, rest: string): Outcome<Fields> {
  record['version'] = Number(version);
  const parts = rest.split(' ', 5);
  if (parts.length < 5) return deadLetter('an RFC 5424 header has a timestamp, host, app, procid and msgid, each - when none');
  const [timestamp, ...header] = parts as [string, string, string, string, string];
  if (timestamp !== '-') {
    const ts = checked(timestamp, `the timestamp ${JSON.stringify(timestamp.slice(0, 40))}`);
    if (!ts.ok) return ts;
    record['@timestamp'] = ts.value;
  }
  header.forEach((value, i) => {
    if (value !== '-') record[HEADER_NAMES[i]!] = value;
  });
  if (header.some((v) => v === '')) return deadLetter('an RFC 5424 header field is empty (two spaces in a row)');
  let text = rest.slice(parts.reduce((n, p) => n + p.length + 1, 0));
  if (text.startsWith('-')) text = text.slice(1);
  else if (text.startsWith('[')) {
    const sd = structuredData(text);
    if (!sd.ok) return sd;
    record['structured_data'] = sd.value.sd;
    text = sd.value.after;
  } else if (text !== '') return deadLetter('structured data is - or [SD-ID name="value" …]');
  if (text !== '' && text[0] !== ' ') return deadLetter('a space must follow the structured data');
  if (text !== '') record['message'] = text.slice(1).replace(/^\uFEFF/, '');
  return ok(record);
}

/** One syslog line as a record, or why it is not one; `receivedAt` places a date without a year. */
export function parseSyslogLine(line: string, receivedAt: number, timeZone = 'UTC'): Outcome<Fields> {
  const record: Fields = {};
  let rest = line;
  if (line.startsWith('<')) {
    const pri = /^<(\d{1,3})>/.exec(line);
    const code = pri ? Number(pri[1]) : NaN;
    if (!(code <= 191)) return deadLetter(`the PRI ${JSON.stringify(line.slice(0, 6))} is not <0> to <191>`);
    Object.assign(record, { facility: facilityName(code >> 3), facility_code: code >> 3, severity: SEVERITIES[code & 7], severity_code: code & 7 });
    rest = line.slice(pri![0].length);
    const version = /^([1-9]\d{0,2}) /.exec(rest);
    if (version) return timestampFirst(parse5424(record, version[1]!, rest.slice(version[0].length)));
  }
  return timestampFirst(parse3164(record, rest, receivedAt, timeZone));
}

/** The record with `@timestamp` as its first key, as the other presets write it. */
function timestampFirst(parsed: Outcome<Fields>): Outcome<Fields> {
  if (!parsed.ok || parsed.value['@timestamp'] === undefined) return parsed;
  const { '@timestamp': ts, ...others } = parsed.value;
  return ok({ '@timestamp': ts, ...others });
}

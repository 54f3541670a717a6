/** Event dates: parsing what records carry, and the form ClickHouse's DateTime64(3) reads. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * The years an event date may fall in: ClickHouse's DateTime64 holds 1900-01-01 to 2299-12-31,
 * and a date outside would be stored clamped, that is at another date.
 */
export const STORABLE_YEARS = { first: 1900, last: 2299 } as const;
const FIRST_MS = Date.UTC(STORABLE_YEARS.first, 0, 1);
const END_MS = Date.UTC(STORABLE_YEARS.last + 1, 0, 1);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
/** Arithmetic, not a Date: this runs for every record that carries a date. */
const daysIn = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!);

/** What is wrong with a date-time, if anything (see dateTimeFault). */
type Fault = 'ok' | 'malformed' | 'no-such-day' | 'no-such-time' | 'out-of-range';

/** The number written by `count` digits of `text` from `at`, or -1 where one is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The instant of a date-time in the form most records carry, `YYYY-MM-DDThh:mm:ss[.f…]Z`, of a
 * real day and time in the storable years, by arithmetic: the same instant Date.parse gives
 * (fractions cut to the millisecond), at a fraction of the cost of the pattern and the parse.
 * Undefined for anything else, which instantOf reads the long way.
 */
function commonUtcInstant(text: string): number | undefined {
  const length = text.length;
  if (length < 20 || text.charCodeAt(length - 1) !== 90 /* Z */) return undefined;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  let ms = 0;
  if (length > 20) {
    // `.` and 1 to 9 digits: the first three are the milliseconds.
    if (text.charCodeAt(19) !== 46 || length > 30) return undefined;
    const fraction = digitsAt(text, 20, length - 21);
    if (fraction < 0 || length === 21) return undefined;
    ms = length - 21 >= 3 ? digitsAt(text, 20, 3) : fraction * (length - 21 === 1 ? 100 : 10);
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hours = digitsAt(text, 11, 2);
  const minutes = digitsAt(text, 14, 2);
  const seconds = digitsAt(text, 17, 2);
  if (year < STORABLE_YEARS.first || year > STORABLE_YEARS.last || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) return undefined;
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, ms);
}

/** The instant a date-time stands for, or what is wrong with it: one pass, one Date.parse. */
function instantOf(value: unknown): number | Exclude<Fault, 'ok'> {
  if (typeof value !== 'string') return 'malformed';
  const common = commonUtcInstant(value);
  if (common !== undefined) return common;
  const m = ISO.exec(value);
  if (!m) return 'malformed';
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return 'no-such-day';
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) return 'no-such-time';
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return 'no-such-time';
  const ms = Date.parse(value);
  return ms >= FIRST_MS && ms < END_MS ? ms : 'out-of-range';
}

function faultOf(value: unknown): Fault {
  const instant = instantOf(value);
  return typeof instant === 'number' ? 'ok' : instant;
}

/**
 * An ISO 8601 date-time with a zone, of a day that exists (JavaScript's Date.parse rolls
 * 2026-02-30 over to March 2nd) and an instant the event table can hold.
 */
export function isIsoDateTime(value: unknown): value is string {
  return faultOf(value) === 'ok';
}

/** An example of the form every receiver takes, quoted in its refusals. */
export const DATE_TIME_EXAMPLE = '2026-11-21T10:00:00Z';

/**
 * The one rule for a record's date (`@timestamp`, or an alert's `startsAt` / `endsAt`), with
 * the one message every receiver gives: undefined when `value` is a date-time isIsoDateTime
 * takes, otherwise what is wrong with it, the field named first and the value (JSON, cut at 80
 * characters) last:
 * - missing (an alert without `endsAt`);
 * - not an ISO 8601 date-time with a zone (a number, `21.11.2026 10:00`, no offset);
 * - a day that does not exist (`2026-02-30`), or a time of day or offset out of range (`T24:00`);
 * - an instant outside the years 1900 to 2299 (UTC) the event table holds (`2400-01-01T00:00:00Z`).
 */
export function dateTimeFault(value: unknown, field = '@timestamp'): string | undefined {
  if (value === undefined) return `${field} is missing`;
  const fault = faultOf(value);
  if (fault === 'ok') return undefined;
  const shown = (JSON.stringify(value) ?? String(value)).slice(0, 80);
  switch (fault) {
    case 'malformed':
      return `${field} is not an ISO 8601 date-time with a time zone (e.g. ${DATE_TIME_EXAMPLE}): ${shown}`;
    case 'no-such-day':
      return `${field} names a day that does not exist: ${shown}`;
    case 'no-such-time':
      return `${field} has an hour, minute, second or zone offset out of range: ${shown}`;
    case 'out-of-range':
      return `${field} is outside the years ${STORABLE_YEARS.first} to ${STORABLE_YEARS.last} (UTC) that event dates can take: ${shown}`;
  }
}

export type TimestampFormat = 'iso8601' | 'epoch-ms' | 'epoch-s';

/** Milliseconds since the epoch, or undefined when `value` is not a date in `format`. */
export function parseTimestamp(value: unknown, format: TimestampFormat = 'iso8601'): number | undefined {
  if (format === 'iso8601') {
    const instant = instantOf(value);
    return typeof instant === 'number' ? instant : undefined;
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  const ms = format === 'epoch-s' ? n * 1000 : n;
  return ms >= 0 && ms < END_MS ? Math.round(ms) : undefined;
}

const DAY_MS = 86_400_000;
let lastMs = Number.NaN;
let lastText = '';
let dayStart = Number.NaN;
let dayText = '';
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `YYYY-MM-DD hh:mm:ss.mmm` in UTC. Runs for every record stored (its date and its receipt) and
 * every trigger hit: the day's text is made once per day, the time of day by arithmetic.
 */
export function clickhouseDateTime(instant: number): string {
  // The records of a request, and of requests in the same millisecond, share their receipt date.
  if (instant === lastMs) return lastText;
  // Whole milliseconds, as Date would take them.
  const ms = Math.floor(instant);
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  if (day !== dayStart) {
    dayStart = day;
    dayText = new Date(day).toISOString().slice(0, 11).replace('T', ' ');
  }
  let rest = ms - day;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  lastMs = instant;
  lastText = `${dayText}${two(hours)}:${two(minutes)}:${two(seconds)}.${three(rest - seconds * 1000)}`;
  return lastText;
}

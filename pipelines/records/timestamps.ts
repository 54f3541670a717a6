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

/**
 * An ISO 8601 date-time with a zone, of a day that exists (JavaScript's Date.parse rolls
 * 2026-02-30 over to March 2nd) and an instant the event table can hold.
 */
export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = ISO.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  const ms = Date.parse(value);
  return ms >= FIRST_MS && ms < END_MS;
}

export type TimestampFormat = 'iso8601' | 'epoch-ms' | 'epoch-s';

/** Milliseconds since the epoch, or undefined when `value` is not a date in `format`. */
export function parseTimestamp(value: unknown, format: TimestampFormat = 'iso8601'): number | undefined {
  if (format === 'iso8601') return isIsoDateTime(value) ? Date.parse(value) : undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  const ms = format === 'epoch-s' ? n * 1000 : n;
  return ms >= 0 && ms < END_MS ? Math.round(ms) : undefined;
}

let lastMs = Number.NaN;
let lastText = '';

/** `YYYY-MM-DD hh:mm:ss.mmm` in UTC. */
export function clickhouseDateTime(ms: number): string {
  // The records of a request, and of requests in the same millisecond, share their receipt date.
  if (ms === lastMs) return lastText;
  const iso = new Date(ms).toISOString();
  lastMs = ms;
  lastText = `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
  return lastText;
}

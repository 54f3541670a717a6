/** Event dates: parsing what records carry, and the form ClickHouse's DateTime64(3) reads. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export function isIsoDateTime(value: unknown): value is string {
  return typeof value === 'string' && ISO.test(value) && !Number.isNaN(Date.parse(value));
}

export type TimestampFormat = 'iso8601' | 'epoch-ms' | 'epoch-s';

/** Milliseconds since the epoch, or undefined when `value` is not a date in `format`. */
export function parseTimestamp(value: unknown, format: TimestampFormat = 'iso8601'): number | undefined {
  if (format === 'iso8601') return isIsoDateTime(value) ? Date.parse(value) : undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  const ms = format === 'epoch-s' ? n * 1000 : n;
  return ms >= 0 && ms < 253402300800000 ? Math.round(ms) : undefined;
}

let lastMs = Number.NaN;
let lastText = '';

/** `YYYY-MM-DD hh:mm:ss.mmm` in UTC. */
export function clickhouseDateTime(ms: number): string {
  // The records of a request, and of requests in the same millisecond, share their receipt date.
  if (ms === lastMs) return lastText;
  const iso = new Date(ms).toISOString();
  lastMs = ms;
  lastText = iso.slice(0, 10) + ' ' + iso.slice(11, 23);
  return lastText;
}

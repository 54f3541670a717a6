/**
 * Local wall time in an IANA zone ↔ UTC, with nothing but `Intl.DateTimeFormat`: the clock the
 * SLA (pipelines/sla/: periods, working calendars) and maintenance (pipelines/maintenance/:
 * recurrences, iCalendar feeds) both read.
 *
 * One wall time ▸ one instant (localToUtc, used for period bounds) resolves the wall times a DST
 * change makes odd as Temporal's `disambiguation: 'compatible'` (and JavaScript's own `Date` for
 * the host zone) do:
 * - a wall time that does not exist (spring forward, e.g. 02:30 on the last Sunday of March in
 *   Europe/Berlin) is moved forward by the length of the gap: 02:30 → 03:30 CEST (01:30Z);
 * - a wall time that exists twice (fall back, e.g. 02:30 on the last Sunday of October) is its
 *   earlier occurrence: 02:30 CEST (00:30Z), not 02:30 CET (01:30Z).
 * Zones are assumed to change their offset at most once within any two days.
 * Working hours are sets of wall times, not single instants: pipelines/sla/calendar.ts maps them through
 * offsetSpans, so a skipped hour is not worked and a repeated one is worked twice.
 */

export const DAY_MS = 86_400_000;

/** A local calendar date and wall time; `month` 1..12. Out-of-range fields roll over (month 13 = January next year). */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
}

// A cache of formatters per zone (creating one costs far more than using it); no state beyond that.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is an IANA zone name this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The local wall time as if it were UTC: milliseconds from 1970-01-01T00:00 on the local clock (fields roll over). */
export function wallClockMs(local: LocalDateTime): number {
  const d = new Date(0);
  d.setUTCFullYear(local.year, local.month - 1, local.day);
  d.setUTCHours(local.hour ?? 0, local.minute ?? 0, local.second ?? 0, local.millisecond ?? 0);
  return d.getTime();
}

/** The reverse of wallClockMs. */
export function fromWallClockMs(wall: number): Required<LocalDateTime> {
  const d = new Date(wall);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

/** The local wall time of an instant in `timeZone`, as wallClockMs. */
export function toWallClockMs(utcMs: number, timeZone: string): number {
  const ms = ((utcMs % 1000) + 1000) % 1000;
  const fields: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(utcMs - ms)) fields[part.type] = part.value;
  const yearOfEra = Number(fields.year);
  return wallClockMs({
    year: fields.era === 'BC' || fields.era === 'B' ? 1 - yearOfEra : yearOfEra,
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour),
    minute: Number(fields.minute),
    second: Number(fields.second),
    millisecond: ms,
  });
}

/** The zone's offset (local − UTC, milliseconds) at an instant: 3 600 000 for CET. */
export const zoneOffsetMs = (utcMs: number, timeZone: string): number => toWallClockMs(utcMs, timeZone) - utcMs;

/** The local date and wall time of an instant. */
export const utcToLocal = (utcMs: number, timeZone: string): Required<LocalDateTime> => fromWallClockMs(toWallClockMs(utcMs, timeZone));

/** The instant of a local wall time (see the file comment for missing and repeated wall times). */
export function localToUtc(local: LocalDateTime, timeZone: string): number {
  return wallToUtc(wallClockMs(local), timeZone);
}

/** localToUtc for a wall time given as wallClockMs. */
export function wallToUtc(wall: number, timeZone: string): number {
  const before = zoneOffsetMs(wall - DAY_MS, timeZone);
  const after = zoneOffsetMs(wall + DAY_MS, timeZone);
  if (before === after) return wall - before;
  const early = wall - Math.max(before, after);
  const late = wall - Math.min(before, after);
  const earlyOk = zoneOffsetMs(early, timeZone) === Math.max(before, after);
  const lateOk = zoneOffsetMs(late, timeZone) === Math.min(before, after);
  if (earlyOk) return early; // the only or the earlier of two occurrences
  if (lateOk) return late;
  // In the gap: keep the offset from before the change, which lands as far past the change as the wall time is.
  return wall - before;
}

/**
 * wallToUtc's rule with the zone's offsets taken from `offsetAt` (e.g. a table of offsetSpans)
 * instead of Intl: for callers that resolve many wall times in one zone and year.
 */
export function wallToUtcBy(wall: number, offsetAt: (utcMs: number) => number): number {
  const before = offsetAt(wall - DAY_MS);
  const after = offsetAt(wall + DAY_MS);
  if (before === after) return wall - before;
  const early = wall - Math.max(before, after);
  const late = wall - Math.min(before, after);
  if (offsetAt(early) === Math.max(before, after)) return early;
  if (offsetAt(late) === Math.min(before, after)) return late;
  return wall - before;
}

/** A stretch of time over which the zone keeps one offset. */
export interface OffsetSpan {
  start: number;
  end: number;
  /** local − UTC, milliseconds. */
  offsetMs: number;
}

/** Zones are assumed to change their offset at most once in this long (true of every IANA zone). */
const SAMPLE_MS = 6 * 3_600_000;

/**
 * [from, to) cut where the zone's offset changes, each part with its offset. The offset is
 * sampled every six hours and each change is then found to the millisecond by bisection, so a
 * month costs about 120 formatter calls.
 */
export function offsetSpans(timeZone: string, from: number, to: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  if (to <= from) return spans;
  let start = from;
  let offset = zoneOffsetMs(from, timeZone);
  for (let probe = from; probe < to;) {
    const next = Math.min(probe + SAMPLE_MS, to);
    const nextOffset = zoneOffsetMs(next === to ? to - 1 : next, timeZone);
    if (nextOffset !== offset) {
      // The offset changes in (probe, next]: find the first instant with the new one.
      let lo = probe;
      let hi = next === to ? to - 1 : next;
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (zoneOffsetMs(mid, timeZone) === offset) lo = mid;
        else hi = mid;
      }
      spans.push({ start, end: hi, offsetMs: offset });
      start = hi;
      offset = zoneOffsetMs(hi, timeZone);
    }
    probe = next;
  }
  spans.push({ start, end: to, offsetMs: offset });
  return spans;
}

/** ISO weekday of a local date given as wallClockMs: 1 = Monday .. 7 = Sunday. */
export const isoWeekday = (wall: number): number => ((new Date(wall).getUTCDay() + 6) % 7) + 1;

/** `YYYY-MM-DD` of a local date given as wallClockMs. */
export const isoDate = (wall: number): string => new Date(wall).toISOString().slice(0, 10);

/** Start (local midnight, as wallClockMs) of the local day holding a wallClockMs. */
export const startOfWallDay = (wall: number): number => wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);

/** Minutes of a local `HH:mm` from midnight, `24:00` = 1440; null when malformed. */
export function parseClock(text: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(text);
  if (m === null) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes !== 0)) return null;
  return hours * 60 + minutes;
}

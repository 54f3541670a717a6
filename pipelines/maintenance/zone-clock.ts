/**
 * A zone's offsets over a stretch of time as a table, so that resolving the hundreds of wall
 * times of a year of occurrences costs table look-ups, not an Intl call each (an Intl call is
 * several microseconds; a daily rule resolves 730 wall times a year, each needing 2 to 4 offsets).
 *
 * The offset is sampled once a day and each change is then placed to the millisecond by
 * time-zone.ts's offsetSpans over that day alone: time-zone.ts assumes a zone changes its offset
 * at most once in two days, so a daily sample sees every change.
 */
import { DAY_MS, offsetSpans, wallToUtcBy, zoneOffsetMs, type OffsetSpan } from '../time/time-zone.js';

/** The zone's offset spans covering [from, to), like offsetSpans, in about (to − from) / 1 day Intl calls. */
export function zoneSpans(timeZone: string, from: number, to: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  if (to <= from) return spans;
  let start = from;
  let offset = zoneOffsetMs(from, timeZone);
  for (let day = from; day < to; day += DAY_MS) {
    const end = Math.min(day + DAY_MS, to);
    if (zoneOffsetMs(end - 1, timeZone) === offset) continue;
    for (const span of offsetSpans(timeZone, day, end)) {
      if (span.offsetMs === offset) continue;
      spans.push({ start, end: span.start, offsetMs: offset });
      start = span.start;
      offset = span.offsetMs;
    }
  }
  spans.push({ start, end: to, offsetMs: offset });
  return spans;
}

/** Resolves wall times (wallClockMs) of one zone to UTC by wallToUtc's rule, from a table of its offsets. */
export interface ZoneClock {
  toUtc(wall: number): number;
}

/** Offsets reach ±18 h and a wall time is resolved from the offsets a day either side of it. */
const MARGIN_MS = 3 * DAY_MS;
/** Tables kept, by zone and year: a memo of a pure function, dropped whole when full. */
const MAX_TABLES = 512;
const tables = new Map<string, OffsetSpan[]>();

function yearTable(timeZone: string, year: number): OffsetSpan[] {
  const key = `${timeZone} ${year}`;
  let spans = tables.get(key);
  if (spans === undefined) {
    spans = zoneSpans(timeZone, Date.UTC(year, 0, 1) - MARGIN_MS, Date.UTC(year + 1, 0, 1) + MARGIN_MS);
    if (tables.size >= MAX_TABLES) tables.clear();
    tables.set(key, spans);
  }
  return spans;
}

/** A clock for the wall times of one calendar year; a wall time outside the year (± 3 days) falls back to Intl. */
export function zoneClock(timeZone: string, year: number): ZoneClock {
  const spans = yearTable(timeZone, year);
  const offsetAt = (utc: number): number => {
    for (const span of spans) if (utc >= span.start && utc < span.end) return span.offsetMs;
    return zoneOffsetMs(utc, timeZone);
  };
  return { toUtc: (wall) => wallToUtcBy(wall, offsetAt) };
}

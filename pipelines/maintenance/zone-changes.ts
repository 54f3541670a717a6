/**
 * A zone's offsets for the calendar file's overrides (calendar-series.ts, calendar-vevent.ts):
 * the instants it changes its offset, and its offset at an instant. Found by zone-clock.ts's daily
 * scan (one Intl call a day, a few milliseconds a year) and kept per zone and UTC year: a feed is
 * fetched again and again over the same years, so a year is scanned once per process, not once per
 * fetch and series; the offsets of a scanned year are then table look-ups, not Intl calls (the
 * occurrences written out lie near the changes of scanned years).
 */
import { DAY_MS, type OffsetSpan, zoneOffsetMs } from '../time/time-zone.js';
import { zoneSpans } from './zone-clock.js';

/** Years kept, by zone: a memo of a pure function, dropped whole when full. */
const MAX_YEARS = 512;
const years = new Map<string, OffsetSpan[]>();
const utcYear = (ms: number): number => new Date(ms).getUTCFullYear();

/** The offset spans of [a day before the year, its end): a change at its very first instant is one within the scan. */
function yearSpans(timeZone: string, year: number): OffsetSpan[] {
  const key = `${timeZone} ${year}`;
  let spans = years.get(key);
  if (spans === undefined) {
    spans = zoneSpans(timeZone, Date.UTC(year, 0, 1) - DAY_MS, Date.UTC(year + 1, 0, 1));
    if (years.size >= MAX_YEARS) years.clear();
    years.set(key, spans);
  }
  return spans;
}

/** The offset changes of `timeZone` within [from, to), ascending; scans the years they lie in. */
export function offsetChanges(timeZone: string, from: number, to: number): number[] {
  const out: number[] = [];
  if (to <= from) return out;
  const last = utcYear(to - 1);
  for (let year = utcYear(from); year <= last; year++) {
    const start = Date.UTC(year, 0, 1);
    for (const span of yearSpans(timeZone, year).slice(1)) if (span.start >= start && span.start >= from && span.start < to) out.push(span.start);
  }
  return out;
}

/** The zone's offset at `utc` (ms): from the table of a year already scanned, else by Intl. */
export function offsetAt(utc: number, timeZone: string): number {
  const spans = years.get(`${timeZone} ${utcYear(utc)}`);
  if (spans !== undefined) for (const span of spans) if (utc >= span.start && utc < span.end) return span.offsetMs;
  return zoneOffsetMs(utc, timeZone);
}

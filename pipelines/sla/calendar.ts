/**
 * Working calendar ▸ unattended time. Computed once per report (it depends on the range and
 * the calendar only) and shared by every CI of the template.
 *
 * - Weekly hours are local wall times on each ISO weekday, from inclusive to exclusive; `24:00`
 *   ends the day. An entry whose `to` is not after its `from` is empty (a night shift is two
 *   entries). Entries may overlap; they are joined.
 * - Across a DST change the local wall times are converted as time-zone.ts says: a bound that
 *   does not exist moves forward by the gap (so on the spring-forward Sunday in Europe/Berlin
 *   09:00–18:00 is 8 real hours if it spanned 02:00–03:00, and 01:00–04:00 is 2 hours); a bound
 *   that exists twice is its earlier occurrence (on the fall-back Sunday 01:00–04:00 is 4 hours,
 *   02:00–02:30 is the first half hour only).
 * - A holiday (`YYYY-MM-DD`, local date) is unattended from its local midnight to the next.
 */
import type { Interval, WorkingCalendar } from './sla.types.js';
import { complementIntervals, mergeIntervals, clipIntervals } from './interval-ops.js';
import { DAY_MS, isoDate, isoWeekday, parseClock, startOfWallDay, toWallClockMs, wallToUtc } from './time-zone.js';

interface DayHours {
  /** Minutes from local midnight. */
  from: number;
  to: number;
}

/** The weekly hours by ISO weekday (index 1..7). Throws a RangeError on a malformed entry: the template is checked when saved. */
function hoursByWeekday(week: WorkingCalendar['week']): DayHours[][] {
  const byDay: DayHours[][] = [[], [], [], [], [], [], [], []];
  for (const entry of week) {
    const from = parseClock(entry.from);
    const to = parseClock(entry.to);
    if (!Number.isInteger(entry.day) || entry.day < 1 || entry.day > 7 || from === null || to === null) {
      throw new RangeError(`invalid working hours entry ${JSON.stringify(entry)}`);
    }
    if (to > from) byDay[entry.day]!.push({ from, to });
  }
  return byDay;
}

/** Working time within `range` as a normal interval list (the whole range when there is no calendar). */
export function workingIntervals(calendar: WorkingCalendar | null, range: Interval): Interval[] {
  if (range.end <= range.start) return [];
  if (calendar === null) return [{ start: range.start, end: range.end }];
  const { timeZone } = calendar;
  const byDay = hoursByWeekday(calendar.week);
  const holidays = new Set(calendar.holidays);
  const working: Interval[] = [];
  // Every local day the range touches, one more on each side for safety at the edges.
  const first = startOfWallDay(toWallClockMs(range.start, timeZone)) - DAY_MS;
  const last = startOfWallDay(toWallClockMs(range.end, timeZone)) + DAY_MS;
  for (let day = first; day <= last; day += DAY_MS) {
    const hours = byDay[isoWeekday(day)]!;
    if (hours.length === 0 || holidays.has(isoDate(day))) continue;
    for (const h of hours) {
      const start = wallToUtc(day + h.from * 60_000, timeZone);
      const end = wallToUtc(day + h.to * 60_000, timeZone);
      if (end > start) working.push({ start, end });
    }
  }
  return clipIntervals(mergeIntervals(working), range);
}

/** Sorted, disjoint intervals of `range` outside working hours; none without a calendar. */
export function unattendedIntervals(calendar: WorkingCalendar | null, range: Interval): Interval[] {
  if (calendar === null) return [];
  return complementIntervals(workingIntervals(calendar, range), range);
}

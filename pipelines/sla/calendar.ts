/**
 * Working calendar ▸ unattended time. Computed once per report (it depends on the range and
 * the calendar only) and shared by every CI of the template.
 *
 * An instant is worked when the local clock of the zone shows, at that instant, a date that is
 * not a holiday and a time within that weekday's hours. So:
 * - Weekly hours are local wall times on each ISO weekday, from inclusive to exclusive; `24:00`
 *   ends the day. An entry whose `to` is not after its `from` is empty (a night shift is two
 *   entries). Overlapping entries join.
 * - On the spring-forward day the hour the clock skips is worked by nobody: in Europe/Berlin
 *   01:00–04:00 is 2 real hours, 02:00–03:00 is nothing, 02:30–03:30 is 03:00–03:30 CEST.
 * - On the fall-back day the clock shows the repeated hour twice and both count: 01:00–04:00 is
 *   4 real hours, 02:00–02:30 is 02:00–02:30 CEST plus 02:00–02:30 CET.
 * - A holiday (`YYYY-MM-DD`, local date) is unattended from its local midnight to the next.
 * The wall-clock hours are laid out day by day, then mapped to UTC through each stretch of
 * constant offset (pipelines/time/time-zone.ts offsetSpans): no per-minute work, a handful of Intl calls per day.
 */

import { complementIntervals, intersectIntervals, mergeIntervals } from '../time/interval-ops.js';
import type { Interval, WorkingCalendar } from './sla.types.js';
import { DAY_MS, isoDate, isoWeekday, offsetSpans, parseClock, startOfWallDay } from '../time/time-zone.js';

interface DayHours {
  /** Minutes from local midnight. */
  from: number;
  to: number;
}

/** Real offsets are within ±18 h; the wall-clock days looked at reach this far past the range. */
const MAX_OFFSET_MS = 18 * 3_600_000;

/** The weekly hours by ISO weekday (index 1..7). Throws a RangeError on a malformed entry: templates are checked when saved. */
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

/** Worked local wall-clock time (wallClockMs) over [fromWall, toWall), as a normal list. */
function wallWorked(calendar: WorkingCalendar, fromWall: number, toWall: number): Interval[] {
  const byDay = hoursByWeekday(calendar.week);
  const holidays = new Set(calendar.holidays);
  const worked: Interval[] = [];
  for (let day = startOfWallDay(fromWall); day < toWall; day += DAY_MS) {
    const hours = byDay[isoWeekday(day)]!;
    if (hours.length === 0 || holidays.has(isoDate(day))) continue;
    for (const h of hours) worked.push({ start: day + h.from * 60_000, end: day + h.to * 60_000 });
  }
  return mergeIntervals(worked);
}

/** Working time within `range` as a normal interval list (the whole range when there is no calendar). */
export function workingIntervals(calendar: WorkingCalendar | null, range: Interval): Interval[] {
  if (range.end <= range.start) return [];
  if (calendar === null) return [{ start: range.start, end: range.end }];
  const wall = wallWorked(calendar, range.start - MAX_OFFSET_MS, range.end + MAX_OFFSET_MS);
  const working: Interval[] = [];
  for (const span of offsetSpans(calendar.timeZone, range.start, range.end)) {
    // During the span, local wall time = UTC + offset: worked wall time shifted back by the offset.
    const shifted = wall.map((w) => ({ start: w.start - span.offsetMs, end: w.end - span.offsetMs }));
    for (const i of intersectIntervals(shifted, [{ start: span.start, end: span.end }])) working.push(i);
  }
  return mergeIntervals(working);
}

/** Sorted, disjoint intervals of `range` outside working hours; none without a calendar. */
export function unattendedIntervals(calendar: WorkingCalendar | null, range: Interval): Interval[] {
  if (calendar === null) return [];
  return complementIntervals(workingIntervals(calendar, range), range);
}

/**
 * A template period (spec 2.11) ▸ the calculated range. Bounds are local midnights in the zone
 * (converted as time-zone.ts says, so a day is 23 or 25 hours long across a DST change). "This…"
 * periods run to the end of the period, not to `now`; weeks are ISO weeks (Monday first);
 * quarters start in January, April, July and October.
 */
import type { Interval } from './sla.types.js';
import { fromWallClockMs, isoWeekday, type LocalDateTime, localToUtc, startOfWallDay, toWallClockMs, wallClockMs } from '../time/time-zone.js';

export const SLA_PERIODS = ['ThisYear', 'ThisQuarter', 'ThisMonth', 'ThisWeek', 'Today', 'PreviousYear', 'PreviousQuarter', 'PreviousMonth', 'PreviousWeek', 'Yesterday'] as const;

export type SlaPeriod = (typeof SLA_PERIODS)[number];

/** Calendar unit and how many of them back from the current one. */
const PERIODS: Record<SlaPeriod, { unit: 'year' | 'quarter' | 'month' | 'week' | 'day'; back: 0 | 1 }> = {
  ThisYear: { unit: 'year', back: 0 },
  ThisQuarter: { unit: 'quarter', back: 0 },
  ThisMonth: { unit: 'month', back: 0 },
  ThisWeek: { unit: 'week', back: 0 },
  Today: { unit: 'day', back: 0 },
  PreviousYear: { unit: 'year', back: 1 },
  PreviousQuarter: { unit: 'quarter', back: 1 },
  PreviousMonth: { unit: 'month', back: 1 },
  PreviousWeek: { unit: 'week', back: 1 },
  Yesterday: { unit: 'day', back: 1 },
};

/** The range of `period` that holds `now` (or the one before it), in `timeZone`. */
export function periodRange(period: SlaPeriod, timeZone: string, now: number): Interval {
  const { unit, back } = PERIODS[period];
  const today = fromWallClockMs(startOfWallDay(toWallClockMs(now, timeZone)));
  let from: LocalDateTime;
  let to: LocalDateTime;
  const { year, month, day } = today;
  switch (unit) {
    case 'year':
      from = { year: year - back, month: 1, day: 1 };
      to = { year: year - back + 1, month: 1, day: 1 };
      break;
    case 'quarter': {
      const first = month - ((month - 1) % 3) - 3 * back;
      from = { year, month: first, day: 1 };
      to = { year, month: first + 3, day: 1 };
      break;
    }
    case 'month':
      from = { year, month: month - back, day: 1 };
      to = { year, month: month - back + 1, day: 1 };
      break;
    case 'week': {
      const monday = day - (isoWeekday(wallClockMs(today)) - 1) - 7 * back;
      from = { year, month, day: monday };
      to = { year, month, day: monday + 7 };
      break;
    }
    case 'day':
      from = { year, month, day: day - back };
      to = { year, month, day: day - back + 1 };
      break;
  }
  // Months and days out of range roll over (month 0 = December of the year before).
  return { start: localToUtc(from, timeZone), end: localToUtc(to, timeZone) };
}

/**
 * The RRULE text of a recurring maintenance mode: parsed and checked here, its dates produced by
 * ical.js. Dates only: this file knows nothing of time zones or wall-clock times (recurrence.ts
 * puts the mode's time of day on each date and resolves it in the zone).
 *
 * A date is a local calendar day numbered from 1970-01-01 (= 0), as time-zone.ts's wallClockMs / DAY_MS.
 *
 * The parts accepted are those ical.js 2.2 expands correctly. Trying it found these faults; the
 * combinations that meet them are refused (parseRule says why):
 * - FREQ=DAILY with BYDAY and an INTERVAL that is a multiple of 7 loops forever when DTSTART's
 *   weekday is not in BYDAY; DAILY with BYMONTHDAY and INTERVAL > 1 can do the same.
 * - BYSETPOS is ignored with FREQ=WEEKLY, DAILY and with BYMONTHDAY, and a position past the
 *   month's last match ends the series: only MONTHLY with weekdays, within ±5 per weekday.
 * - MONTHLY with BYDAY and BYMONTHDAY together loses the INTERVAL's phase, and throws on an
 *   ordinal no BYMONTHDAY can meet: only with INTERVAL=1 and weekdays without ordinals.
 * One is worked around: the first date an iterator gives is not checked against BYSETPOS (nor,
 * for DAILY, against BYDAY/BYMONTHDAY), so ruleDates starts each iterator a period early and
 * drops what it gives there.
 */
import ICAL from 'ical.js';
import { DAY_MS } from '../time/time-zone.js';

export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY';

export interface WeekdayEntry {
  /** 0 = every such weekday of the period; ±1..5 = the n-th (from the end when negative) of the month. */
  ordinal: number;
  /** ISO weekday, 1 = Monday .. 7 = Sunday. */
  weekday: number;
}

export type Until = { kind: 'instant'; utcMs: number } | { kind: 'date'; day: number };

export interface Rule {
  freq: Frequency;
  interval: number;
  count: number | null;
  until: Until | null;
  byDay: WeekdayEntry[];
  byMonthDay: number[];
  bySetPos: number[];
  /** ISO weekday the weeks start on (RFC 5545 default Monday). */
  wkst: number;
}

export const MAX_COUNT = 5000;
export const MAX_INTERVAL = 99;
export const MAX_RULE_LENGTH = 500;
/** RFC 5545 dates have four-digit years; nothing is produced past this day (9999-12-31). */
export const LAST_DAY = Math.floor(Date.UTC(9999, 11, 31) / DAY_MS);

const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const SUPPORTED = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYSETPOS', 'WKST']);
const RFC_ONLY = new Set(['BYSECOND', 'BYMINUTE', 'BYHOUR', 'BYWEEKNO', 'BYYEARDAY', 'BYMONTH', 'RSCALE', 'SKIP']);

export const weekdayCode = (isoWeekday: number): string => WEEKDAY_CODES[isoWeekday - 1]!;
/** ISO weekday of a day number (1970-01-01 was a Thursday). */
export const weekdayOf = (day: number): number => ((((day + 3) % 7) + 7) % 7) + 1;
export const dayOf = (year: number, month: number, dayOfMonth: number): number => Math.floor(Date.UTC(year, month - 1, dayOfMonth) / DAY_MS);
export const yearOfDay = (day: number): number => new Date(day * DAY_MS).getUTCFullYear();
const monthIndexOf = (day: number): number => {
  const d = new Date(day * DAY_MS);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
};
const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** The day number of a local date `YYYY-MM-DD`, null when it is not one. */
export function parseLocalDate(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return null;
  const day = dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  return new Date(day * DAY_MS).toISOString().slice(0, 10) === text ? day : null;
}

function integer(text: string, min: number, max: number): number | null {
  if (!/^[+-]?\d{1,6}$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

function parseUntil(text: string): Until | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(text);
  if (m === null) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1970 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (m[4] === undefined) return { kind: 'date', day: date.getTime() / DAY_MS };
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (h > 23 || min > 59 || s > 59) return null;
  return { kind: 'instant', utcMs: date.getTime() + ((h * 60 + min) * 60 + s) * 1000 };
}

/** The rule, or what is wrong with it (one message per fault). Names and values are case-insensitive (RFC 5545 §3.1). */
export function parseRule(text: string): { rule: Rule; errors?: undefined } | { rule?: undefined; errors: string[] } {
  const errors: string[] = [];
  if (text.length > MAX_RULE_LENGTH) return { errors: [`must be at most ${MAX_RULE_LENGTH} characters`] };
  if (/^\s*RRULE:/i.test(text)) return { errors: ['give the value without the "RRULE:" prefix'] };
  const values = new Map<string, string>();
  for (const part of text.trim().toUpperCase().split(';')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (part === '') errors.push('has an empty part (";;" or a ";" at an end)');
    else if (eq <= 0 || eq === part.length - 1) errors.push(`"${part}" is not NAME=VALUE`);
    else if (values.has(name)) errors.push(`${name} is given twice`);
    else if (RFC_ONLY.has(name)) errors.push(`${name} is not supported (allowed: ${[...SUPPORTED].join(', ')})`);
    else if (!SUPPORTED.has(name)) errors.push(`${name} is not a rule part`);
    else values.set(name, part.slice(eq + 1));
  }
  const freq = values.get('FREQ');
  if (freq === undefined) errors.push('FREQ is required');
  else if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY') errors.push(`FREQ=${freq} is not supported (DAILY, WEEKLY or MONTHLY)`);

  const number = (name: string, min: number, max: number, fallback: number | null): number | null => {
    const raw = values.get(name);
    if (raw === undefined) return fallback;
    const n = integer(raw, min, max);
    if (n === null || raw.startsWith('+') || raw.startsWith('-')) errors.push(`${name} must be an integer from ${min} to ${max}`);
    return n ?? fallback;
  };
  const interval = number('INTERVAL', 1, MAX_INTERVAL, 1)!;
  const count = number('COUNT', 1, MAX_COUNT, null);

  let until: Until | null = null;
  const untilText = values.get('UNTIL');
  if (untilText !== undefined) {
    until = parseUntil(untilText);
    if (until === null) errors.push('UNTIL must be a UTC date-time YYYYMMDDTHHMMSSZ or a date YYYYMMDD, from 1970');
  }
  if (count !== null && untilText !== undefined) errors.push('COUNT and UNTIL cannot both be given');

  const byDay: WeekdayEntry[] = [];
  for (const item of values.get('BYDAY')?.split(',') ?? []) {
    const m = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
    if (m === null) errors.push(`BYDAY "${item}" is not a weekday (MO..SU), optionally with an ordinal ±1..5`);
    else byDay.push({ ordinal: m[1] === undefined ? 0 : Number(m[1]), weekday: WEEKDAY_CODES.indexOf(m[2]!) + 1 });
  }
  const list = (name: string, max: number): number[] => {
    const out: number[] = [];
    for (const item of values.get(name)?.split(',') ?? []) {
      const n = integer(item, -max, max);
      if (n === null || n === 0) errors.push(`${name} "${item}" must be ±1..${max}`);
      else out.push(n);
    }
    return out;
  };
  const byMonthDay = list('BYMONTHDAY', 31);
  const bySetPos = list('BYSETPOS', 31);

  let wkst = 1;
  const wkstText = values.get('WKST');
  if (wkstText !== undefined) {
    wkst = WEEKDAY_CODES.indexOf(wkstText) + 1;
    if (wkst === 0) errors.push('WKST must be a weekday MO..SU');
  }

  const plainWeekdays = byDay.filter((d) => d.ordinal === 0).length;
  const ordinals = byDay.length - plainWeekdays;
  if (ordinals > 0 && freq !== 'MONTHLY') errors.push('BYDAY with an ordinal (e.g. -1FR) needs FREQ=MONTHLY');
  if (byMonthDay.length > 0 && freq === 'WEEKLY') errors.push('BYMONTHDAY cannot be used with FREQ=WEEKLY');
  if (byMonthDay.length > 0 && freq === 'DAILY' && interval !== 1) errors.push('BYMONTHDAY with FREQ=DAILY needs INTERVAL=1');
  if (byDay.length > 0 && freq === 'DAILY' && interval % 7 === 0) errors.push('BYDAY with FREQ=DAILY and an INTERVAL that is a multiple of 7 may never match: use FREQ=WEEKLY');
  if (byDay.length > 0 && byMonthDay.length > 0 && freq === 'MONTHLY' && (ordinals > 0 || interval !== 1)) {
    errors.push('BYDAY with BYMONTHDAY needs weekdays without ordinals and INTERVAL=1');
  }
  if (bySetPos.length > 0) {
    if (freq !== 'MONTHLY' || plainWeekdays === 0 || ordinals > 0 || byMonthDay.length > 0) {
      errors.push('BYSETPOS is supported with FREQ=MONTHLY and BYDAY weekdays without ordinals only');
    } else if (bySetPos.some((p) => Math.abs(p) > 5 * plainWeekdays)) {
      errors.push(`BYSETPOS must be within ±${5 * plainWeekdays}: a month has at most ${5 * plainWeekdays} of those days`);
    }
  }
  if (errors.length > 0) return { errors };
  return { rule: { freq: freq as Frequency, interval, count, until, byDay, byMonthDay, bySetPos, wkst } };
}

/**
 * The RRULE text for ical.js or a calendar file: the rule's parts in a fixed order, `extra`
 * (COUNT=…, UNTIL=…) appended. `withStartDefaults` writes out what RFC 5545 takes from DTSTART
 * (its weekday for WEEKLY, its day of month for MONTHLY), which an iterator started elsewhere needs.
 */
export function formatRule(rule: Rule, extra: string[], startDay?: number): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  parts.push(...extra);
  let byDay = rule.byDay.map((d) => `${d.ordinal === 0 ? '' : d.ordinal}${weekdayCode(d.weekday)}`);
  let byMonthDay = rule.byMonthDay.map(String);
  if (startDay !== undefined && rule.freq === 'WEEKLY' && byDay.length === 0) byDay = [weekdayCode(weekdayOf(startDay))];
  if (startDay !== undefined && rule.freq === 'MONTHLY' && byDay.length === 0 && byMonthDay.length === 0) {
    byMonthDay = [String(new Date(startDay * DAY_MS).getUTCDate())];
  }
  if (byDay.length > 0) parts.push(`BYDAY=${byDay.join(',')}`);
  if (byMonthDay.length > 0) parts.push(`BYMONTHDAY=${byMonthDay.join(',')}`);
  if (rule.bySetPos.length > 0) parts.push(`BYSETPOS=${rule.bySetPos.join(',')}`);
  if (rule.wkst !== 1) parts.push(`WKST=${weekdayCode(rule.wkst)}`);
  return parts.join(';');
}

/** Visits dates in ascending order; returning false stops. */
export type DateVisitor = (day: number) => boolean;

/**
 * A year's dates of a rule from one anchor, by the rule's text: modes share rules ("FREQ=DAILY",
 * "FREQ=WEEKLY;BYDAY=SU"), and ical.js takes 10–150 µs a date, so each is expanded once for all.
 * A memo of a pure function, dropped whole when full.
 */
const yearDates = new Map<string, readonly number[]>();
const MAX_YEAR_DATES = 4096;
/** A scan gives up after this many years in a row without a date (a rule that no longer matches). */
export const MAX_EMPTY_YEARS = 1000;

const NO_DATES: readonly number[] = Object.freeze([]);
const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * At most how many dates a month holds under a MONTHLY rule, by arithmetic alone: 0 when it is
 * out of the INTERVAL's phase, too short for a BYMONTHDAY (or DTSTART's day of month), without
 * as many of a weekday as an ordinal BYDAY asks (5SU: five Sundays), or without as many days as
 * a BYSETPOS counts. An upper bound: 0 is certain, the dates themselves come from ical.js.
 */
export function monthlyDatesAtMost(rule: Rule, startDay: number, year: number, month: number): number {
  if (mod(year * 12 + month - 1 - monthIndexOf(startDay), rule.interval) !== 0) return 0;
  const length = daysInMonth(year, month);
  const monthDays = rule.byMonthDay.length > 0 ? rule.byMonthDay : rule.byDay.length === 0 ? [new Date(startDay * DAY_MS).getUTCDate()] : [];
  if (monthDays.length > 0) return monthDays.filter((d) => Math.abs(d) <= length).length;
  const firstWeekday = weekdayOf(dayOf(year, month, 1));
  const countOf = (weekday: number): number => 4 + (mod(weekday - firstWeekday, 7) < length - 28 ? 1 : 0);
  const plain = rule.byDay.filter((d) => d.ordinal === 0).reduce((n, d) => n + countOf(d.weekday), 0);
  if (rule.bySetPos.length > 0) return rule.bySetPos.filter((p) => Math.abs(p) <= plain).length;
  return plain + rule.byDay.filter((d) => d.ordinal !== 0 && Math.abs(d.ordinal) <= countOf(d.weekday)).length;
}

/**
 * The last month of `year` that may hold a date of a MONTHLY rule and how many at most; null
 * when none may. Only the months in the INTERVAL's phase are looked at (one a year for
 * INTERVAL=12, none in most years for INTERVAL=99).
 */
function monthlyYearPlan(rule: Rule, startDay: number, month0: number, year: number): { lastMonth: number; lastMonthDates: number; seen: number } | null {
  const lastInPhase = 12 - mod(year * 12 + 11 - month0, rule.interval);
  for (let month = lastInPhase; month >= 1; month -= rule.interval) {
    const most = monthlyDatesAtMost(rule, startDay, year, month);
    if (most > 0) return { lastMonth: month, lastMonthDates: most, seen: 0 };
  }
  return null;
}

/**
 * The rule's dates, without COUNT and UNTIL, for a series whose first date is `startDay`. The
 * returned scan(from, to, visit) visits each rule date d with from ≤ d ≤ to (days) in order.
 * Dates are expanded a calendar year at a time, each year by an iterator started near it rather
 * than at startDay, so that a year far in the future costs what next year costs: the iterator
 * starts at the beginning of the period one INTERVAL before the period holding January 1st, on
 * the rule's phase (periods are counted from startDay's period), and what it gives before
 * January 1st is dropped.
 */
export function ruleDates(rule: Rule, startDay: number): (from: number, to: number, visit: DateVisitor) => void {
  const text = formatRule(rule, [], startDay);
  let recur: ICAL.Recur | null = null;
  const startMonth = monthIndexOf(startDay);
  const n = rule.interval;
  const weekStart = (day: number): number => day - mod(weekdayOf(day) - rule.wkst, 7);
  let anchorOf: (day: number) => number;
  let inPhase: (day: number) => boolean;
  if (rule.freq === 'DAILY') {
    anchorOf = (day) => startDay + (Math.floor((day - startDay) / n) - 1) * n;
    inPhase = (day) => mod(day - startDay, n) === 0;
  } else if (rule.freq === 'WEEKLY') {
    const week0 = weekStart(startDay);
    anchorOf = (day) => week0 + (Math.floor((weekStart(day) - week0) / (7 * n)) - 1) * 7 * n;
    inPhase = (day) => mod(weekStart(day) - week0, 7 * n) === 0;
  } else {
    const month0 = monthIndexOf(startDay);
    anchorOf = (day) => {
      const month = month0 + (Math.floor((monthIndexOf(day) - month0) / n) - 1) * n;
      return dayOf(Math.floor(month / 12), mod(month, 12) + 1, 1);
    };
    inPhase = (day) => mod(monthIndexOf(day) - month0, n) === 0;
  }

  const datesOf = (year: number): readonly number[] => {
    // A sparse rule (FREQ=MONTHLY;INTERVAL=12;BYDAY=5SU: a date every 28 years or so) is skipped
    // over by arithmetic: ical.js runs only for a year with a month that can hold a date.
    const plan = rule.freq === 'MONTHLY' ? monthlyYearPlan(rule, startDay, startMonth, year) : undefined;
    if (plan === null) return NO_DATES;
    const first = dayOf(year, 1, 1);
    const last = Math.min(dayOf(year, 12, 31), LAST_DAY);
    const anchor = anchorOf(first);
    const key = `${text}|${anchor}|${year}`;
    let days = yearDates.get(key);
    if (days !== undefined) return days;
    const out: number[] = [];
    recur ??= ICAL.Recur.fromString(text);
    const a = new Date(anchor * DAY_MS);
    const iterator = recur.iterator(ICAL.Time.fromData({ year: a.getUTCFullYear(), month: a.getUTCMonth() + 1, day: a.getUTCDate(), hour: 0, minute: 0, second: 0 }));
    // Each date given is later than the one before, so this many calls cover [anchor, last]; it
    // also stops a rule that no longer matches anything.
    let budget = last - anchor + 64;
    let previous = -Infinity;
    while (budget-- > 0) {
      let time: ICAL.Time | null;
      try {
        time = iterator.next();
      } catch {
        break; // ical.js gives up on a rule it finds malformed: no more dates this year.
      }
      if (time === null) break;
      const day = dayOf(time.year, time.month, time.day);
      if (day > last) break;
      // Before January 1st: the anchor period's dates, where ical.js does not check its first date.
      if (day <= previous || day < first || !inPhase(day)) continue;
      previous = day;
      out.push(day);
      // The year's last possible date is in: asking for one more would make ical.js search on
      // for the next matching month, decades ahead for a sparse rule.
      if (plan !== undefined && new Date(day * DAY_MS).getUTCMonth() + 1 === plan.lastMonth && ++plan.seen >= plan.lastMonthDates) break;
    }
    days = out;
    if (yearDates.size >= MAX_YEAR_DATES) yearDates.clear();
    yearDates.set(key, days);
    return days;
  };

  return (from, to, visit) => {
    let empty = 0;
    for (let year = yearOfDay(from), last = yearOfDay(Math.min(to, LAST_DAY)); year <= last && empty < MAX_EMPTY_YEARS; year++) {
      const days = datesOf(year);
      empty = days.length === 0 ? empty + 1 : 0;
      for (const day of days) {
        if (day < from) continue;
        if (day > to || !visit(day)) return;
      }
    }
  };
}

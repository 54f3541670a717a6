/**
 * The checks of a recurrence (recurrence.ts): its fields, and its rule against the mode's start.
 * Pure, and they never throw.
 */
import type { FieldError } from '../../schemas/errors.js';
import { DAY_MS, isTimeZone, isoDate, toWallClockMs } from '../time/time-zone.js';
import { LAST_DAY, parseLocalDate, parseRule, type Rule, ruleDates, weekdayCode, weekdayOf } from './recurrence-rule.js';

/** A recurrence as a mode carries it (issue #17). */
export interface RecurrenceInput {
  /** An RFC 5545 RRULE value without the `RRULE:` prefix, e.g. `FREQ=WEEKLY;BYDAY=SU`. */
  rule: string;
  /** An IANA zone name, e.g. `Europe/Berlin`. */
  timeZone: string;
  /** Local dates `YYYY-MM-DD` whose occurrence is skipped. */
  exdates?: string[];
}

export const MAX_EXDATES = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What is wrong with a zone name. Any name Intl knows is taken (aliases such as US/Eastern too),
 * but not: a fixed offset (`+01:00`, accepted by newer runtimes), whose DST-free clock is rarely
 * what a maintenance window means; a bare abbreviation other than UTC (`EST`, `CET`), which
 * names a region's rules ambiguously; nor a miscased canonical name (`europe/berlin`), which would
 * be stored and shown as typed.
 */
function zoneError(name: string): string | null {
  if (/^[+\-\u2212]?\d/.test(name) || /^(UTC|GMT)[+-]/i.test(name)) return 'must be an IANA zone name such as Europe/Berlin, not an offset';
  if (!isTimeZone(name)) return 'is not an IANA time zone this server knows';
  if (!name.includes('/') && name !== 'UTC') return 'must be an IANA zone name such as Europe/Berlin or UTC, not an abbreviation';
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return `must be spelt ${resolved}`;
  return null;
}

/** Field errors of a recurrence (at `${path}/rule`, `${path}/timeZone`, `${path}/exdates/3`…); never throws. */
export function checkRecurrence(input: unknown, path = '/recurrence'): FieldError[] {
  if (!isObject(input)) return [{ path, message: 'must be an object with rule, timeZone and optionally exdates' }];
  const errors: FieldError[] = [];
  if (typeof input.rule !== 'string') errors.push({ path: `${path}/rule`, message: 'must be a string' });
  else for (const message of parseRule(input.rule).errors ?? []) errors.push({ path: `${path}/rule`, message });
  if (typeof input.timeZone !== 'string') errors.push({ path: `${path}/timeZone`, message: 'must be a string' });
  else {
    const message = zoneError(input.timeZone);
    if (message !== null) errors.push({ path: `${path}/timeZone`, message });
  }
  if (input.exdates !== undefined) {
    if (!Array.isArray(input.exdates)) errors.push({ path: `${path}/exdates`, message: 'must be an array of dates YYYY-MM-DD' });
    else if (input.exdates.length > MAX_EXDATES) errors.push({ path: `${path}/exdates`, message: `must have at most ${MAX_EXDATES} dates` });
    else {
      input.exdates.forEach((d: unknown, i) => {
        if (typeof d !== 'string' || parseLocalDate(d) === null) errors.push({ path: `${path}/exdates/${i}`, message: 'must be a date YYYY-MM-DD' });
      });
    }
  }
  return errors;
}

/**
 * Field errors of a checked recurrence against the mode's dateStart: a start that is not a date
 * of the rule (at `startPath`) and an UNTIL before the start (at `${path}/rule`).
 */
export function checkRecurrenceStart(input: RecurrenceInput, dateStart: number, startPath = '/dateStart', path = '/recurrence'): FieldError[] {
  const { rule } = parseRule(input.rule);
  if (rule === undefined || zoneError(input.timeZone) !== null) return [];
  const startWall = toWallClockMs(dateStart, input.timeZone);
  const startDay = Math.floor(startWall / DAY_MS);
  const errors: FieldError[] = [];
  let first: number | null = null;
  ruleDates(rule, startDay)(startDay, Math.min(LAST_DAY, startDay + 366 * 100), (day) => {
    first = day;
    return false;
  });
  if (first !== startDay) {
    const where = `${isoDate(startDay * DAY_MS)} (${weekdayCode(weekdayOf(startDay))}) in ${input.timeZone}`;
    const hint = first === null ? 'the rule gives no date on or after it' : `the first one on or after it is ${isoDate((first as number) * DAY_MS)}`;
    errors.push({ path: startPath, message: `is ${where}, which is not a date of the rule: ${hint}` });
  }
  const until = rule.until;
  if (until !== null && (until.kind === 'date' ? until.day < startDay : until.utcMs < dateStart)) {
    errors.push({ path: `${path}/rule`, message: 'UNTIL is before dateStart' });
  }
  return errors;
}

/**
 * How long one occurrence of a recurring mode may last (issue #34): no longer than the rule's
 * period — FREQ=DAILY n days, WEEKLY 7n days, MONTHLY 28n days (its shortest months) — and never
 * longer than MAX_OCCURRENCE_MS. What an occurrence costs to find (a calendar feed, a coverage
 * look-up reaches back one span) then stays within a few periods, whatever the mode says.
 */
export const MAX_OCCURRENCE_MS = 31 * DAY_MS;

export function rulePeriodMs(rule: Rule): number {
  const days = rule.freq === 'DAILY' ? 1 : rule.freq === 'WEEKLY' ? 7 : 28;
  return days * rule.interval * DAY_MS;
}

/** A span as people read it: hours up to two days, days beyond. */
export const spanText = (ms: number): string => (ms < 2 * DAY_MS ? `${+(ms / 3_600_000).toFixed(2)} h` : `${+(ms / DAY_MS).toFixed(2)} days`);

/**
 * What is wrong with a recurring mode's first occurrence [start, end) — longer than the rule's
 * period or than MAX_OCCURRENCE_MS — or null. The span is the wall-clock one every occurrence
 * keeps (recurrence.ts), so a daily 24-hour window across a clock change is one period.
 */
export function occurrenceSpanProblem(input: RecurrenceInput, start: number, end: number): { span: string; limit: string; why: string } | null {
  const { rule } = parseRule(input.rule);
  if (rule === undefined || zoneError(input.timeZone) !== null) return null;
  const wallSpan = toWallClockMs(end, input.timeZone) - toWallClockMs(start, input.timeZone);
  const span = wallSpan > 0 ? wallSpan : end - start;
  const period = rulePeriodMs(rule);
  if (span <= Math.min(period, MAX_OCCURRENCE_MS)) return null;
  return period <= MAX_OCCURRENCE_MS
    ? { span: spanText(span), limit: spanText(period), why: `the rule's period, FREQ=${rule.freq}${rule.interval > 1 ? `;INTERVAL=${rule.interval}` : ''}` }
    : { span: spanText(span), limit: spanText(MAX_OCCURRENCE_MS), why: 'the limit for every recurring mode' };
}

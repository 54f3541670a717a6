/**
 * Recurring maintenance windows: an RFC 5545 RRULE in an IANA time zone, expanded to UTC intervals.
 *
 * The rule (what a recurrence means, stated once; docs/decisions.md copies it):
 * - The mode's dateStart/dateEnd are the first occurrence, exactly as given. DTSTART is dateStart
 *   read as a wall time in `timeZone`, and it is always the first occurrence, as RFC 5545 says
 *   (COUNT counts it). A dateStart that is not a date of the rule ("last Friday" starting on a
 *   Tuesday) is a set the RFC leaves undefined and clients expand differently; checkRecurrenceStart
 *   reports it so that saved modes start on a rule date. Unchecked, such a start is still the
 *   first occurrence and the rule's dates after it follow.
 * - Later occurrences are computed in local wall time: occurrence k starts on the k-th date of
 *   the rule at dateStart's wall-clock time and ends the same wall-clock span later as dateEnd is
 *   after dateStart ("Sunday 02:00–04:00 Europe/Berlin" is 02:00–04:00 on the local clock every
 *   Sunday). Each start and each end is resolved to UTC on its own, by time-zone.ts's rule (Temporal's
 *   'compatible'): a wall time the clock skips moves forward by the gap, one it shows twice is
 *   its earlier instant. So, in Europe/Berlin:
 *     - spring forward (2027-03-28, 02:00 → 03:00): a 02:30 start is 03:30 CEST (01:30Z); a
 *       02:00–04:00 window is 03:00–04:00 CEST, 1 h; 01:00–03:00 is 01:00 CET–03:00 CEST, 1 h;
 *     - fall back (2027-10-31, 03:00 → 02:00): 02:00–04:00 runs from 02:00 CEST (00:00Z) to
 *       04:00 CET (03:00Z), 3 h; 01:00–02:30 ends at the first 02:30 (CEST), 1 h 30.
 *   The wall-clock span is dateEnd's wall time minus dateStart's; should that not be positive
 *   (a one-off window inside the repeated hour), the exact length is used instead.
 *   An occurrence whose resolved end is not after its resolved start (it starts in the skipped
 *   hour and ends less than the gap after it, e.g. 02:45–03:10) is empty and left out.
 * - UNTIL as a UTC date-time keeps the occurrences whose resolved start is at or before it; as a
 *   date, the occurrences whose date (the rule's local date) is on or before it. UNTIL or COUNT
 *   never removes the first occurrence.
 * - An exdate (local YYYY-MM-DD) removes the occurrence whose rule date it is. Removed
 *   occurrences still count for COUNT (RFC 5545: COUNT builds the set, EXDATE then removes).
 * - Occurrences are not merged: with a span longer than the period they overlap, and each is
 *   returned (the interval maths merges them).
 *
 * - Rules: FREQ DAILY, WEEKLY or MONTHLY; INTERVAL ≤ 99, COUNT ≤ 5000 (not with UNTIL), BYDAY,
 *   BYMONTHDAY, BYSETPOS, WKST, in the combinations ical.js expands correctly (recurrence-rule.ts
 *   lists the ones refused and why); at most 1000 exdates.
 *
 * occurrences(from, to) answers from a cache of the expansion, one block per year of the rule's
 * dates, each built once (a block far in the future is built from an iterator started near it, so
 * year 2100 costs what next year costs); a warm query is two binary searches. Nothing is expanded
 * past 9999-12-31.
 */
import type { Interval } from '../time/interval-ops.js';
import { DAY_MS, toWallClockMs, wallToUtc } from '../time/time-zone.js';
import { zoneClock, type ZoneClock } from './zone-clock.js';
import { LAST_DAY, MAX_EMPTY_YEARS, parseLocalDate, parseRule, ruleDates, yearOfDay, type DateVisitor, type Rule } from './recurrence-rule.js';
import type { RecurrenceInput } from './recurrence-check.js';

export interface Recurring {
  /** The occurrences meeting [from, to), not clipped, ascending by start. */
  occurrences(from: number, to: number): Interval[];
  /** The first `count` occurrences that end after `after` (one in progress at `after` included), ascending. */
  next(after: number, count: number): Interval[];
  /** Start of the first occurrence not removed by an exdate. */
  readonly firstStart: number;
  /** End of the last occurrence; ENDLESS when the rule has no COUNT or UNTIL. */
  readonly lastEnd: number;
}

export { checkRecurrence, checkRecurrenceStart, MAX_EXDATES, MAX_OCCURRENCE_MS, occurrenceSpanProblem, type RecurrenceInput } from './recurrence-check.js';

/**
 * lastEnd of a rule without COUNT or UNTIL: the end of an endless series: the last millisecond of year 9999, so that it is still a date
 * (stored, compared, and shown on the wire as 9999-12-31T23:59:59.999Z) where a bigger number
 * would not be.
 */
export const ENDLESS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** One occurrence of the rule, also those removed (what the calendar file needs). */
export interface Instance {
  /** The rule's wall time (wallClockMs): its date at dateStart's time of day. */
  nominal: number;
  start: number;
  end: number;
  /** Removed by an exdate. */
  excluded: boolean;
}

/** A year's kept occurrences (not removed, not empty): starts and ends, both ascending. */
interface Block {
  starts: number[];
  ends: number[];
}

const EMPTY: Block = { starts: [], ends: [] };
const utcYear = (ms: number): number => new Date(Math.max(-8.64e15, Math.min(8.64e15, ms))).getUTCFullYear();

function block(instances: readonly Instance[]): Block {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const i of instances) {
    if (!i.excluded && i.end > i.start) {
      starts.push(i.start);
      ends.push(i.end);
    }
  }
  return { starts, ends };
}

/** First index whose end is after `t` (ends ascend: consecutive rule dates are at least a day apart). */
function firstEndingAfter(ends: readonly number[], t: number): number {
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A compiled recurrence (compileRecurrence's answer); the calendar file also reads its fields. */
export class RecurringSeries implements Recurring {
  readonly rule: Rule;
  readonly timeZone: string;
  /** dateStart as wallClockMs; its day is the first date. */
  readonly startWall: number;
  readonly startDay: number;
  /** The wall-clock span of every occurrence (ms). */
  readonly span: number;
  /** Whether dateStart's date is a date of the rule (RFC 5545 "synchronized"). */
  readonly synchronized: boolean;
  readonly firstStart: number;
  readonly lastEnd: number;
  /** Every occurrence is removed by an exdate (or left out as empty): the series has none. */
  readonly empty: boolean = false;
  private readonly first: Instance;
  private readonly excluded: Set<number>;
  private readonly scan: (from: number, to: number, visit: DateVisitor) => void;
  private readonly blocks = new Map<number, Block>();
  private clock: ZoneClock | null = null;
  private clockYear = 0;
  /** The year whose first occurrence was resolved without a table. */
  private directYear = Number.NaN;
  /** A COUNT rule's every occurrence, expanded when compiled (COUNT ≤ 5000); null otherwise. */
  private readonly counted: Instance[] | null = null;
  /** No occurrence starts more than this before one that ends after a given instant. */
  private readonly lookback: number;
  private readonly startYear: number;
  private readonly lastYear: number;

  constructor(input: RecurrenceInput, firstStart: number, firstEnd: number) {
    const parsed = parseRule(input.rule);
    if (parsed.rule === undefined) throw new RangeError(`invalid recurrence rule: ${parsed.errors.join('; ')}`);
    this.rule = parsed.rule;
    this.timeZone = input.timeZone;
    this.startWall = toWallClockMs(firstStart, input.timeZone);
    this.startDay = Math.floor(this.startWall / DAY_MS);
    const wallSpan = toWallClockMs(firstEnd, input.timeZone) - this.startWall;
    this.span = wallSpan > 0 ? wallSpan : Math.max(1, firstEnd - firstStart);
    this.excluded = new Set((input.exdates ?? []).map((d) => parseLocalDate(d)).filter((d): d is number => d !== null));
    this.first = { nominal: this.startWall, start: firstStart, end: firstEnd, excluded: this.excluded.has(this.startDay) };
    this.scan = ruleDates(this.rule, this.startDay);
    this.lookback = Math.max(firstEnd - firstStart, this.span) + DAY_MS;
    this.startYear = yearOfDay(this.startDay);
    let synchronized = false;
    this.scan(this.startDay, this.startDay, () => {
      synchronized = true;
      return false;
    });
    this.synchronized = synchronized;

    const until = this.rule.until;
    this.lastYear = until === null ? yearOfDay(LAST_DAY) : until.kind === 'date' ? yearOfDay(until.day) : utcYear(until.utcMs + 2 * DAY_MS);
    if (this.rule.count !== null) {
      const count = this.rule.count;
      const all = [this.first];
      if (count > 1) {
        this.scan(this.startDay + 1, LAST_DAY, (day) => {
          all.push(this.instance(day));
          return all.length < count;
        });
      }
      this.counted = all;
      this.lastYear = yearOfDay(Math.floor(all[all.length - 1]!.nominal / DAY_MS));
    }

    let lastEnd = ENDLESS;
    if (this.rule.count !== null || until !== null) {
      lastEnd = firstEnd; // no occurrence kept: an empty span at the start
      for (let year = this.lastYear; year >= this.startYear; year--) {
        const ends = this.block(year).ends;
        if (ends.length > 0) {
          lastEnd = ends[ends.length - 1]!;
          break;
        }
      }
    }
    this.lastEnd = lastEnd;
    this.firstStart = firstStart;
    if (this.first.excluded) {
      const [firstKept] = this.next(-Infinity, 1);
      if (firstKept !== undefined) this.firstStart = firstKept.start;
      else {
        this.lastEnd = firstStart; // every occurrence removed: an empty series
        this.empty = true;
      }
    }
  }

  /**
   * The occurrence on a rule date after the first. A year's clock table costs a few ms (an Intl
   * call a day): it is built at a year's second occurrence; the first is resolved directly, so a
   * sparse rule (a date every few years) pays a few Intl calls a date, not a table a date.
   */
  private instance(day: number): Instance {
    const year = yearOfDay(day);
    const nominal = day * DAY_MS + (this.startWall - this.startDay * DAY_MS);
    if (this.clock === null || year !== this.clockYear) {
      if (this.directYear !== year) {
        this.directYear = year;
        return { nominal, start: wallToUtc(nominal, this.timeZone), end: wallToUtc(nominal + this.span, this.timeZone), excluded: this.excluded.has(day) };
      }
      this.clock = zoneClock(this.timeZone, year);
      this.clockYear = year;
    }
    return { nominal, start: this.clock.toUtc(nominal), end: this.clock.toUtc(nominal + this.span), excluded: this.excluded.has(day) };
  }

  /** The kept occurrences whose rule date is in `year`, built on first use. */
  private block(year: number): Block {
    let b = this.blocks.get(year);
    if (b !== undefined) return b;
    if (year < this.startYear || year > this.lastYear) return EMPTY;
    b = block(this.expandYear(year));
    this.blocks.set(year, b);
    return b;
  }

  /** Every occurrence whose rule date is in `year`, removed and empty ones included. */
  private expandYear(year: number): Instance[] {
    return this.instancesOnDays(Math.floor(Date.UTC(year, 0, 1) / DAY_MS), Math.floor(Date.UTC(year, 11, 31) / DAY_MS));
  }

  /**
   * Every occurrence whose rule date (a local day number, wallClockMs / DAY_MS) is in [fromDay,
   * toDay], removed and empty ones included; not cached (the calendar file's overrides and
   * EXDATEs, not lookups).
   */
  instancesOnDays(fromDay: number, toDay: number): Instance[] {
    const onDays = (i: Instance): boolean => i.nominal >= fromDay * DAY_MS && i.nominal < (toDay + 1) * DAY_MS;
    if (this.counted !== null) return this.counted.filter(onDays);
    const out: Instance[] = onDays(this.first) ? [this.first] : [];
    const until = this.rule.until;
    const lastDay = until?.kind === 'date' ? Math.min(until.day, LAST_DAY) : LAST_DAY;
    this.scan(Math.max(fromDay, this.startDay + 1), Math.min(toDay, lastDay), (day) => {
      const i = this.instance(day);
      if (until?.kind === 'instant' && i.start > until.utcMs) return false;
      out.push(i);
      return true;
    });
    return out;
  }

  occurrences(from: number, to: number): Interval[] {
    const out: Interval[] = [];
    if (to <= from || to <= this.firstStart || from >= this.lastEnd) return out;
    const last = Math.min(this.lastYear, utcYear(Math.min(to, this.lastEnd) + 2 * DAY_MS));
    for (let year = utcYear(Math.max(from, this.firstStart) - this.lookback - 2 * DAY_MS); year <= last; year++) {
      const { starts, ends } = this.block(year);
      for (let i = firstEndingAfter(ends, from); i < starts.length && starts[i]! < to; i++) out.push({ start: starts[i]!, end: ends[i]! });
    }
    return out;
  }

  next(after: number, count: number): Interval[] {
    const out: Interval[] = [];
    if (count <= 0 || after >= this.lastEnd) return out;
    const last = this.lastEnd === ENDLESS ? this.lastYear : Math.min(this.lastYear, utcYear(this.lastEnd + 2 * DAY_MS));
    let empty = 0;
    for (let year = Math.max(this.startYear, utcYear(after - this.lookback - 2 * DAY_MS)); year <= last && empty < MAX_EMPTY_YEARS; year++) {
      const { starts, ends } = this.block(year);
      let i = firstEndingAfter(ends, after);
      empty = i < starts.length ? 0 : empty + 1;
      for (; i < starts.length && out.length < count; i++) out.push({ start: starts[i]!, end: ends[i]! });
      if (out.length === count) break;
    }
    return out;
  }

  /** The years whose occurrences are cached, ascending (diagnostics and tests: what a query cost). */
  cachedYears(): number[] {
    return [...this.blocks.keys()].sort((a, b) => a - b);
  }
}

/**
 * The occurrences of a recurrence whose first occurrence is [firstStart, firstEnd) (see the file
 * comment). The input must pass checkRecurrence: otherwise this throws a RangeError.
 */
export function compileRecurrence(input: RecurrenceInput, firstStart: number, firstEnd: number): RecurringSeries {
  // One mode is compiled by its command, its coverage and its calendar, often within the same
  // request, and a COUNT rule is expanded whole when compiled (a sparse one to 9999): those are
  // kept, a memo of a pure function (a series only caches what it computed), dropped whole when
  // full. Other rules compile in microseconds and expand what is asked.
  if (!/COUNT=/i.test(input.rule)) return new RecurringSeries(input, firstStart, firstEnd);
  const key = `${input.rule}|${input.timeZone}|${(input.exdates ?? []).join(',')}|${firstStart}|${firstEnd}`;
  let series = compiledSeries.get(key);
  if (series === undefined) {
    series = new RecurringSeries(input, firstStart, firstEnd);
    if (compiledSeries.size >= MAX_COMPILED_SERIES) compiledSeries.clear();
    compiledSeries.set(key, series);
  }
  return series;
}

const compiledSeries = new Map<string, RecurringSeries>();
const MAX_COMPILED_SERIES = 256;

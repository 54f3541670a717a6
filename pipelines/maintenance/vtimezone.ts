/**
 * An RFC 5545 VTIMEZONE for an IANA zone, built from the runtime's own offsets (Intl), so a
 * calendar file says exactly what the server computed with.
 *
 * - One observance per offset change within the range (DTSTART in local time before the change,
 *   TZOFFSETFROM, TZOFFSETTO), the change to the larger offset as DAYLIGHT, to the smaller as
 *   STANDARD; plus one observance at the start of the range holding the offset then (a zone
 *   without changes has only that one, a STANDARD).
 * - A client reading the file for a date past the range would keep the last offset. So when the
 *   range's last two changes are yearly rules ("last Sunday of March at 02:00") that Intl confirms
 *   for the following years, those two observances carry the yearly RRULE.
 */
import ICAL from 'ical.js';
import { DAY_MS, fromWallClockMs, type OffsetSpan } from '../time/time-zone.js';
import { dayOf, weekdayCode, weekdayOf } from './recurrence-rule.js';
import { zoneSpans } from './zone-clock.js';

/** Years after the range over which a yearly rule must match Intl's changes exactly. */
const CONFIRM_YEARS = 6;

interface Change {
  /** The instant of the change. */
  at: number;
  from: number;
  to: number;
}

/** A floating ICAL.Time of a wall time (wallClockMs), to the second. */
export function floatingTime(wall: number): ICAL.Time {
  const f = fromWallClockMs(wall);
  return ICAL.Time.fromData({ year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second, isDate: false });
}

const changesOf = (spans: readonly OffsetSpan[]): Change[] => spans.slice(1).map((s, i) => ({ at: s.start, from: spans[i]!.offsetMs, to: s.offsetMs }));

interface YearlyRule {
  month: number;
  /** -1 = last, 1..4 = n-th. */
  ordinal: number;
  weekday: number;
  /** Local wall time of day before the change, ms. */
  timeOfDay: number;
}

function yearlyRuleOf(change: Change): YearlyRule {
  const wall = change.at + change.from;
  const day = Math.floor(wall / DAY_MS);
  const f = fromWallClockMs(wall);
  const daysInMonth = new Date(Date.UTC(f.year, f.month, 0)).getUTCDate();
  return { month: f.month, ordinal: f.day + 7 > daysInMonth ? -1 : Math.ceil(f.day / 7), weekday: weekdayOf(day), timeOfDay: wall - day * DAY_MS };
}

/** The instant a yearly rule puts the change in `year`, with the offset before it. */
function ruleInstant(rule: YearlyRule, year: number, offsetBefore: number): number {
  const first = dayOf(year, rule.month, 1);
  const last = dayOf(year, rule.month + 1, 0);
  const day = rule.ordinal === -1 ? last - ((weekdayOf(last) - rule.weekday + 7) % 7) : first + ((rule.weekday - weekdayOf(first) + 7) % 7) + (rule.ordinal - 1) * 7;
  return day * DAY_MS + rule.timeOfDay - offsetBefore;
}

/** The yearly rules of the last two changes, when Intl's changes over the next years are exactly theirs. */
function confirmedRules(timeZone: string, changes: readonly Change[], to: number): [YearlyRule, YearlyRule] | null {
  const [a, b] = changes.slice(-2);
  if (a === undefined || b === undefined || b.at - a.at > 366 * DAY_MS || a.to !== b.from || a.from !== b.to) return null;
  const rules: [YearlyRule, YearlyRule] = [yearlyRuleOf(a), yearlyRuleOf(b)];
  const horizon = to + CONFIRM_YEARS * 366 * DAY_MS;
  const actual = changesOf(zoneSpans(timeZone, b.at + 1, horizon));
  const startYear = new Date(b.at).getUTCFullYear();
  const expected: Change[] = [];
  for (let year = startYear; year <= startYear + CONFIRM_YEARS + 1; year++) {
    expected.push({ at: ruleInstant(rules[0], year, a.from), from: a.from, to: a.to }, { at: ruleInstant(rules[1], year, b.from), from: b.from, to: b.to });
  }
  const predicted = expected.filter((c) => c.at > b.at && c.at < horizon).sort((x, y) => x.at - y.at);
  const same = predicted.length === actual.length && predicted.every((c, i) => c.at === actual[i]!.at && c.from === actual[i]!.from && c.to === actual[i]!.to);
  return same ? rules : null;
}

function observance(kind: 'standard' | 'daylight', wall: number, from: number, to: number, rrule?: string): ICAL.Component {
  const c = new ICAL.Component(kind);
  c.addPropertyWithValue('dtstart', floatingTime(wall));
  c.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(from / 1000));
  c.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(to / 1000));
  if (rrule !== undefined) c.addPropertyWithValue('rrule', ICAL.Recur.fromString(rrule));
  return c;
}

/** The zone's VTIMEZONE for [from, to) (see the file comment), and its offset changes there. */
export function buildVtimezone(timeZone: string, from: number, rangeEnd: number): { component: ICAL.Component; changes: number[] } {
  // A year at least, so that a zone's yearly pair of changes is there to be recognised.
  const to = Math.max(rangeEnd, from + 366 * DAY_MS);
  const spans = zoneSpans(timeZone, from, to);
  const changes = changesOf(spans);
  const component = new ICAL.Component('vtimezone');
  component.addPropertyWithValue('tzid', timeZone);
  const initial = spans[0]!.offsetMs;
  const initialKind = changes.length > 0 && changes[0]!.to < initial ? 'daylight' : 'standard';
  // The range's start to the second: a DTSTART is written in whole seconds.
  const startWall = Math.floor((from + initial) / 1000) * 1000;
  component.addSubcomponent(observance(initialKind, startWall, initial, initial));
  const rules = confirmedRules(timeZone, changes, to);
  changes.forEach((c, i) => {
    const rule = rules === null ? undefined : rules[i - (changes.length - 2)];
    const rrule = rule && `FREQ=YEARLY;BYMONTH=${rule.month};BYDAY=${rule.ordinal}${weekdayCode(rule.weekday)}`;
    component.addSubcomponent(observance(c.to > c.from ? 'daylight' : 'standard', c.at + c.from, c.from, c.to, rrule));
  });
  return { component, changes: changes.map((c) => c.at) };
}

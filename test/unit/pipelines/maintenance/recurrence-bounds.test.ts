/**
 * Issue #34: recurrence work bounded by design — sparse rules skipped over by arithmetic, an
 * occurrence no longer than the rule's period (or 31 days), a series with no occurrence left
 * known as empty, and a calendar feed bounded by its horizon rather than by a mode's dates.
 */
import t from 'tap';
import { renderCalendar } from '../../../../pipelines/maintenance/calendar-ics.js';
import { monthlyDatesAtMost, parseRule } from '../../../../pipelines/maintenance/recurrence-rule.js';
import { compileRecurrence, occurrenceSpanProblem } from '../../../../pipelines/maintenance/recurrence.js';
import { DAY_MS } from '../../../../pipelines/time/time-zone.js';

const Z = Date.parse;
const day = (year: number, month: number, date: number): number => Math.floor(Date.UTC(year, month - 1, date) / DAY_MS);

t.test('monthlyDatesAtMost: out of phase, too short, too few of a weekday are 0; otherwise an upper bound', async (t) => {
  const rule = (text: string) => parseRule(text).rule!;
  const start = day(2032, 2, 29);
  const fifthSunday = rule('FREQ=MONTHLY;INTERVAL=12;BYDAY=5SU');
  t.equal(monthlyDatesAtMost(fifthSunday, start, 2032, 2), 1, 'February 2032 has five Sundays');
  t.equal(monthlyDatesAtMost(fifthSunday, start, 2033, 2), 0, 'February 2033 has four');
  t.equal(monthlyDatesAtMost(fifthSunday, start, 2032, 3), 0, 'March is out of the 12-month phase');
  t.equal(monthlyDatesAtMost(rule('FREQ=MONTHLY;BYMONTHDAY=31'), start, 2033, 4), 0, 'April has no 31st');
  // March 2033 starts on a Tuesday: five Tuesdays, Wednesdays and Thursdays, four of the others.
  t.equal(monthlyDatesAtMost(rule('FREQ=MONTHLY;BYDAY=MO,FR'), start, 2033, 3), 8, 'four Mondays and four Fridays');
  t.equal(monthlyDatesAtMost(rule('FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=1,-1,9,10'), start, 2033, 3), 3, 'nine such days: positions 1, -1 and 9, not 10');
  t.equal(monthlyDatesAtMost(rule('FREQ=MONTHLY;BYDAY=5TU,5MO'), start, 2033, 3), 1, 'a fifth Tuesday, no fifth Monday');
});

t.test('the sparse rule of the issue: its dates, found without walking ical.js through every year', async (t) => {
  const input = { rule: 'FREQ=MONTHLY;INTERVAL=12;BYDAY=5SU;COUNT=5000', timeZone: 'Europe/Berlin' };
  const s = compileRecurrence(input, Z('2032-02-29T01:00:00Z'), Z('2032-02-29T03:00:00Z'));
  t.strictSame(
    s.next(0, 6).map((o) => new Date(o.start).toISOString().slice(0, 10)),
    ['2032-02-29', '2060-02-29', '2088-02-29', '2128-02-29', '2156-02-29', '2184-02-29'],
  );
  t.equal(new Date(s.lastEnd).toISOString(), '9976-02-29T03:00:00.000Z', 'COUNT is not reached before 9999: the last one is in 9976');
});

t.test('an occurrence may last the rule period at most, and never more than 31 days', async (t) => {
  const berlin = (rule: string) => ({ rule, timeZone: 'Europe/Berlin' });
  t.equal(occurrenceSpanProblem(berlin('FREQ=DAILY'), Z('2027-10-30T22:00:00Z'), Z('2027-10-31T23:00:00Z')), null, 'a day on the clock, 25 h across the fall-back night');
  t.match(occurrenceSpanProblem(berlin('FREQ=DAILY'), Z('2027-01-01T00:00:00Z'), Z('2067-01-01T00:00:00Z')), { limit: '24 h', why: "the rule's period, FREQ=DAILY" });
  t.equal(occurrenceSpanProblem(berlin('FREQ=WEEKLY;INTERVAL=2'), Z('2027-01-01T00:00:00Z'), Z('2027-01-15T00:00:00Z')), null);
  t.match(occurrenceSpanProblem(berlin('FREQ=MONTHLY;INTERVAL=6'), Z('2027-01-01T00:00:00Z'), Z('2027-02-15T00:00:00Z')), {
    span: '45 days',
    limit: '31 days',
    why: 'the limit for every recurring mode',
  });
});

t.test('a series whose every occurrence is excluded is empty', async (t) => {
  const s = compileRecurrence({ rule: 'FREQ=DAILY;COUNT=1', timeZone: 'UTC', exdates: ['2027-01-01'] }, Z('2027-01-01T10:00:00Z'), Z('2027-01-01T11:00:00Z'));
  t.equal(s.empty, true);
  t.equal(compileRecurrence({ rule: 'FREQ=DAILY;COUNT=2', timeZone: 'UTC', exdates: ['2027-01-01'] }, Z('2027-01-01T10:00:00Z'), Z('2027-01-01T11:00:00Z')).empty, false);
});

t.test('a calendar of a mode saved before the limits, its first occurrence 40 years long, renders in the time of any other', async (t) => {
  const now = Z('2026-11-21T10:00:00Z');
  const event = (uid: string, end: string) => ({
    uid,
    title: uid,
    start: Z('2026-01-01T00:00:00Z'),
    end: Z(end),
    recurrence: { rule: 'FREQ=DAILY', timeZone: 'Europe/Berlin' },
    updatedAt: now,
  });
  renderCalendar([event('warm', '2026-01-01T02:00:00Z')], { name: 'x', now });
  let started = performance.now();
  const plain = renderCalendar([event('plain', '2026-01-01T02:00:00Z')], { name: 'x', now });
  const plainMs = performance.now() - started;
  started = performance.now();
  const long = renderCalendar([event('long', '2066-01-01T00:00:00Z')], { name: 'x', now });
  const longMs = performance.now() - started;
  t.match(long, /RRULE:FREQ=DAILY/);
  t.match(plain, /RRULE:FREQ=DAILY/);
  // It took 10.8 s: 80 offset changes up to its end, each with 14 600 days of occurrences.
  t.ok(longMs < Math.max(10 * plainMs, 1000), `${longMs.toFixed(0)} ms, against ${plainMs.toFixed(0)} ms for a 2-hour mode`);
});

/**
 * Recurring maintenance windows (pipelines/maintenance/recurrence.ts), each case worked by hand:
 * the UTC instants below come from the zones' published rules, not from the code under test.
 *
 * 2027's changes: Europe/Berlin CET +1 → CEST +2 on Sun 03-28 at 01:00Z (02:00 → 03:00 local),
 * back on Sun 10-31 at 01:00Z (03:00 → 02:00). America/New_York EST −5 → EDT −4 on Sun 03-14 at
 * 07:00Z (02:00 → 03:00), back on Sun 11-07 at 06:00Z (02:00 → 01:00). Australia/Sydney AEDT +11
 * → AEST +10 on Sun 04-04 at 03:00 local (04-03 16:00Z, 03:00 → 02:00), AEST → AEDT on Sun 10-03
 * at 02:00 local (10-02 16:00Z, 02:00 → 03:00).
 */
import ICAL from 'ical.js';
import t from 'tap';
import { parseRule, ruleDates } from '../../../../pipelines/maintenance/recurrence-rule.js';
import { checkRecurrence, checkRecurrenceStart, compileRecurrence, ENDLESS, type RecurrenceInput } from '../../../../pipelines/maintenance/recurrence.js';
import { zoneClock } from '../../../../pipelines/maintenance/zone-clock.js';
import { DAY_MS, wallClockMs, wallToUtc } from '../../../../pipelines/time/time-zone.js';

const Z = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad instant ${iso}`);
  return ms;
};
/** Intervals as [startZ, endZ] pairs, for readable expectations. */
const windows = (pairs: Array<[string, string]>) => pairs.map(([start, end]) => ({ start: Z(start), end: Z(end) }));
const weekly = (timeZone: string, exdates?: string[]): RecurrenceInput => ({ rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone, ...(exdates ? { exdates } : {}) });

t.test('Europe/Berlin, Sundays 02:00–04:00 local across both changes of 2027', async (t) => {
  // First occurrence Sun 2027-03-21 02:00–04:00 CET = 01:00Z–03:00Z.
  const s = compileRecurrence(weekly('Europe/Berlin'), Z('2027-03-21T01:00Z'), Z('2027-03-21T03:00Z'));
  t.same(
    s.occurrences(Z('2027-03-20T00:00Z'), Z('2027-04-05T00:00Z')),
    windows([
      ['2027-03-21T01:00Z', '2027-03-21T03:00Z'], // CET, 2 h
      ['2027-03-28T01:00Z', '2027-03-28T02:00Z'], // 02:00 does not exist → 03:00 CEST; ends 04:00 CEST: 1 h
      ['2027-04-04T00:00Z', '2027-04-04T02:00Z'], // CEST, 2 h
    ]),
  );
  t.same(
    s.occurrences(Z('2027-10-23T00:00Z'), Z('2027-11-08T00:00Z')),
    windows([
      ['2027-10-24T00:00Z', '2027-10-24T02:00Z'], // CEST
      ['2027-10-31T00:00Z', '2027-10-31T03:00Z'], // 02:00 CEST (the first 02:00) → 04:00 CET: 3 h
      ['2027-11-07T01:00Z', '2027-11-07T03:00Z'], // CET
    ]),
  );
  t.equal(s.firstStart, Z('2027-03-21T01:00Z'));
  t.equal(s.lastEnd, ENDLESS, 'no COUNT or UNTIL');
});

t.test('Europe/Berlin, a 02:30 start on the spring-forward day moves forward by the gap', async (t) => {
  // Sundays 02:30–04:30 local from 2027-03-21 (01:30Z–03:30Z CET).
  const s = compileRecurrence(weekly('Europe/Berlin'), Z('2027-03-21T01:30Z'), Z('2027-03-21T03:30Z'));
  t.same(
    s.occurrences(Z('2027-03-27T00:00Z'), Z('2027-04-05T00:00Z')),
    windows([
      ['2027-03-28T01:30Z', '2027-03-28T02:30Z'], // 02:30 → 03:30 CEST = 01:30Z, to 04:30 CEST: 1 h
      ['2027-04-04T00:30Z', '2027-04-04T02:30Z'],
    ]),
  );
  // 02:30–03:30 would start at 03:30 CEST and end at 03:30 CEST: empty, so there is none that day.
  const short = compileRecurrence(weekly('Europe/Berlin'), Z('2027-03-21T01:30Z'), Z('2027-03-21T02:30Z'));
  t.same(
    short.occurrences(Z('2027-03-20T00:00Z'), Z('2027-04-05T00:00Z')),
    windows([
      ['2027-03-21T01:30Z', '2027-03-21T02:30Z'],
      ['2027-04-04T00:30Z', '2027-04-04T01:30Z'],
    ]),
  );
});

t.test('America/New_York, Sundays 01:30–03:30 local: the window spans the skipped and the repeated hour', async (t) => {
  // First occurrence Sun 2027-03-07 01:30–03:30 EST = 06:30Z–08:30Z.
  const s = compileRecurrence(weekly('America/New_York'), Z('2027-03-07T06:30Z'), Z('2027-03-07T08:30Z'));
  t.same(
    s.occurrences(Z('2027-03-07T00:00Z'), Z('2027-03-22T00:00Z')),
    windows([
      ['2027-03-07T06:30Z', '2027-03-07T08:30Z'], // EST
      ['2027-03-14T06:30Z', '2027-03-14T07:30Z'], // 01:30 EST → 03:30 EDT: 1 h
      ['2027-03-21T05:30Z', '2027-03-21T07:30Z'], // EDT
    ]),
  );
  t.same(
    s.occurrences(Z('2027-10-31T00:00Z'), Z('2027-11-15T00:00Z')),
    windows([
      ['2027-10-31T05:30Z', '2027-10-31T07:30Z'], // EDT
      ['2027-11-07T05:30Z', '2027-11-07T08:30Z'], // the first 01:30 (EDT) → 03:30 EST: 3 h
      ['2027-11-14T06:30Z', '2027-11-14T08:30Z'], // EST
    ]),
  );
  // A 02:30 start on 03-14 does not exist: 03:30 EDT = 07:30Z.
  const late = compileRecurrence(weekly('America/New_York'), Z('2027-03-07T07:30Z'), Z('2027-03-07T09:30Z'));
  t.same(late.occurrences(Z('2027-03-14T00:00Z'), Z('2027-03-15T00:00Z')), windows([['2027-03-14T07:30Z', '2027-03-14T08:30Z']]));
});

t.test('Australia/Sydney, Sundays 02:00–04:00 local: fall back in April, spring forward in October', async (t) => {
  // First occurrence Sun 2027-03-28 02:00–04:00 AEDT (+11) = 03-27 15:00Z–17:00Z.
  const s = compileRecurrence(weekly('Australia/Sydney'), Z('2027-03-27T15:00Z'), Z('2027-03-27T17:00Z'));
  t.same(
    s.occurrences(Z('2027-03-27T00:00Z'), Z('2027-04-11T00:00Z')),
    windows([
      ['2027-03-27T15:00Z', '2027-03-27T17:00Z'], // AEDT
      ['2027-04-03T15:00Z', '2027-04-03T18:00Z'], // the first 02:00 (AEDT) → 04:00 AEST: 3 h
      ['2027-04-10T16:00Z', '2027-04-10T18:00Z'], // AEST
    ]),
  );
  t.same(
    s.occurrences(Z('2027-09-25T00:00Z'), Z('2027-10-10T00:00Z')),
    windows([
      ['2027-09-25T16:00Z', '2027-09-25T18:00Z'], // AEST
      ['2027-10-02T16:00Z', '2027-10-02T17:00Z'], // 02:00 does not exist → 03:00 AEDT; ends 04:00 AEDT: 1 h
      ['2027-10-09T15:00Z', '2027-10-09T17:00Z'], // AEDT
    ]),
  );
});

t.test('monthly "last Friday", 22:00–23:00 Europe/Berlin, by BYDAY=-1FR and by BYSETPOS', async (t) => {
  // Last Fridays of 2027: 01-29, 02-26, 03-26, 04-30, 05-28, 06-25, 07-30, 08-27, 09-24, 10-29, 11-26, 12-31.
  // 22:00 CET = 21:00Z until 03-28, 22:00 CEST = 20:00Z until 10-31.
  const expected = windows([
    ['2027-01-29T21:00Z', '2027-01-29T22:00Z'],
    ['2027-02-26T21:00Z', '2027-02-26T22:00Z'],
    ['2027-03-26T21:00Z', '2027-03-26T22:00Z'],
    ['2027-04-30T20:00Z', '2027-04-30T21:00Z'],
    ['2027-05-28T20:00Z', '2027-05-28T21:00Z'],
    ['2027-06-25T20:00Z', '2027-06-25T21:00Z'],
    ['2027-07-30T20:00Z', '2027-07-30T21:00Z'],
    ['2027-08-27T20:00Z', '2027-08-27T21:00Z'],
    ['2027-09-24T20:00Z', '2027-09-24T21:00Z'],
    ['2027-10-29T20:00Z', '2027-10-29T21:00Z'],
    ['2027-11-26T21:00Z', '2027-11-26T22:00Z'],
    ['2027-12-31T21:00Z', '2027-12-31T22:00Z'],
  ]);
  const year = [Z('2027-01-01T00:00Z'), Z('2028-01-01T00:00Z')] as const;
  const byDay = compileRecurrence({ rule: 'FREQ=MONTHLY;BYDAY=-1FR', timeZone: 'Europe/Berlin' }, expected[0]!.start, expected[0]!.end);
  t.same(byDay.occurrences(...year), expected);
  const bySetPos = compileRecurrence({ rule: 'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;COUNT=6', timeZone: 'Europe/Berlin' }, expected[0]!.start, expected[0]!.end);
  t.same(bySetPos.occurrences(...year), expected.slice(0, 6), 'COUNT=6: January to June');
  t.equal(bySetPos.lastEnd, Z('2027-06-25T21:00Z'));
  // Last weekday of the month: 2027-01-29 Fri, 02-26 Fri, 03-31 Wed, 04-30 Fri.
  const weekday = compileRecurrence({ rule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', timeZone: 'Europe/Berlin' }, expected[0]!.start, expected[0]!.end);
  t.same(
    weekday.next(year[0], 4),
    windows([
      ['2027-01-29T21:00Z', '2027-01-29T22:00Z'],
      ['2027-02-26T21:00Z', '2027-02-26T22:00Z'],
      ['2027-03-31T20:00Z', '2027-03-31T21:00Z'],
      ['2027-04-30T20:00Z', '2027-04-30T21:00Z'],
    ]),
  );
});

t.test('COUNT counts the first occurrence and removed ones; next() and lastEnd follow it', async (t) => {
  const s = compileRecurrence({ rule: 'FREQ=DAILY;COUNT=3', timeZone: 'UTC' }, Z('2027-05-01T10:00Z'), Z('2027-05-01T11:00Z'));
  t.same(
    s.next(0, 10),
    windows([
      ['2027-05-01T10:00Z', '2027-05-01T11:00Z'],
      ['2027-05-02T10:00Z', '2027-05-02T11:00Z'],
      ['2027-05-03T10:00Z', '2027-05-03T11:00Z'],
    ]),
  );
  t.equal(s.lastEnd, Z('2027-05-03T11:00Z'));
  t.same(s.occurrences(Z('2027-05-03T11:00Z'), Z('2027-06-01T00:00Z')), [], 'nothing after the last');
  // RFC 5545: COUNT makes the set, EXDATE then removes from it: 3 dates, one removed.
  const ex = compileRecurrence({ rule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=3', timeZone: 'Europe/Berlin', exdates: ['2027-03-28'] }, Z('2027-03-21T01:00Z'), Z('2027-03-21T03:00Z'));
  t.same(
    ex.next(0, 10),
    windows([
      ['2027-03-21T01:00Z', '2027-03-21T03:00Z'],
      ['2027-04-04T00:00Z', '2027-04-04T02:00Z'],
    ]),
  );
  t.same(s.next(Z('2027-05-02T10:30Z'), 1), windows([['2027-05-02T10:00Z', '2027-05-02T11:00Z']]), 'next() includes the occurrence in progress');
});

t.test('UNTIL in UTC keeps starts at or before it; UNTIL as a date keeps that local day', async (t) => {
  const first = [Z('2027-03-21T01:00Z'), Z('2027-03-21T03:00Z')] as const;
  const atUntil = compileRecurrence({ rule: 'FREQ=WEEKLY;BYDAY=SU;UNTIL=20270404T000000Z', timeZone: 'Europe/Berlin' }, ...first);
  t.same(atUntil.next(0, 10).length, 3, '04-04 starts at 00:00Z = UNTIL: included');
  t.equal(atUntil.lastEnd, Z('2027-04-04T02:00Z'));
  const before = compileRecurrence({ rule: 'FREQ=WEEKLY;BYDAY=SU;UNTIL=20270403T235959Z', timeZone: 'Europe/Berlin' }, ...first);
  t.equal(before.lastEnd, Z('2027-03-28T02:00Z'));
  const date = compileRecurrence({ rule: 'FREQ=WEEKLY;BYDAY=SU;UNTIL=20270404', timeZone: 'Europe/Berlin' }, ...first);
  t.equal(date.lastEnd, Z('2027-04-04T02:00Z'));
  // Sydney's Sunday 02:00 AEST is Saturday 16:00Z: a date UNTIL counts the local date, not the UTC one.
  const sydney = compileRecurrence({ rule: 'FREQ=WEEKLY;BYDAY=SU;UNTIL=20270410', timeZone: 'Australia/Sydney' }, Z('2027-03-27T15:00Z'), Z('2027-03-27T17:00Z'));
  t.same(
    sydney.next(0, 10).map((o) => o.start),
    [Z('2027-03-27T15:00Z'), Z('2027-04-03T15:00Z')],
    'the 04-11 occurrence (04-10 16:00Z) is after the local date 04-10',
  );
  const lowercase = compileRecurrence({ rule: 'freq=weekly;byday=su;until=20270404t000000z', timeZone: 'Europe/Berlin' }, ...first);
  t.equal(lowercase.lastEnd, Z('2027-04-04T02:00Z'), 'names and values are case-insensitive');
});

t.test('exdates remove the occurrence of that local date, the first one included', async (t) => {
  const s = compileRecurrence(weekly('Europe/Berlin', ['2027-03-21', '2027-04-04']), Z('2027-03-21T01:00Z'), Z('2027-03-21T03:00Z'));
  t.same(
    s.occurrences(Z('2027-03-01T00:00Z'), Z('2027-04-12T00:00Z')),
    windows([
      ['2027-03-28T01:00Z', '2027-03-28T02:00Z'],
      ['2027-04-11T00:00Z', '2027-04-11T02:00Z'],
    ]),
  );
  t.equal(s.firstStart, Z('2027-03-28T01:00Z'), 'the first kept occurrence');
  const gone = compileRecurrence({ rule: 'FREQ=DAILY;COUNT=1', timeZone: 'UTC', exdates: ['2027-05-01'] }, Z('2027-05-01T10:00Z'), Z('2027-05-01T11:00Z'));
  t.same(gone.next(0, 5), []);
  t.equal(gone.lastEnd, gone.firstStart, 'an empty series spans nothing');
});

t.test('INTERVAL=2 weekly, and WKST deciding which weeks count (RFC 5545 §3.8.5.3 examples)', async (t) => {
  const s = compileRecurrence({ rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU', timeZone: 'Europe/Berlin' }, Z('2027-03-21T01:00Z'), Z('2027-03-21T03:00Z'));
  t.same(
    s.next(0, 4).map((o) => o.start),
    [Z('2027-03-21T01:00Z'), Z('2027-04-04T00:00Z'), Z('2027-04-18T00:00Z'), Z('2027-05-02T00:00Z')],
  );
  // DTSTART Tue 1997-08-05 09:00 America/New_York (EDT, 13:00Z).
  const rfc = (wkst: string) =>
    compileRecurrence({ rule: `FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=${wkst}`, timeZone: 'America/New_York' }, Z('1997-08-05T13:00Z'), Z('1997-08-05T14:00Z'))
      .next(0, 10)
      .map((o) => new Date(o.start).toISOString().slice(0, 10));
  t.same(rfc('MO'), ['1997-08-05', '1997-08-10', '1997-08-19', '1997-08-24']);
  t.same(rfc('SU'), ['1997-08-05', '1997-08-17', '1997-08-19', '1997-08-31']);
});

t.test('an endless rule asked about 2100 expands only the years asked, with the same rule', async (t) => {
  const s = compileRecurrence(weekly('Europe/Berlin'), Z('2027-03-21T01:00Z'), Z('2027-03-21T03:00Z'));
  // 2100-03-28 is the last Sunday of March 2100 (2100-01-01 is a Friday; 2100 is not a leap year).
  t.same(
    s.occurrences(Z('2100-03-20T00:00Z'), Z('2100-04-05T00:00Z')),
    windows([
      ['2100-03-21T01:00Z', '2100-03-21T03:00Z'],
      ['2100-03-28T01:00Z', '2100-03-28T02:00Z'],
      ['2100-04-04T00:00Z', '2100-04-04T02:00Z'],
    ]),
  );
  t.same(s.cachedYears(), [2100], 'no year between 2027 and 2100 was expanded');
  // 2101-01-01 is a Saturday: the next Sundays are 01-02 and 01-09 (CET).
  t.same(
    s.next(Z('2100-12-30T00:00Z'), 2),
    windows([
      ['2101-01-02T01:00Z', '2101-01-02T03:00Z'],
      ['2101-01-09T01:00Z', '2101-01-09T03:00Z'],
    ]),
  );
  const monthly = compileRecurrence({ rule: 'FREQ=MONTHLY;INTERVAL=5;BYDAY=2MO', timeZone: 'UTC' }, Z('2027-01-11T00:00Z'), Z('2027-01-11T01:00Z'));
  // Every 5th month from 2027-01: 2099-12 is 875 months later, so the next is 2100-05 (05-01 is a Saturday: second Monday 05-10).
  t.same(monthly.next(Z('2100-01-01T00:00Z'), 1), windows([['2100-05-10T00:00Z', '2100-05-10T01:00Z']]));
});

t.test('the cache answers repeated and nearby questions alike', async (t) => {
  const s = compileRecurrence({ rule: 'FREQ=DAILY', timeZone: 'America/New_York' }, Z('2027-01-01T06:00Z'), Z('2027-01-01T07:00Z'));
  const first = s.occurrences(Z('2027-06-01T00:00Z'), Z('2027-06-02T00:00Z'));
  t.same(first, windows([['2027-06-01T05:00Z', '2027-06-01T06:00Z']]), '01:00 EDT');
  const years = s.cachedYears();
  t.same(s.occurrences(Z('2027-06-01T00:00Z'), Z('2027-06-02T00:00Z')), first);
  t.same(s.cachedYears(), years, 'the second answer came from the cache');
  first[0]!.end = 0;
  t.same(s.occurrences(Z('2027-06-01T00:00Z'), Z('2027-06-02T00:00Z')), windows([['2027-06-01T05:00Z', '2027-06-01T06:00Z']]), 'answers are copies');
  // Meeting [from, to): an occurrence ending at `from` or starting at `to` is out; one holding `from` is in.
  t.same(s.occurrences(Z('2027-06-01T06:00Z'), Z('2027-06-02T05:00Z')), []);
  t.same(s.occurrences(Z('2027-06-01T05:30Z'), Z('2027-06-01T05:31Z')), windows([['2027-06-01T05:00Z', '2027-06-01T06:00Z']]));
  t.same(s.occurrences(Z('2027-12-31T04:00Z'), Z('2028-01-01T07:00Z')).length, 2, 'a window across New Year reads two years');
});

t.test('checkRecurrence: field errors with their paths', async (t) => {
  const ok = { rule: 'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;COUNT=6', timeZone: 'Europe/Berlin', exdates: ['2027-02-26'] };
  t.same(checkRecurrence(ok), []);
  const rule = (text: string) => checkRecurrence({ rule: text, timeZone: 'UTC' });
  t.same(rule('FREQ=YEARLY'), [{ path: '/recurrence/rule', message: 'FREQ=YEARLY is not supported (DAILY, WEEKLY or MONTHLY)' }]);
  t.same(rule('FREQ=DAILY;BYHOUR=2'), [
    { path: '/recurrence/rule', message: 'BYHOUR is not supported (allowed: FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYSETPOS, WKST)' },
  ]);
  t.same(rule('FREQ=DAILY;COUNT=2;UNTIL=20270101'), [{ path: '/recurrence/rule', message: 'COUNT and UNTIL cannot both be given' }]);
  t.same(rule('RRULE:FREQ=DAILY'), [{ path: '/recurrence/rule', message: 'give the value without the "RRULE:" prefix' }]);
  t.same(rule('FREQ=WEEKLY;BYDAY=-1FR'), [{ path: '/recurrence/rule', message: 'BYDAY with an ordinal (e.g. -1FR) needs FREQ=MONTHLY' }]);
  t.same(rule('FREQ=DAILY;UNTIL=20270101T000000'), [{ path: '/recurrence/rule', message: 'UNTIL must be a UTC date-time YYYYMMDDTHHMMSSZ or a date YYYYMMDD, from 1970' }]);
  t.same(rule('FREQ=DAILY;INTERVAL=7;BYDAY=MO').length, 1, 'a DAILY rule that could never match (ical.js would loop)');
  t.same(rule('FREQ=WEEKLY;BYDAY=MO,FR;BYSETPOS=1').length, 1, 'BYSETPOS beside WEEKLY (ical.js ignores it)');
  t.same(rule('FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6').length, 1, 'no month has a sixth Monday');
  t.same(rule('FREQ=MONTHLY;INTERVAL=2;BYDAY=MO;BYMONTHDAY=31').length, 1);
  t.same(rule('FREQ=DAILY;FREQ=DAILY'), [{ path: '/recurrence/rule', message: 'FREQ is given twice' }]);
  t.same(rule('FREQ=DAILY;COUNT=0'), [{ path: '/recurrence/rule', message: 'COUNT must be an integer from 1 to 5000' }]);
  t.same(checkRecurrence({ rule: 'FREQ=DAILY', timeZone: 'Mars/Olympus', exdates: ['2027-01-01', '2027-02-30', 7, '2027-1-1'] }), [
    { path: '/recurrence/timeZone', message: 'is not an IANA time zone this server knows' },
    { path: '/recurrence/exdates/1', message: 'must be a date YYYY-MM-DD' },
    { path: '/recurrence/exdates/2', message: 'must be a date YYYY-MM-DD' },
    { path: '/recurrence/exdates/3', message: 'must be a date YYYY-MM-DD' },
  ]);
  t.same(checkRecurrence({ rule: 'FREQ=DAILY', timeZone: 'UTC', exdates: Array.from({ length: 1001 }, () => '2027-01-01') }), [
    { path: '/recurrence/exdates', message: 'must have at most 1000 dates' },
  ]);
  t.same(checkRecurrence('FREQ=DAILY'), [{ path: '/recurrence', message: 'must be an object with rule, timeZone and optionally exdates' }]);
  t.same(checkRecurrence({ rule: 1, timeZone: null }, '/items/2/recurrence'), [
    { path: '/items/2/recurrence/rule', message: 'must be a string' },
    { path: '/items/2/recurrence/timeZone', message: 'must be a string' },
  ]);
  const zone = (timeZone: string) => checkRecurrence({ rule: 'FREQ=DAILY', timeZone }).map((e) => e.message);
  t.same(zone('+01:00'), ['must be an IANA zone name such as Europe/Berlin, not an offset']);
  t.same(zone('EST'), ['must be an IANA zone name such as Europe/Berlin or UTC, not an abbreviation']);
  t.same(zone('europe/berlin'), ['must be spelt Europe/Berlin']);
  t.same([zone('UTC'), zone('US/Eastern'), zone('Asia/Kolkata')], [[], [], []]);
});

t.test('checkRecurrenceStart: dateStart must be a date of the rule, UNTIL not before it', async (t) => {
  const input = { rule: 'FREQ=MONTHLY;BYDAY=-1FR', timeZone: 'Europe/Berlin' };
  t.same(checkRecurrenceStart(input, Z('2027-01-29T21:00Z')), []);
  t.same(checkRecurrenceStart(input, Z('2027-01-05T21:00Z')), [
    { path: '/dateStart', message: 'is 2027-01-05 (TU) in Europe/Berlin, which is not a date of the rule: the first one on or after it is 2027-01-29' },
  ]);
  // 2027-01-29 23:30Z is already Saturday 00:30 in Berlin.
  t.same(checkRecurrenceStart(input, Z('2027-01-29T23:30Z')).length, 1, 'the local date decides');
  t.same(checkRecurrenceStart({ rule: 'FREQ=DAILY;UNTIL=20270101', timeZone: 'UTC' }, Z('2027-02-01T00:00Z')), [
    { path: '/recurrence/rule', message: 'UNTIL is before dateStart' },
  ]);
  // Unchecked, such a start is still the first occurrence (RFC 5545), then the rule's dates.
  const s = compileRecurrence(input, Z('2027-01-05T21:00Z'), Z('2027-01-05T22:00Z'));
  t.same(
    s.next(0, 2).map((o) => o.start),
    [Z('2027-01-05T21:00Z'), Z('2027-01-29T21:00Z')],
  );
});

t.test('rule dates by year from a near anchor equal ical.js iterating from DTSTART', async (t) => {
  const rules = [
    ['FREQ=DAILY;INTERVAL=3', '2027-02-27'],
    ['FREQ=DAILY;BYDAY=MO,WE,FR', '2027-01-01'],
    ['FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SA;WKST=SU', '2027-01-05'],
    ['FREQ=MONTHLY', '2027-01-31'],
    ['FREQ=MONTHLY;INTERVAL=2;BYDAY=5MO', '2027-08-30'],
    ['FREQ=MONTHLY;INTERVAL=7;BYDAY=SA,SU;BYSETPOS=2,-1', '2027-01-03'],
    ['FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR', '2027-08-13'],
    ['FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=-1', '2028-02-29'],
  ] as const;
  for (const [text, start] of rules) {
    const [y, m, d] = start.split('-').map(Number) as [number, number, number];
    const startDay = wallClockMs({ year: y, month: m, day: d }) / DAY_MS;
    const endDay = startDay + 40 * 366;
    const ours: number[] = [];
    ruleDates(parseRule(text).rule!, startDay)(startDay, endDay, (day) => ours.push(day) > 0);
    const theirs: number[] = [];
    const iterator = ICAL.Recur.fromString(text).iterator(ICAL.Time.fromData({ year: y, month: m, day: d, hour: 0, minute: 0, second: 0 }));
    for (let time = iterator.next(); time !== null; time = iterator.next()) {
      const day = wallClockMs({ year: time.year, month: time.month, day: time.day }) / DAY_MS;
      if (day > endDay) break;
      theirs.push(day);
    }
    t.ok(ours.length > 10, `${text}: ${ours.length} dates`);
    t.same(ours, theirs, text);
  }
});

t.test("a zone's offset table resolves wall times as time-zone.ts does", async (t) => {
  for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'UTC']) {
    const clock = zoneClock(zone, 2027);
    let differ = 0;
    // Every quarter hour of 2027 (and a little beyond), wall times the clock skips and repeats included.
    for (let wall = Date.UTC(2027, 0, 1) - DAY_MS; wall < Date.UTC(2028, 0, 2); wall += 15 * 60_000) if (clock.toUtc(wall) !== wallToUtc(wall, zone)) differ++;
    t.equal(differ, 0, zone);
  }
});

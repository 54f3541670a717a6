/** Working calendar ▸ unattended intervals, in a zone, across DST changes and holidays. */
import t from 'tap';
import { unattendedIntervals, workingIntervals } from '../../../../pipelines/sla/calendar.js';
import { totalLength } from '../../../../pipelines/time/interval-ops.js';
import type { WorkingCalendar } from '../../../../pipelines/sla/sla.types.js';
import { at, H, utc } from './sla-fixture.js';

const span = (from: string, to: string) => ({ start: utc(from), end: utc(to) });
const officeHours = (timeZone: string, holidays: string[] = []): WorkingCalendar => ({
  timeZone,
  week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })),
  holidays,
});

t.test('no calendar: always attended', async (t) => {
  t.strictSame(unattendedIntervals(null, { start: at(0), end: at(24) }), []);
  t.strictSame(workingIntervals(null, { start: at(0), end: at(24) }), [{ start: at(0), end: at(24) }]);
});

t.test('office hours in Europe/Berlin across the March DST change: 09:00 local is 08:00Z, then 07:00Z', async (t) => {
  // Monday 2024-03-25 00:00 CET .. Tuesday 2024-04-02 00:00 CEST; the clocks change on Sunday 31st.
  const range = span('2024-03-24T23:00:00Z', '2024-04-01T22:00:00Z');
  const unattended = unattendedIntervals(officeHours('Europe/Berlin'), range);
  t.strictSame(unattended, [
    span('2024-03-24T23:00:00Z', '2024-03-25T08:00:00Z'),
    span('2024-03-25T17:00:00Z', '2024-03-26T08:00:00Z'),
    span('2024-03-26T17:00:00Z', '2024-03-27T08:00:00Z'),
    span('2024-03-27T17:00:00Z', '2024-03-28T08:00:00Z'),
    span('2024-03-28T17:00:00Z', '2024-03-29T08:00:00Z'),
    span('2024-03-29T17:00:00Z', '2024-04-01T07:00:00Z'), // the weekend, 1 h shorter
    span('2024-04-01T16:00:00Z', '2024-04-01T22:00:00Z'),
  ]);
  t.equal(totalLength(unattended), 191 * H - 6 * 9 * H, 'a 191 h range, six 9 h working days');
});

t.test('office hours in Europe/Berlin across the October DST change: 09:00 local is 07:00Z, then 08:00Z', async (t) => {
  // Friday 2024-10-25 00:00 CEST .. Tuesday 2024-10-29 00:00 CET; the clocks change on Sunday 27th.
  const range = span('2024-10-24T22:00:00Z', '2024-10-28T23:00:00Z');
  const unattended = unattendedIntervals(officeHours('Europe/Berlin'), range);
  t.strictSame(unattended, [
    span('2024-10-24T22:00:00Z', '2024-10-25T07:00:00Z'),
    span('2024-10-25T16:00:00Z', '2024-10-28T08:00:00Z'), // the weekend, 1 h longer
    span('2024-10-28T17:00:00Z', '2024-10-28T23:00:00Z'),
  ]);
  t.equal(totalLength(unattended), 97 * H - 2 * 9 * H);
});

t.test('the spring-forward Sunday: the hour the clock skips is not worked', async (t) => {
  const day = span('2024-03-30T23:00:00Z', '2024-03-31T22:00:00Z'); // 23 h long
  const across: WorkingCalendar = { timeZone: 'Europe/Berlin', week: [{ day: 7, from: '01:00', to: '04:00' }], holidays: [] };
  t.strictSame(workingIntervals(across, day), [span('2024-03-31T00:00:00Z', '2024-03-31T02:00:00Z')], '01:00 CET..04:00 CEST is 2 h');
  t.equal(totalLength(unattendedIntervals(across, day)), 21 * H);
  const inside: WorkingCalendar = {
    timeZone: 'Europe/Berlin',
    week: [
      { day: 7, from: '02:00', to: '03:00' },
      { day: 7, from: '02:30', to: '03:30' },
    ],
    holidays: [],
  };
  t.strictSame(workingIntervals(inside, day), [span('2024-03-31T01:00:00Z', '2024-03-31T01:30:00Z')], '02:00..03:00 never shows; 02:30..03:30 is 03:00..03:30 CEST');
});

t.test('the fall-back Sunday: the hour the clock shows twice is worked twice', async (t) => {
  const day = span('2024-10-26T22:00:00Z', '2024-10-27T23:00:00Z'); // 25 h long
  const across: WorkingCalendar = { timeZone: 'Europe/Berlin', week: [{ day: 7, from: '01:00', to: '04:00' }], holidays: [] };
  t.strictSame(workingIntervals(across, day), [span('2024-10-26T23:00:00Z', '2024-10-27T03:00:00Z')], '01:00 CEST..04:00 CET is 4 h');
  t.equal(totalLength(unattendedIntervals(across, day)), 21 * H);
  const inside: WorkingCalendar = { timeZone: 'Europe/Berlin', week: [{ day: 7, from: '02:00', to: '02:30' }], holidays: [] };
  t.strictSame(
    workingIntervals(inside, day),
    [span('2024-10-27T00:00:00Z', '2024-10-27T00:30:00Z'), span('2024-10-27T01:00:00Z', '2024-10-27T01:30:00Z')],
    '02:00..02:30 CEST and CET',
  );
});

t.test('holidays are unattended for their whole local day', async (t) => {
  // Berlin, the week of Monday 2024-01-01 (a holiday), local midnight to local midnight.
  const range = span('2023-12-31T23:00:00Z', '2024-01-07T23:00:00Z');
  const unattended = unattendedIntervals(officeHours('Europe/Berlin', ['2024-01-01']), range);
  t.strictSame(unattended, [
    span('2023-12-31T23:00:00Z', '2024-01-02T08:00:00Z'),
    span('2024-01-02T17:00:00Z', '2024-01-03T08:00:00Z'),
    span('2024-01-03T17:00:00Z', '2024-01-04T08:00:00Z'),
    span('2024-01-04T17:00:00Z', '2024-01-05T08:00:00Z'),
    span('2024-01-05T17:00:00Z', '2024-01-07T23:00:00Z'),
  ]);
  t.equal(totalLength(unattended), 168 * H - 4 * 9 * H);
});

t.test('24:00 ends the day, overlapping and touching entries join, the range clips', async (t) => {
  const calendar: WorkingCalendar = {
    timeZone: 'UTC',
    week: [
      { day: 1, from: '00:00', to: '12:00' },
      { day: 1, from: '10:00', to: '24:00' },
      { day: 2, from: '00:00', to: '06:00' },
      { day: 3, from: '18:00', to: '08:00' }, // `to` before `from`: empty
    ],
    holidays: [],
  };
  t.strictSame(unattendedIntervals(calendar, { start: at(2), end: at(72) }), [{ start: at(30), end: at(72) }]);
});

t.test('a malformed entry is refused', async (t) => {
  const bad = (entry: { day: number; from: string; to: string }) => () => unattendedIntervals({ timeZone: 'UTC', week: [entry], holidays: [] }, { start: at(0), end: at(24) });
  t.throws(bad({ day: 8, from: '09:00', to: '18:00' }), RangeError);
  t.throws(bad({ day: 1, from: '9:00', to: '18:00' }), RangeError);
  t.throws(bad({ day: 1, from: '09:00', to: '24:30' }), RangeError);
});

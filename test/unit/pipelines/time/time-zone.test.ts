/** Local wall time ↔ UTC with Intl only, across DST changes. */
import t from 'tap';
import { isoUtc } from '../../../../pipelines/sla/iso-time.js';
import { isTimeZone, localToUtc, offsetSpans, parseClock, utcToLocal, zoneOffsetMs } from '../../../../pipelines/time/time-zone.js';
import { H, utc } from '../sla/sla-fixture.js';

t.test('wall time and UTC convert both ways away from DST changes, east and west of UTC', async (t) => {
  t.equal(localToUtc({ year: 2024, month: 1, day: 15, hour: 9 }, 'Europe/Berlin'), utc('2024-01-15T08:00:00Z'), 'CET is UTC+1');
  t.equal(localToUtc({ year: 2024, month: 7, day: 15, hour: 9 }, 'Europe/Berlin'), utc('2024-07-15T07:00:00Z'), 'CEST is UTC+2');
  t.equal(localToUtc({ year: 2024, month: 1, day: 15, hour: 9, minute: 30 }, 'America/New_York'), utc('2024-01-15T14:30:00Z'));
  t.equal(localToUtc({ year: 2024, month: 1, day: 15, hour: 9 }, 'Asia/Kolkata'), utc('2024-01-15T03:30:00Z'), 'half-hour offset');
  t.strictSame(utcToLocal(utc('2024-07-15T07:00:00.123Z'), 'Europe/Berlin'), { year: 2024, month: 7, day: 15, hour: 9, minute: 0, second: 0, millisecond: 123 });
  t.strictSame(utcToLocal(utc('2024-01-01T02:00:00Z'), 'America/New_York'), { year: 2023, month: 12, day: 31, hour: 21, minute: 0, second: 0, millisecond: 0 });
  t.equal(zoneOffsetMs(utc('2024-01-15T00:00:00Z'), 'America/New_York'), -5 * H);
  t.equal(localToUtc({ year: 2024, month: 13, day: 1 }, 'UTC'), utc('2025-01-01T00:00:00Z'), 'fields roll over');
});

t.test('a wall time that does not exist (spring forward) moves forward by the gap', async (t) => {
  // Berlin 2024-03-31: 02:00 CET becomes 03:00 CEST (01:00Z).
  t.equal(localToUtc({ year: 2024, month: 3, day: 31, hour: 2, minute: 30 }, 'Europe/Berlin'), utc('2024-03-31T01:30:00Z'), '02:30 → 03:30 CEST');
  t.equal(localToUtc({ year: 2024, month: 3, day: 31, hour: 1, minute: 59 }, 'Europe/Berlin'), utc('2024-03-31T00:59:00Z'), 'just before: CET');
  t.equal(localToUtc({ year: 2024, month: 3, day: 31, hour: 3 }, 'Europe/Berlin'), utc('2024-03-31T01:00:00Z'), '03:00 CEST');
  // New York 2024-03-10: 02:00 EST becomes 03:00 EDT (07:00Z).
  t.equal(localToUtc({ year: 2024, month: 3, day: 10, hour: 2, minute: 30 }, 'America/New_York'), utc('2024-03-10T07:30:00Z'), '02:30 → 03:30 EDT');
});

t.test('a wall time that exists twice (fall back) is its earlier occurrence', async (t) => {
  // Berlin 2024-10-27: 03:00 CEST becomes 02:00 CET (01:00Z); 02:30 happens at 00:30Z and 01:30Z.
  t.equal(localToUtc({ year: 2024, month: 10, day: 27, hour: 2, minute: 30 }, 'Europe/Berlin'), utc('2024-10-27T00:30:00Z'), '02:30 CEST');
  t.equal(localToUtc({ year: 2024, month: 10, day: 27, hour: 3 }, 'Europe/Berlin'), utc('2024-10-27T02:00:00Z'), '03:00 CET, not ambiguous');
  t.equal(localToUtc({ year: 2024, month: 10, day: 27, hour: 1, minute: 59 }, 'Europe/Berlin'), utc('2024-10-26T23:59:00Z'));
  // New York 2024-11-03: 01:30 happens at 05:30Z (EDT) and 06:30Z (EST).
  t.equal(localToUtc({ year: 2024, month: 11, day: 3, hour: 1, minute: 30 }, 'America/New_York'), utc('2024-11-03T05:30:00Z'), '01:30 EDT');
  t.strictSame(utcToLocal(utc('2024-10-27T01:30:00Z'), 'Europe/Berlin').hour, 2, 'the second 02:30 reads back as 02:30');
});

t.test('offsetSpans cuts a range where the offset changes, to the millisecond', async (t) => {
  const from = utc('2024-03-01T00:00:00Z');
  const to = utc('2024-11-01T00:00:00Z');
  t.strictSame(offsetSpans('Europe/Berlin', from, to), [
    { start: from, end: utc('2024-03-31T01:00:00Z'), offsetMs: H },
    { start: utc('2024-03-31T01:00:00Z'), end: utc('2024-10-27T01:00:00Z'), offsetMs: 2 * H },
    { start: utc('2024-10-27T01:00:00Z'), end: to, offsetMs: H },
  ]);
  t.strictSame(offsetSpans('UTC', from, from + 1000), [{ start: from, end: from + 1000, offsetMs: 0 }]);
  t.strictSame(offsetSpans('UTC', from, from), []);
});

t.test('an unknown zone is rejected', async (t) => {
  t.equal(isTimeZone('Europe/Berlin'), true);
  t.equal(isTimeZone('Mars/Olympus'), false);
  t.throws(() => localToUtc({ year: 2024, month: 1, day: 1 }, 'Mars/Olympus'), RangeError);
});

t.test('HH:mm clock times parse to minutes, 24:00 ends the day, anything else is refused', async (t) => {
  t.equal(parseClock('00:00'), 0);
  t.equal(parseClock('09:30'), 570);
  t.equal(parseClock('24:00'), 1440);
  for (const bad of ['24:01', '9:00', '12:60', '25:00', '']) t.equal(parseClock(bad), null, bad);
});

t.test('isoUtc writes what toISOString writes', async (t) => {
  const samples = [0, 1, 999, utc('2024-02-29T23:59:59.999Z'), utc('2024-03-31T01:00:00.000Z'), utc('9999-12-31T23:59:59.999Z'), -1, utc('1969-07-20T20:17:40Z'), 1.5];
  for (const ms of samples) t.equal(isoUtc(ms), new Date(ms).toISOString(), String(ms));
  let seed = 9;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    const ms = seed * 60_000 + (seed % 60_000);
    if (isoUtc(ms) !== new Date(ms).toISOString()) t.fail(`differs at ${ms}`);
  }
});

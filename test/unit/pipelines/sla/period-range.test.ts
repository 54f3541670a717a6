/** Template periods (spec 2.11) ▸ ranges bounded by local midnights in the zone. */
import t from 'tap';
import { periodRange, SLA_PERIODS, type SlaPeriod } from '../../../../pipelines/sla/period-range.js';
import { H, utc } from './sla-fixture.js';

const span = (from: string, to: string) => ({ start: utc(from), end: utc(to) });

// Sunday 2024-03-31 14:00 CEST, the day Europe/Berlin springs forward (a 23-hour day).
const springSunday = utc('2024-03-31T12:00:00Z');
const expected: Record<SlaPeriod, { start: number; end: number }> = {
  ThisYear: span('2023-12-31T23:00:00Z', '2024-12-31T23:00:00Z'),
  ThisQuarter: span('2023-12-31T23:00:00Z', '2024-03-31T22:00:00Z'),
  ThisMonth: span('2024-02-29T23:00:00Z', '2024-03-31T22:00:00Z'),
  ThisWeek: span('2024-03-24T23:00:00Z', '2024-03-31T22:00:00Z'),
  Today: span('2024-03-30T23:00:00Z', '2024-03-31T22:00:00Z'),
  PreviousYear: span('2022-12-31T23:00:00Z', '2023-12-31T23:00:00Z'),
  PreviousQuarter: span('2023-09-30T22:00:00Z', '2023-12-31T23:00:00Z'),
  PreviousMonth: span('2024-01-31T23:00:00Z', '2024-02-29T23:00:00Z'),
  PreviousWeek: span('2024-03-17T23:00:00Z', '2024-03-24T23:00:00Z'),
  Yesterday: span('2024-03-29T23:00:00Z', '2024-03-30T23:00:00Z'),
};

for (const period of SLA_PERIODS) {
  t.test(`${period}: local midnight to local midnight in the zone, on the spring-forward Sunday`, async (t) => {
    t.strictSame(periodRange(period, 'Europe/Berlin', springSunday), expected[period]);
  });
}

t.test('Today across a DST change is 23 or 25 hours long', async (t) => {
  const spring = periodRange('Today', 'Europe/Berlin', springSunday);
  t.equal(spring.end - spring.start, 23 * H);
  const autumn = periodRange('Today', 'Europe/Berlin', utc('2024-10-27T12:00:00Z'));
  t.strictSame(autumn, span('2024-10-26T22:00:00Z', '2024-10-27T23:00:00Z'));
  t.equal(autumn.end - autumn.start, 25 * H);
  t.strictSame(periodRange('ThisWeek', 'Europe/Berlin', utc('2024-10-27T12:00:00Z')), span('2024-10-20T22:00:00Z', '2024-10-27T23:00:00Z'), 'a week of 169 h');
});

t.test('the local date decides: half past midnight on 1 January local is already the new year', async (t) => {
  const now = utc('2023-12-31T23:30:00Z'); // Monday 2024-01-01 00:30 CET
  t.strictSame(periodRange('ThisYear', 'Europe/Berlin', now), span('2023-12-31T23:00:00Z', '2024-12-31T23:00:00Z'));
  t.strictSame(periodRange('ThisYear', 'UTC', now), span('2023-01-01T00:00:00Z', '2024-01-01T00:00:00Z'), 'in UTC it is still 2023');
  t.strictSame(periodRange('Today', 'Europe/Berlin', now), span('2023-12-31T23:00:00Z', '2024-01-01T23:00:00Z'));
});

t.test('previous periods cross the year boundary', async (t) => {
  const now = utc('2023-12-31T23:30:00Z'); // Monday 2024-01-01 00:30 CET
  t.strictSame(periodRange('PreviousQuarter', 'Europe/Berlin', now), span('2023-09-30T22:00:00Z', '2023-12-31T23:00:00Z'));
  t.strictSame(periodRange('PreviousMonth', 'Europe/Berlin', now), span('2023-11-30T23:00:00Z', '2023-12-31T23:00:00Z'));
  t.strictSame(periodRange('PreviousWeek', 'Europe/Berlin', now), span('2023-12-24T23:00:00Z', '2023-12-31T23:00:00Z'));
  t.strictSame(periodRange('Yesterday', 'Europe/Berlin', now), span('2023-12-30T23:00:00Z', '2023-12-31T23:00:00Z'));
});

t.test('weeks are ISO weeks: Monday belongs to its own week, Sunday to the week that began six days before', async (t) => {
  t.strictSame(periodRange('ThisWeek', 'UTC', utc('2024-01-01T00:00:00Z')), span('2024-01-01T00:00:00Z', '2024-01-08T00:00:00Z'), 'Monday');
  t.strictSame(periodRange('ThisWeek', 'UTC', utc('2024-01-07T23:59:59.999Z')), span('2024-01-01T00:00:00Z', '2024-01-08T00:00:00Z'), 'Sunday');
});

t.test('"This" periods run to the end of the period, not to now', async (t) => {
  const now = utc('2024-05-15T10:00:00Z');
  t.strictSame(periodRange('ThisQuarter', 'UTC', now), span('2024-04-01T00:00:00Z', '2024-07-01T00:00:00Z'));
  t.strictSame(periodRange('ThisMonth', 'UTC', now), span('2024-05-01T00:00:00Z', '2024-06-01T00:00:00Z'));
  t.strictSame(periodRange('Today', 'UTC', now), span('2024-05-15T00:00:00Z', '2024-05-16T00:00:00Z'));
});

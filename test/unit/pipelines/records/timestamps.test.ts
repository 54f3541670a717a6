/**
 * The two conversions every stored record goes through (timestamps.ts): a record's ISO 8601 date
 * to its instant, and an instant to the text ClickHouse's DateTime64(3) reads. Both are made by
 * hand for speed, so each is held to what Date itself answers.
 */
import t from 'tap';
import { clickhouseDateTime, parseTimestamp, STORABLE_YEARS } from '../../../../pipelines/records/timestamps.js';
import { seededRandom } from '../../../support/random.js';

const FIRST = Date.UTC(STORABLE_YEARS.first, 0, 1);
const END = Date.UTC(STORABLE_YEARS.last + 1, 0, 1);
const byDate = (ms: number): string => {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
};

t.test('clickhouseDateTime is Date’s UTC text as YYYY-MM-DD hh:mm:ss.mmm, over every storable year', async (t) => {
  const random = seededRandom(3);
  const instants = [
    FIRST,
    END - 1,
    0,
    -1,
    Date.UTC(2024, 1, 29, 23, 59, 59, 999),
    Date.UTC(2026, 10, 26, 0, 0, 0, 0),
    Date.UTC(2026, 10, 26, 0, 0, 0, 1),
    Date.UTC(1969, 11, 31, 12, 0, 0, 5),
    Date.UTC(2026, 10, 26, 10, 0, 0, 123) + 0.7,
  ];
  for (let i = 0; i < 20_000; i++) instants.push(Math.floor(FIRST + random() * (END - FIRST)));
  // Neighbours too: the cached day and the last answer must not leak into the next instant.
  for (let i = 0; i < 2_000; i++) instants.push(instants[instants.length - 1]! + Math.floor(random() * 3));
  const wrong = instants.filter((ms) => clickhouseDateTime(ms) !== byDate(ms));
  t.same(
    wrong.map((ms) => [ms, clickhouseDateTime(ms), byDate(ms)]),
    [],
    `${instants.length} instants`,
  );
});

t.test('parseTimestamp answers Date.parse for a valid ISO date-time and nothing for the others', async (t) => {
  for (const text of ['2026-11-26T10:00:00Z', '2026-11-26T10:00:00.123+02:00', '1900-01-01T00:00:00Z', '2299-12-31T23:59:59.999Z', '2024-02-29T12:00Z']) {
    t.equal(parseTimestamp(text), Date.parse(text), text);
  }
  for (const text of ['2026-02-30T00:00:00Z', '2026-11-26T24:00:00Z', '2400-01-01T00:00:00Z', '26.11.2026', '', 42]) {
    t.equal(parseTimestamp(text), undefined, String(text));
  }
});

t.test(
  'parseTimestamp reads the common form YYYY-MM-DDThh:mm:ss[.f…]Z as Date.parse does, fractions of 1 to 9 digits cut to the millisecond, over every storable year',
  async (t) => {
    const random = seededRandom(5);
    const texts = ['1900-01-01T00:00:00Z', '2299-12-31T23:59:59.999999999Z', '2024-02-29T23:59:59.5Z', '2000-02-29T00:00:00.05Z', '2026-11-26T10:00:00.1239Z'];
    for (let i = 0; i < 20_000; i++) {
      const iso = new Date(Math.floor(FIRST + random() * (END - FIRST))).toISOString();
      const digits = Math.floor(random() * 10);
      const fraction = digits === 0 ? '' : `.${`${iso.slice(20, 23)}${Math.floor(random() * 1e6)}`.padEnd(9, '7').slice(0, digits)}`;
      texts.push(`${iso.slice(0, 19)}${fraction}Z`);
    }
    const wrong = texts.filter((text) => parseTimestamp(text) !== Date.parse(text));
    t.same(
      wrong.map((text) => [text, parseTimestamp(text), Date.parse(text)]),
      [],
      `${texts.length} date-times`,
    );
  },
);

t.test('parseTimestamp: what is almost the common form is read or refused as before, never misread', async (t) => {
  for (const text of ['2026-11-26T10:00Z', '2026-11-26T10:00:00+00:00', '2026-11-26T10:00:00.123-0130', '2024-02-29T00:00:00Z'])
    t.equal(parseTimestamp(text), Date.parse(text), text);
  for (const text of [
    '2026-11-26T10:00:00.1234567890Z',
    '2026-11-26T10:00:00.Z',
    '2026-11-26t10:00:00Z',
    '2026-11-26T10:00:00z',
    '2026-11-26T10:00:00ZZ',
    '2026-11-26 10:00:00Z',
    '2026-1x-26T10:00:00Z',
    '2026-11-26T10:00:0xZ',
    '2026-11-26T10:00:00.12x4Z',
    '1899-12-31T23:59:59.999Z',
    '2300-01-01T00:00:00Z',
    '0050-01-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-11-00T00:00:00Z',
    '2026-11-26T10:60:00Z',
    '2026-11-26T10:00:60Z',
  ]) {
    t.equal(parseTimestamp(text), undefined, text);
  }
});

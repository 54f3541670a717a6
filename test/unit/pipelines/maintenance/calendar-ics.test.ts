/**
 * The calendar file (pipelines/maintenance/calendar-ics.ts) read back by a real parser: ical.js
 * parses it, takes its VTIMEZONEs, expands each VEVENT with its overrides (and a series' nights
 * sent as events of their own, `<uid>-YYYYMMDD`), and the instants must be the ones
 * recurrence.ts computes for the same mode, across both DST changes of a year. The three parsers
 * of issue #37 read feeds served by the platform in
 * test/integration/maintenance/calendar-feed-parsers.test.ts.
 */
import { spawnSync } from 'node:child_process';
import ICAL from 'ical.js';
import t from 'tap';
import type { CalendarEvent } from '../../../../pipelines/maintenance/calendar-event.js';
import { renderCalendar } from '../../../../pipelines/maintenance/calendar-ics.js';
import { compileRecurrence } from '../../../../pipelines/maintenance/recurrence.js';
import type { Interval } from '../../../../pipelines/time/interval-ops.js';
import { localToUtc } from '../../../../pipelines/time/time-zone.js';
import { PYTHON, pythonMissing } from '../../../support/calendar-parsers.js';

const Z = (iso: string): number => Date.parse(iso);
const NOW = Z('2027-01-01T00:00Z');
const UPDATED = Z('2026-12-01T08:00Z');
/** A year crossing both of 2027's changes in each zone. */
const YEAR: Interval = { start: Z('2027-01-01T00:00Z'), end: Z('2028-03-01T00:00Z') };

function event(uid: string, start: string, end: string, rule?: string, timeZone?: string, exdates?: string[]): CalendarEvent {
  const e: CalendarEvent = { uid, title: `mode ${uid}`, start: Z(start), end: Z(end), updatedAt: UPDATED };
  if (rule !== undefined) e.recurrence = { rule, timeZone: timeZone!, ...(exdates ? { exdates } : {}) };
  return e;
}

/** Every event of the file expanded by ical.js over `range`: uid → intervals meeting it. */
function expand(ics: string, range: Interval, withOverrides = true): Map<string, Interval[]> {
  ICAL.TimezoneService.reset();
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const vevents = calendar.getAllSubcomponents('vevent');
  const out = new Map<string, Interval[]>();
  // Without the overrides: the RECURRENCE-ID overrides and the nights of their own both left out.
  for (const master of vevents.filter((v) => !v.hasProperty('recurrence-id') && (withOverrides || !v.hasProperty('related-to')))) {
    const uid = master.getFirstPropertyValue('uid') as string;
    const exceptions = withOverrides ? vevents.filter((v) => v.hasProperty('recurrence-id') && v.getFirstPropertyValue('uid') === uid) : [];
    const ev = new ICAL.Event(master, { exceptions });
    const found: Interval[] = [];
    const iterator = ev.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = ev.getOccurrenceDetails(next);
      const interval = { start: details.startDate.toUnixTime() * 1000, end: details.endDate.toUnixTime() * 1000 };
      if (interval.start >= range.end) break;
      if (interval.end > range.start) found.push(interval);
    }
    // A night of its own (`<uid>-YYYYMMDD`) is an occurrence of its series.
    const series = uid.replace(/-\d{8}$/, '');
    const all = [...(out.get(series) ?? []), ...found].sort((a, b) => a.start - b.start);
    out.set(series, all);
  }
  return out;
}

const ours = (e: CalendarEvent, range: Interval): Interval[] => compileRecurrence(e.recurrence!, e.start, e.end).occurrences(range.start, range.end);
const count = (ics: string, pattern: RegExp): number => ics.match(new RegExp(pattern.source, `${pattern.flags}g`))?.length ?? 0;

t.test('weekly windows across both DST changes: ical.js reads back what recurrence.ts computes', async (t) => {
  const events = [
    event('berlin', '2027-03-21T01:00Z', '2027-03-21T03:00Z', 'FREQ=WEEKLY;BYDAY=SU', 'Europe/Berlin'), // 02:00–04:00
    event('new-york', '2027-03-07T06:30Z', '2027-03-07T08:30Z', 'FREQ=WEEKLY;BYDAY=SU', 'America/New_York'), // 01:30–03:30
    event('sydney', '2027-03-27T15:00Z', '2027-03-27T17:00Z', 'FREQ=WEEKLY;BYDAY=SU', 'Australia/Sydney'), // 02:00–04:00
  ];
  const ics = renderCalendar(events, { name: 'Maintenance', now: NOW });
  const read = expand(ics, YEAR);
  for (const e of events) {
    const expected = ours(e, YEAR);
    t.ok(expected.length > 45, `${e.uid}: ${expected.length} occurrences`);
    t.same(read.get(e.uid), expected, e.uid);
  }
  // The hand-worked change days (see recurrence.test.ts), as ical.js reads them.
  const has = (uid: string, start: string, end: string) =>
    t.ok(
      read.get(uid)!.some((i) => i.start === Z(start) && i.end === Z(end)),
      `${uid} ${start}–${end}`,
    );
  has('berlin', '2027-03-28T01:00Z', '2027-03-28T02:00Z');
  has('berlin', '2027-10-31T00:00Z', '2027-10-31T03:00Z');
  has('new-york', '2027-03-14T06:30Z', '2027-03-14T07:30Z');
  has('new-york', '2027-11-07T05:30Z', '2027-11-07T08:30Z');
  has('sydney', '2027-04-03T15:00Z', '2027-04-03T18:00Z');
  has('sydney', '2027-10-02T16:00Z', '2027-10-02T17:00Z');
  const bare = expand(ics, YEAR, false);
  for (const e of events) t.notSame(bare.get(e.uid), read.get(e.uid), `${e.uid}: without the overrides ical.js reads the change days otherwise`);
  t.equal(count(ics, /^BEGIN:VTIMEZONE\r$/m), 3, 'one VTIMEZONE per zone');
  t.equal(count(ics, /^RECURRENCE-ID;TZID=/m) + count(ics, /^RELATED-TO:/m), 3 * 4, 'two change days a year per mode, in the two years of the horizon');
  t.equal(count(ics, /^RECURRENCE-ID;TZID=/m), 2, 'an override where the rule wall time exists once: 01:30 in New York in spring');
  t.match(ics, /^DTSTART;TZID=Europe\/Berlin:20270321T020000\r$/m);
  t.match(ics, /^DTEND;TZID=Europe\/Berlin:20270321T040000\r$/m);
  t.match(ics, /^RECURRENCE-ID;TZID=America\/New_York:20270314T013000\r\nDTSTART;TZID=America\/New_York:20270314T013000\r\nDTEND;TZID=America\/New_York:20270314T033000\r$/m);
  // 02:00 on the fall-back night is a wall time the clock shows twice: that night is an event of its own.
  t.match(ics, /^UID:berlin-20271031\r\n(?:.*\r\n)*?RELATED-TO:berlin\r\nDTSTART:20271031T000000Z\r\nDTEND;TZID=Europe\/Berlin:20271031T040000\r$/m);
  t.match(ics, /^RDATE:20270328T010000Z,20271031T000000Z,20280326T010000Z,20281029T000000Z\r\nEXDATE:20270328T000000Z,20270328T010000Z,20271031T000000Z,20271031T010000Z,/m);
});

t.test('COUNT, UNTIL (UTC and date), EXDATE, BYSETPOS and a day left out as empty', async (t) => {
  const events = [
    // Last Friday 22:00–23:00 Berlin, six times.
    event('last-friday', '2027-01-29T21:00Z', '2027-01-29T22:00Z', 'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;COUNT=6', 'Europe/Berlin'),
    // Daily 02:30–03:30 Berlin: on 03-28 it starts at 03:30 CEST and ends then, so that day has none.
    event('daily', '2027-01-01T01:30Z', '2027-01-01T02:30Z', 'FREQ=DAILY;UNTIL=20271231', 'Europe/Berlin', ['2027-06-01', '2027-11-01']),
    event('sydney-until', '2027-03-27T15:00Z', '2027-03-27T17:00Z', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;UNTIL=20271101T000000Z', 'Australia/Sydney'),
    event('ny-monthly', '2027-01-10T06:00Z', '2027-01-10T07:30Z', 'FREQ=MONTHLY;BYMONTHDAY=10,-1', 'America/New_York'),
    // Starts on Tuesday 01-05, not a last Friday: an RDATE, and COUNT as the UNTIL it amounts to.
    event('unsynchronized', '2027-01-05T21:00Z', '2027-01-05T22:00Z', 'FREQ=MONTHLY;BYDAY=-1FR;COUNT=4', 'Europe/Berlin'),
  ];
  const ics = renderCalendar(events, { name: 'Maintenance', now: NOW });
  const read = expand(ics, YEAR);
  for (const e of events) t.same(read.get(e.uid), ours(e, YEAR), e.uid);
  t.equal(read.get('last-friday')!.length, 6);
  t.same(
    read.get('unsynchronized')!.map((i) => i.start),
    [Z('2027-01-05T21:00Z'), Z('2027-01-29T21:00Z'), Z('2027-02-26T21:00Z'), Z('2027-03-26T21:00Z')],
  );
  t.match(ics, /^RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20270326T225959Z\r\nRDATE;TZID=Europe\/Berlin:20270105T220000\r$/m);
  t.equal(read.get('daily')!.length, 365 - 3, 'two exdates and the empty day');
  t.match(ics, /^RRULE:FREQ=DAILY;UNTIL=20271231T225959Z\r$/m, 'a date UNTIL: the end of that local day in UTC');
  t.match(ics, /^EXDATE;TZID=Europe\/Berlin:20270601T023000,20271101T023000\r$/m);
  // 02:30 does not exist on 03-28 (the empty day) and exists twice on 10-31 (a night of its own):
  // both readings of each excluded, the one RFC 5545 gives also added (calendar-series.ts).
  t.match(ics, /^RDATE:20270328T013000Z,20271031T003000Z\r\nEXDATE:20270328T003000Z,20270328T013000Z,20271031T003000Z,20271031T013000Z\r$/m);
});

t.test('zones with odd changes: half-hour DST, changes at midnight, yearly rules that move', async (t) => {
  // Lord Howe shifts by 30 min; Santiago and Havana change at local midnight; Casablanca's
  // changes follow Ramadan, not a yearly rule; Chatham is at +12:45/+13:45. Daily windows at
  // times that meet those changes, read back over two and a half years.
  const range: Interval = { start: Z('2027-01-01T00:00Z'), end: Z('2029-06-01T00:00Z') };
  for (const timeZone of ['Australia/Lord_Howe', 'America/Santiago', 'America/Havana', 'Africa/Casablanca', 'Pacific/Chatham']) {
    for (const [hour, minutes] of [
      [0, 60],
      [1, 120],
      [2, 45],
      [23, 120],
    ] as const) {
      const start = localToUtc({ year: 2027, month: 1, day: 2, hour, minute: 30 }, timeZone);
      const e: CalendarEvent = { uid: `${timeZone} ${hour}`, title: 'x', start, end: start + minutes * 60_000, updatedAt: UPDATED, recurrence: { rule: 'FREQ=DAILY', timeZone } };
      const ics = renderCalendar([e], { name: 'Maintenance', now: Z('2027-06-01T00:00Z') });
      t.same(expand(ics, range).get(e.uid), ours(e, range), e.uid);
    }
  }
});

t.test('a first occurrence on a change day: the master carries the wall-clock span as DURATION', async (t) => {
  // 2027-10-31 02:00 CEST (00:00Z) to 04:00 CET (03:00Z): 3 h exactly, 2 h on the wall clock.
  const e = event('fall-start', '2027-10-31T00:00Z', '2027-10-31T03:00Z', 'FREQ=WEEKLY;BYDAY=SU;COUNT=30', 'Europe/Berlin');
  const ics = renderCalendar([e], { name: 'Maintenance', now: NOW });
  t.match(ics, /^DURATION:PT2H\r$/m);
  const read = expand(ics, YEAR).get('fall-start')!;
  t.same(read, ours(e, YEAR));
  t.same(read.slice(0, 2), [
    { start: Z('2027-10-31T00:00Z'), end: Z('2027-10-31T03:00Z') },
    { start: Z('2027-11-07T01:00Z'), end: Z('2027-11-07T03:00Z') },
  ]);
});

t.test('past the horizon the VTIMEZONE keeps the zone yearly rules', async (t) => {
  const e = event('berlin', '2027-03-21T01:00Z', '2027-03-21T03:00Z', 'FREQ=WEEKLY;BYDAY=SU', 'Europe/Berlin');
  const ics = renderCalendar([e], { name: 'Maintenance', now: NOW, horizonMs: 100 * 86_400_000 });
  t.match(ics, /^RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r$/m);
  t.match(ics, /^RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r$/m);
  // Summer 2031, far past the horizon and away from the change days: CEST, 00:00Z–02:00Z.
  const summer = { start: Z('2031-06-01T00:00Z'), end: Z('2031-07-01T00:00Z') };
  const read = expand(ics, summer).get('berlin')!;
  t.same(read, ours(e, summer));
  t.same(read[0], { start: Z('2031-06-01T00:00Z'), end: Z('2031-06-01T02:00Z') });
});

t.test('one-off and canceled modes; text escaping; the calendar properties', async (t) => {
  const oneOff = { ...event('one-off', '2027-05-01T10:00Z', '2027-05-01T12:00Z'), title: 'DB upgrade; phase 1, part 2', url: 'https://ops.example/maintenance/7' };
  const canceled = { ...event('canceled', '2027-06-01T10:00Z', '2027-06-01T11:00Z', 'FREQ=DAILY;COUNT=2', 'UTC'), canceled: true };
  const ics = renderCalendar([oneOff, canceled], { name: 'Ops, maintenance', now: NOW });
  t.match(ics, /^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:-\/\/opsplatform\/\/Maintenance calendar\/\/EN\r\nCALSCALE:GREGORIAN\r\nX-WR-CALNAME:Ops\\, maintenance\r\n/);
  t.match(ics, /^DTSTART:20270501T100000Z\r\nDTEND:20270501T120000Z\r$/m);
  t.match(ics, /^SUMMARY:DB upgrade\\; phase 1\\, part 2\r$/m);
  t.match(ics, /^DTSTAMP:20261201T080000Z\r$/m);
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const [one, two] = calendar.getAllSubcomponents('vevent');
  t.equal(one!.getFirstPropertyValue('summary'), 'DB upgrade; phase 1, part 2');
  t.equal(one!.getFirstPropertyValue('url'), 'https://ops.example/maintenance/7');
  t.equal(one!.hasProperty('status'), false);
  t.equal(two!.getFirstPropertyValue('status'), 'CANCELLED');
  t.same(expand(ics, YEAR).get('one-off'), [{ start: Z('2027-05-01T10:00Z'), end: Z('2027-05-01T12:00Z') }]);
  t.equal(calendar.getFirstPropertyValue('x-wr-calname'), 'Ops\\, maintenance', 'ical.js leaves an X- property escaped');
});

t.test('CRLF line ends and folding at 75 octets, never inside a UTF-8 sequence', async (t) => {
  const description = `Wartung der Datenbank — Übergang auf die neue Version ${'äöü€𝄞'.repeat(40)}\nzweite Zeile`;
  const e = { ...event('long', '2027-05-01T10:00Z', '2027-05-01T12:00Z'), description, title: 'x'.repeat(200) };
  const exdates = Array.from({ length: 60 }, (_, i) => `2027-${String(4 + Math.floor(i / 28)).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`);
  const ics = renderCalendar([e, event('many-exdates', '2027-03-21T01:00Z', '2027-03-21T03:00Z', 'FREQ=DAILY', 'Europe/Berlin', exdates)], { name: 'M', now: NOW });
  t.ok(ics.endsWith('END:VCALENDAR\r\n'));
  t.notMatch(ics, /[^\r]\n/, 'every line ends in CRLF');
  const lines = ics.split('\r\n').slice(0, -1);
  const long = lines.filter((l) => Buffer.byteLength(l) > 75);
  t.same(long, [], 'no line longer than 75 octets');
  t.ok(lines.filter((l) => l.startsWith(' ')).length > 10, 'long lines were folded');
  const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  t.notOk(
    lines.some((l) => loneSurrogate.test(l)),
    'no character split across lines',
  );
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vevent = calendar.getAllSubcomponents('vevent')[0]!;
  t.equal(vevent.getFirstPropertyValue('description'), description, 'unfolds to the original text');
  t.equal(vevent.getFirstPropertyValue('summary'), 'x'.repeat(200));
  const read = expand(ics, YEAR).get('many-exdates')!;
  const e2 = event('many-exdates', '2027-03-21T01:00Z', '2027-03-21T03:00Z', 'FREQ=DAILY', 'Europe/Berlin', exdates);
  t.same(read.slice(0, 400), ours(e2, YEAR).slice(0, 400));
});

// Debian's python3, which has the module (`python3` on PATH may be another); missing, a skip
// here and a failure under REQUIRE_SERVICES=1 (CI).
const noPython = await pythonMissing();

t.test('python3-icalendar reads the file', { skip: noPython }, async (t) => {
  const events = [
    event('berlin', '2027-03-21T01:00Z', '2027-03-21T03:00Z', 'FREQ=WEEKLY;BYDAY=SU', 'Europe/Berlin', ['2027-04-04']),
    event('one-off', '2027-05-01T10:00Z', '2027-05-01T12:00Z'),
  ];
  const ics = renderCalendar(events, { name: 'Maintenance', now: NOW });
  const script = [
    'import sys, icalendar',
    'cal = icalendar.Calendar.from_ical(sys.stdin.read())',
    'print(len(cal.walk("VTIMEZONE")), len(cal.walk("VEVENT")))',
    'for e in cal.walk("VEVENT"): print(e["UID"], e.decoded("DTSTART").isoformat(), "RECURRENCE-ID" in e)',
  ].join('\n');
  const run = spawnSync(PYTHON, ['-c', script], { input: ics, encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  const [head, ...rows] = run.stdout.trim().split('\n');
  t.equal(head, '1 6', 'one zone; the master, its four change nights and the one-off');
  t.ok(rows[0]?.startsWith('berlin 2027-03-21T02:00:00+01:00 False'), rows[0] ?? 'no row');
});

/**
 * Issue #37: the calendar feed says what the API says, every night. Recurring modes made through
 * the API, in Europe/Berlin, America/New_York and Australia/Sydney (southern hemisphere: clocks go
 * back in April, forward in October), with windows that meet the offset changes: weekly 02:00–04:00
 * (on spring-forward nights 02:00–03:00 does not exist, on fall-back nights 02:00–03:00 happens
 * twice), daily 01:30–02:30, windows across midnight, one that has no window on spring-forward nights,
 * exdates on change nights, a series whose first occurrence is a fall-back night, and the README's
 * Sunday window, which begins in 2030, more than two years after the clock's now. The feed is
 * fetched as a subscribing client fetches it (the URL, no Authorization header) and expanded over
 * each mode's first two years by three parsers (test/support/calendar-parsers.ts): python-icalendar
 * with dateutil, node-ical and ical.js. Every occurrence's UTC start and end must be the one the
 * API's preview gives for the same body and range: 0 differences for each parser.
 *
 * The preview answers at most 100 occurrences from a body's dateStart; for longer ranges it is
 * asked again from the last occurrence it answered that is a plain one (the wall-clock start and
 * span of the first), which, the rule being a wall-clock one, answers the same series from there.
 */
import ICAL from 'ical.js';
import t from 'tap';
import { type Expansion, PARSERS, pythonMissing } from '../../support/calendar-parsers.js';
import { Kit, MAINT } from './maintenance-kit.js';

const DAY = 86_400_000;
const YEARS_2 = 2 * 365 * DAY;
/** The feed's override window either side of now (calendar-ics.ts DEFAULT_HORIZON_MS). */
const HORIZON = YEARS_2;

interface ModeSpec {
  name: string;
  dateStart: string;
  dateEnd: string;
  rule: string;
  timeZone: string;
  exdates?: string[];
}

const SPECS: ModeSpec[] = [
  {
    name: 'README: Sunday 02:00–04:00 Berlin from 2030',
    dateStart: '2030-01-06T02:00:00+01:00',
    dateEnd: '2030-01-06T04:00:00+01:00',
    rule: 'FREQ=WEEKLY;BYDAY=SU',
    timeZone: 'Europe/Berlin',
    exdates: ['2030-12-29'],
  },
  { name: 'daily 01:30–02:30 New York from 2030', dateStart: '2030-10-01T01:30:00-04:00', dateEnd: '2030-10-01T02:30:00-04:00', rule: 'FREQ=DAILY', timeZone: 'America/New_York' },
  { name: 'Sunday 02:00–04:00 Berlin', dateStart: '2026-11-29T02:00:00+01:00', dateEnd: '2026-11-29T04:00:00+01:00', rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
  { name: 'Sunday 02:00–04:00 New York', dateStart: '2026-11-22T02:00:00-05:00', dateEnd: '2026-11-22T04:00:00-05:00', rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'America/New_York' },
  {
    name: 'Sunday 02:00–04:00 Sydney, two change nights excluded',
    dateStart: '2026-11-22T02:00:00+11:00',
    dateEnd: '2026-11-22T04:00:00+11:00',
    rule: 'FREQ=WEEKLY;BYDAY=SU',
    timeZone: 'Australia/Sydney',
    exdates: ['2028-04-02', '2028-10-01'],
  },
  { name: 'daily 01:30–02:30 Berlin', dateStart: '2026-11-22T01:30:00+01:00', dateEnd: '2026-11-22T02:30:00+01:00', rule: 'FREQ=DAILY', timeZone: 'Europe/Berlin' },
  { name: 'daily 01:30–02:30 New York', dateStart: '2026-11-22T01:30:00-05:00', dateEnd: '2026-11-22T02:30:00-05:00', rule: 'FREQ=DAILY', timeZone: 'America/New_York' },
  { name: 'daily 01:30–02:30 Sydney', dateStart: '2026-11-22T01:30:00+11:00', dateEnd: '2026-11-22T02:30:00+11:00', rule: 'FREQ=DAILY', timeZone: 'Australia/Sydney' },
  {
    name: 'daily 22:00–03:30 Sydney, across midnight',
    dateStart: '2026-11-21T22:00:00+11:00',
    dateEnd: '2026-11-22T03:30:00+11:00',
    rule: 'FREQ=DAILY',
    timeZone: 'Australia/Sydney',
  },
  {
    name: 'Saturday 23:00–03:00 Berlin, across midnight',
    dateStart: '2026-11-28T23:00:00+01:00',
    dateEnd: '2026-11-29T03:00:00+01:00',
    rule: 'FREQ=WEEKLY;BYDAY=SA',
    timeZone: 'Europe/Berlin',
  },
  {
    name: 'daily 23:30–02:15 New York, across midnight',
    dateStart: '2026-11-21T23:30:00-05:00',
    dateEnd: '2026-11-22T02:15:00-05:00',
    rule: 'FREQ=DAILY',
    timeZone: 'America/New_York',
  },
  // On spring-forward nights 02:45 becomes 03:45 and 03:10 stays: no window (recurrence.ts).
  {
    name: 'Sunday 02:45–03:10 Berlin, none on spring-forward nights',
    dateStart: '2026-11-29T02:45:00+01:00',
    dateEnd: '2026-11-29T03:10:00+01:00',
    rule: 'FREQ=WEEKLY;BYDAY=SU',
    timeZone: 'Europe/Berlin',
  },
  {
    name: 'last Sunday 02:30–03:30 Berlin, monthly',
    dateStart: '2026-11-29T02:30:00+01:00',
    dateEnd: '2026-11-29T03:30:00+01:00',
    rule: 'FREQ=MONTHLY;BYDAY=-1SU',
    timeZone: 'Europe/Berlin',
  },
  {
    name: 'Sunday 02:00–04:00 Berlin from the fall-back night, 60 times',
    dateStart: '2027-10-31T02:00:00+02:00',
    dateEnd: '2027-10-31T04:00:00+01:00',
    rule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=60',
    timeZone: 'Europe/Berlin',
  },
  {
    name: 'every other Sunday 01:30–03:30 New York until June 2028',
    dateStart: '2026-11-22T01:30:00-05:00',
    dateEnd: '2026-11-22T03:30:00-05:00',
    rule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;UNTIL=20280601T000000Z',
    timeZone: 'America/New_York',
  },
];

interface Occurrence {
  start: string;
  end: string;
}

interface Mode extends ModeSpec {
  id: number;
  from: number;
  to: number;
  /** The API's preview of the body, every occurrence meeting [from, to). */
  expected: Occurrence[];
}

const kit = new Kit();
const noPython = await pythonMissing();
const modes: Mode[] = [];
let feed = '';
let ci: number;

const body = (spec: ModeSpec, dateStart = spec.dateStart, dateEnd = spec.dateEnd) => ({
  title: spec.name,
  dateStart,
  dateEnd,
  configItems: [{ id: ci, scope: 'Ci' }],
  recurrence: { rule: spec.rule, timeZone: spec.timeZone, exdates: spec.exdates ?? [] },
});

const utc = (iso: string): string => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
const meets = (o: Occurrence, from: number, to: number): boolean => Date.parse(o.end) > from && Date.parse(o.start) < to;
/** The wall-clock time of day and span of a preview occurrence, e.g. "02:00 7200000". */
const wallShape = (o: { localStart: string; localEnd: string }): string => `${o.localStart.slice(11)} ${Date.parse(`${o.localEnd}Z`) - Date.parse(`${o.localStart}Z`)}`;

/** Every occurrence the API's preview gives for `spec` meeting [from, to), in chunks of 100 (see the file comment). */
async function previewed(spec: ModeSpec, from: number, to: number): Promise<Occurrence[]> {
  const out = new Map<string, Occurrence>();
  let anchor = body(spec);
  let shape: string | undefined;
  for (;;) {
    const answer = await kit.must(await kit.api('POST', `${MAINT}/preview?occurrences=100`, { json: anchor }), 200, `preview of ${spec.name}`);
    const list = answer.occurrences as Array<{ dateStart: string; dateEnd: string; localStart: string; localEnd: string }>;
    shape ??= wallShape(list[0]!);
    for (const o of list) {
      const occurrence = { start: utc(o.dateStart), end: utc(o.dateEnd) };
      if (meets(occurrence, from, to)) out.set(occurrence.start, occurrence);
    }
    const last = list[list.length - 1]!;
    if (list.length < 100 || Date.parse(last.dateStart) >= to) break;
    if (/COUNT=/.test(spec.rule)) throw new Error(`${spec.name}: a COUNT series is previewed whole (at most 100 occurrences)`);
    const plain = list.findLast((o) => wallShape(o) === shape)!;
    anchor = body(spec, plain.dateStart, plain.dateEnd);
  }
  return [...out.values()].sort((a, b) => (a.start < b.start ? -1 : 1));
}

/** The mode a feed event belongs to: its UID is the mode's, or the mode's with a night's date. */
const modeIdOf = (uid: string): number => Number(/^maintenance-(\d+)(?:-\d{8})?@/.exec(uid)?.[1]);

t.before(async () => {
  await kit.start();
  ci = await kit.ci(await kit.workGroup());
  for (const spec of SPECS) {
    const created = await kit.mode(body(spec));
    const from = Date.parse(created.dateStart);
    const to = from + YEARS_2;
    modes.push({ ...spec, id: created.id, from, to, expected: await previewed(spec, from, to) });
  }
  const issued = await kit.must(await kit.api('POST', `${MAINT}/calendar-feeds`, { json: { name: 'DST nights' } }), 201, 'calendar feed');
  // As a subscribing client: the URL and nothing else.
  const answer = await kit.api('GET', issued.url, { token: null });
  if (answer.status !== 200 || answer.headers.get('content-type') !== 'text/calendar; charset=utf-8') throw new Error(`calendar: ${answer.status} ${answer.text}`);
  feed = answer.text;
});
t.teardown(() => kit.stop());

t.test('the preview answers the hand-worked nights of the issue', async (t) => {
  const night = (name: string, start: string) => modes.find((m) => m.name.startsWith(name))!.expected.find((o) => o.start.startsWith(start));
  // 02:00–04:00 Berlin: on 2030-03-31 02:00–03:00 does not exist, so 03:00–04:00 CEST; on 2030-10-27, 02:00 CEST–04:00 CET.
  t.same(night('README', '2030-03-31'), { start: '2030-03-31T01:00:00Z', end: '2030-03-31T02:00:00Z' });
  t.same(night('README', '2030-10-27'), { start: '2030-10-27T00:00:00Z', end: '2030-10-27T03:00:00Z' });
  t.equal(night('README', '2030-12-29'), undefined, 'the exdate');
  // 01:30 EDT–02:30 EST on 2030-11-03.
  t.same(night('daily 01:30–02:30 New York from 2030', '2030-11-03'), { start: '2030-11-03T05:30:00Z', end: '2030-11-03T07:30:00Z' });
  t.equal(night('Sunday 02:45–03:10 Berlin', '2027-03-28'), undefined, '03:45 CEST to 03:10 CEST: no window that night');
  t.same(night('Sunday 02:45–03:10 Berlin', '2027-10-31'), { start: '2027-10-31T00:45:00Z', end: '2027-10-31T02:10:00Z' }, '02:45 CEST–03:10 CET');
  for (const mode of modes)
    t.ok(mode.expected.length >= (mode.rule.includes('COUNT=60') ? 60 : mode.rule.includes('UNTIL') ? 40 : 23), `${mode.name}: ${mode.expected.length} occurrences`);
});

t.test('the feed writes the change nights out only within each series’ window', async (t) => {
  const calendar = new ICAL.Component(ICAL.parse(feed) as unknown[]);
  const now = kit.clock;
  let written = 0;
  for (const component of calendar.getAllSubcomponents('vevent')) {
    const override = component.getFirstPropertyValue('recurrence-id') as ICAL.Time | null;
    const own = component.hasProperty('related-to');
    if (override === null && !own) continue;
    written++;
    const mode = modes.find((m) => m.id === modeIdOf(String(component.getFirstPropertyValue('uid'))))!;
    const at = (override ?? (component.getFirstPropertyValue('dtstart') as ICAL.Time)).toJSDate().getTime();
    const windowEnd = Math.max(now, mode.from) + HORIZON;
    t.ok(at >= now - HORIZON && at < windowEnd + 2 * DAY, `${mode.name}: ${new Date(at).toISOString()} within its window`);
  }
  t.ok(written > 40, `${written} change nights written out`);
  t.notMatch(feed, /^RRULE:.*COUNT=/m, 'COUNT written as the UNTIL it amounts to');
});

/** Occurrences of a mode in an expansion, meeting its range, sorted. */
function occurrencesOf(expansion: Expansion, mode: Mode): Occurrence[] {
  const out: Occurrence[] = [];
  for (const [uid, list] of expansion.events) if (modeIdOf(uid) === mode.id) out.push(...list.filter((o) => meets(o, mode.from, mode.to)));
  return out.sort((a, b) => (a.start < b.start ? -1 : 1));
}

for (const parser of PARSERS) {
  const skip = parser.name.startsWith('python') ? noPython : false;
  t.test(`${parser.name}: every occurrence over two years of DST changes is the API's`, { skip }, async (t) => {
    const from = Math.min(...modes.map((m) => m.from));
    const to = Math.max(...modes.map((m) => m.to));
    const expansion = await parser.expand(feed, from, to);
    t.same(expansion.unmatched, [], 'every RECURRENCE-ID names an occurrence the parser generates');
    let differences = 0;
    let total = 0;
    for (const mode of modes) {
      const got = occurrencesOf(expansion, mode);
      const expected = new Set(mode.expected.map((o) => `${o.start}/${o.end}`));
      const read = new Set(got.map((o) => `${o.start}/${o.end}`));
      differences += [...expected].filter((o) => !read.has(o)).length + [...read].filter((o) => !expected.has(o)).length + Math.abs(got.length - read.size);
      total += mode.expected.length;
      t.same(got, mode.expected, mode.name);
    }
    t.comment(`${parser.name}: ${differences} differences over ${total} occurrences of ${modes.length} modes`);
    t.equal(differences, 0, `${parser.name}: 0 differences over ${total} occurrences`);
  });
}

/**
 * Maintenance modes as an RFC 5545 calendar file (a subscription feed): the text, no I/O.
 *
 * - VCALENDAR with VERSION, PRODID, CALSCALE and X-WR-CALNAME; one VTIMEZONE per zone a
 *   recurring mode uses, built from the server's own offsets (vtimezone.ts) from the earliest
 *   start of the modes in that zone, or the horizon's start if later, to the horizon's end
 *   (now ± 2 years by default), its last two
 *   changes as yearly rules when the zone keeps them; one VEVENT per mode.
 * - A one-off mode: DTSTART and DTEND in UTC. A canceled mode stays, with STATUS:CANCELLED, so a
 *   client that saw it removes it. DTSTAMP and LAST-MODIFIED are the mode's last change (a feed
 *   has no METHOD, so DTSTAMP is the revision time, RFC 5545 §3.8.7.2).
 * - A recurring mode: DTSTART;TZID at dateStart's wall time, its RRULE, EXDATE;TZID for each
 *   exdate. RFC 5545 gives every instance the master's EXACT duration and resolves a wall time the
 *   clock skips or repeats its own way, and clients differ (ical.js adds the duration on the wall
 *   clock, and takes the later of two repeated times); our windows are wall-clock (recurrence.ts).
 *   On days without an offset change all of these agree. So the master's duration is the
 *   wall-clock span (DTEND;TZID, or DURATION when the first occurrence is itself on a change day),
 *   and each occurrence near an offset change where the readings could differ gets an override
 *   VEVENT (same UID, RECURRENCE-ID;TZID = its rule wall time) with its own DTSTART/DTEND, as
 *   TZID wall times where the wall time exists once, else in UTC. That is done for the first
 *   occurrence and for those within the horizon either side of now; outside it a client applies
 *   its own reading on change days (an hour off at most, on those days only).
 * - The work is bounded by that horizon (issue #34), never by a mode's dates: the changes looked
 *   at are those within the horizon (two years either side of now by default), the occurrences
 *   around each those starting at most 31 days (MAX_OCCURRENCE_MS, the longest occurrence a
 *   recurring mode may have) before it, and the VTIMEZONE covers the horizon only (past its
 *   end a zone's last yearly rules apply; before its start, for a mode that began earlier, its
 *   first observance). A mode saved before the 31-day limit, with a first occurrence of years,
 *   or one that began decades ago, renders in the time of any other.
 * - The RRULE as the mode gives it, except: a date UNTIL becomes the UTC end of that local day
 *   (RFC 5545 requires UTC beside a DTSTART with TZID); an occurrence left out as empty
 *   (recurrence.ts) is an EXDATE; a dateStart that is not a date of the rule is added as an RDATE,
 *   with COUNT turned into the UNTIL it amounts to (RFC 5545 leaves such sets undefined; ical.js
 *   then shows a DAILY rule's start twice).
 * - Lines end in CRLF and are folded at 75 octets, never inside a UTF-8 sequence.
 */
import ICAL from 'ical.js';
import { DAY_MS, toWallClockMs, wallToUtc, zoneOffsetMs } from '../sla/time-zone.js';
import type { Interval } from '../sla/sla.types.js';
import { formatRule, LAST_DAY } from './recurrence-rule.js';
import { compileRecurrence, type Instance, MAX_OCCURRENCE_MS, type RecurrenceInput, type RecurringSeries } from './recurrence.js';
import { buildVtimezone, floatingTime } from './vtimezone.js';

export interface CalendarEvent {
  uid: string;
  title: string;
  description?: string;
  /** The (first) occurrence, epoch ms. */
  start: number;
  end: number;
  recurrence?: RecurrenceInput;
  canceled?: boolean;
  updatedAt: number;
  url?: string;
}

export interface CalendarOptions {
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  now: number;
  /** How far either side of `now` change-day overrides are written, and how far past it time zone changes; default 2 years. */
  horizonMs?: number;
}

export const DEFAULT_HORIZON_MS = 2 * 365 * DAY_MS;
const PRODID = '-//opsplatform//Maintenance calendar//EN';
const FOLD_OCTETS = 75;

const utcTime = (ms: number): ICAL.Time => {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  return ICAL.Time.fromData(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), isDate: false },
    ICAL.Timezone.utcTimezone,
  );
};

/** `YYYYMMDDTHHMMSSZ`. */
const utcStamp = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000)
    .toISOString()
    .replace(/\.000Z$/, 'Z')
    .replace(/[-:]/g, '');

/** The instants a wall time names: one, two (the clock repeats it) or none (the clock skips it). */
function wallInstants(wall: number, timeZone: string): number[] {
  const out: number[] = [];
  for (const probe of [wall - DAY_MS, wall + DAY_MS]) {
    const instant = wall - zoneOffsetMs(probe, timeZone);
    if (!out.includes(instant) && zoneOffsetMs(instant, timeZone) === wall - instant) out.push(instant);
  }
  return out;
}

/** A DATE-TIME property: TZID and the local wall time when that wall time names only this instant, else UTC. */
function addTime(component: ICAL.Component, name: string, instant: number, timeZone: string): void {
  const wall = toWallClockMs(instant, timeZone);
  const named = wallInstants(wall, timeZone);
  if (instant % 1000 === 0 && named.length === 1 && named[0] === instant) {
    component.addPropertyWithValue(name, floatingTime(wall)).setParameter('tzid', timeZone);
  } else {
    component.addPropertyWithValue(name, utcTime(instant));
  }
}

/** Whether every reading of the master gives this instance: both wall times exist once, no change in between. */
function isPlain(instance: Instance, span: number, timeZone: string): boolean {
  const starts = wallInstants(instance.nominal, timeZone);
  const ends = wallInstants(instance.nominal + span, timeZone);
  return starts.length === 1 && starts[0] === instance.start && ends.length === 1 && ends[0] === instance.end && instance.end - instance.start === span;
}

function describe(component: ICAL.Component, event: CalendarEvent): void {
  component.addPropertyWithValue('uid', event.uid);
  component.addPropertyWithValue('dtstamp', utcTime(event.updatedAt));
  component.addPropertyWithValue('last-modified', utcTime(event.updatedAt));
  component.addPropertyWithValue('summary', event.title);
  if (event.description !== undefined) component.addPropertyWithValue('description', event.description);
  if (event.url !== undefined) component.addPropertyWithValue('url', event.url);
  if (event.canceled) component.addPropertyWithValue('status', 'CANCELLED');
}

/** The RRULE text for the file (see the file comment). */
function fileRule(series: RecurringSeries): string {
  const { rule, timeZone } = series;
  const endOfLocalDay = (day: number): number => wallToUtc((day + 1) * DAY_MS, timeZone) - 1000;
  const extra: string[] = [];
  if (rule.count !== null && series.synchronized) extra.push(`COUNT=${rule.count}`);
  else if (rule.count !== null) {
    const all = series.instancesOnDays(series.startDay, LAST_DAY); // a COUNT rule's, all in hand
    extra.push(`UNTIL=${utcStamp(endOfLocalDay(Math.floor(all[all.length - 1]!.nominal / DAY_MS)))}`);
  } else if (rule.until?.kind === 'date') extra.push(`UNTIL=${utcStamp(endOfLocalDay(rule.until.day))}`);
  else if (rule.until?.kind === 'instant') extra.push(`UNTIL=${utcStamp(rule.until.utcMs)}`);
  return formatRule(rule, extra);
}

/**
 * The occurrences that could read differently: the first, and those within two days of an offset
 * change in [from, to) (a change can only make an occurrence near it odd). By rule date, once each.
 */
function occurrencesNearChanges(series: RecurringSeries, changes: readonly number[], from: number, to: number): Instance[] {
  const byNominal = new Map<number, Instance>();
  for (const i of series.instancesOnDays(series.startDay, series.startDay)) byNominal.set(i.nominal, i);
  // Bounded by the longest occurrence a recurring mode may have (recurrence-check.ts): a mode
  // saved before that limit, with a span of years, costs what a 31-day one costs.
  const spanDays = Math.ceil(Math.min(series.span, MAX_OCCURRENCE_MS) / DAY_MS);
  for (const change of changes) {
    if (change < from || change >= to) continue;
    const day = Math.floor(toWallClockMs(change, series.timeZone) / DAY_MS);
    for (const i of series.instancesOnDays(day - spanDays - 2, day + 2)) byNominal.set(i.nominal, i);
  }
  return [...byNominal.values()].sort((a, b) => a.nominal - b.nominal);
}

function recurringEvents(event: CalendarEvent, series: RecurringSeries, changes: readonly number[], window: Interval): ICAL.Component[] {
  const { timeZone, span, startWall } = series;
  const timeOfDay = startWall - series.startDay * DAY_MS;
  const master = new ICAL.Component('vevent');
  describe(master, event);
  master.addPropertyWithValue('dtstart', floatingTime(startWall)).setParameter('tzid', timeZone);
  const near = occurrencesNearChanges(series, changes, window.start, window.end);
  const first = near[0]!;
  if (isPlain(first, span, timeZone)) master.addPropertyWithValue('dtend', floatingTime(startWall + span)).setParameter('tzid', timeZone);
  else master.addPropertyWithValue('duration', ICAL.Duration.fromSeconds(Math.round(span / 1000)));
  master.addPropertyWithValue('rrule', ICAL.Recur.fromString(fileRule(series)));
  if (!series.synchronized) master.addPropertyWithValue('rdate', floatingTime(startWall)).setParameter('tzid', timeZone);

  const overrides: ICAL.Component[] = [];
  const excludedWalls = new Set((event.recurrence?.exdates ?? []).map((d) => Date.parse(`${d}T00:00:00Z`) + timeOfDay));
  for (const instance of near) {
    if (instance.excluded) continue;
    if (instance.end <= instance.start) excludedWalls.add(instance.nominal);
    else if (!isPlain(instance, span, timeZone)) {
      const o = new ICAL.Component('vevent');
      describe(o, event);
      o.addPropertyWithValue('recurrence-id', floatingTime(instance.nominal)).setParameter('tzid', timeZone);
      addTime(o, 'dtstart', instance.start, timeZone);
      addTime(o, 'dtend', instance.end, timeZone);
      overrides.push(o);
    }
  }
  if (excludedWalls.size > 0) {
    const exdate = new ICAL.Property('exdate');
    exdate.setParameter('tzid', timeZone);
    exdate.setValues([...excludedWalls].sort((a, b) => a - b).map(floatingTime));
    master.addProperty(exdate);
  }
  return [master, ...overrides];
}

const utf8Octets = (codePoint: number): number => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/** One content line folded at 75 octets (RFC 5545 §3.1): continuation lines start with a space that counts. */
function fold(line: string): string {
  let out = '';
  let octets = 0;
  for (const ch of line) {
    const n = utf8Octets(ch.codePointAt(0)!);
    if (octets + n > FOLD_OCTETS) {
      out += '\r\n ';
      octets = 1;
    }
    out += ch;
    octets += n;
  }
  return out;
}

/** ical.js folds too, but its continuation lines reach 76 octets with the leading space: unfold and fold again. */
const serialize = (calendar: ICAL.Component): string =>
  calendar
    .toString()
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .map(fold)
    .join('\r\n') + '\r\n';

/** X-WR-CALNAME has no known value type in ical.js, which then writes it unescaped: escape as TEXT. */
const escapeText = (text: string): string => text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** The calendar file of `events` (see the file comment). */
export function renderCalendar(events: readonly CalendarEvent[], options: CalendarOptions): string {
  const horizon = options.horizonMs ?? DEFAULT_HORIZON_MS;
  const horizonEnd = options.now + horizon;
  const window: Interval = { start: options.now - horizon, end: horizonEnd };
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', PRODID);
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('x-wr-calname', escapeText(options.name));

  const compiled = events.map((event) => ({ event, series: event.recurrence ? compileRecurrence(event.recurrence, event.start, event.end) : null }));
  const ranges = new Map<string, { from: number; to: number }>();
  for (const { event, series } of compiled) {
    if (series === null) continue;
    const from = Math.max(event.start, window.start);
    const range = ranges.get(series.timeZone) ?? { from, to: horizonEnd };
    range.from = Math.min(range.from, from);
    range.to = Math.max(range.to, Math.min(event.end, horizonEnd));
    ranges.set(series.timeZone, range);
  }
  const changes = new Map<string, number[]>();
  for (const timeZone of [...ranges.keys()].sort()) {
    const { from, to } = ranges.get(timeZone)!;
    const vtimezone = buildVtimezone(timeZone, from - 2 * DAY_MS, to + 2 * DAY_MS);
    calendar.addSubcomponent(vtimezone.component);
    changes.set(timeZone, vtimezone.changes);
  }

  for (const { event, series } of compiled) {
    if (series !== null) {
      for (const c of recurringEvents(event, series, changes.get(series.timeZone)!, window)) calendar.addSubcomponent(c);
      continue;
    }
    const vevent = new ICAL.Component('vevent');
    describe(vevent, event);
    vevent.addPropertyWithValue('dtstart', utcTime(event.start));
    vevent.addPropertyWithValue('dtend', utcTime(event.end));
    calendar.addSubcomponent(vevent);
  }
  return serialize(calendar);
}

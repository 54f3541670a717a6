/**
 * Maintenance modes as an RFC 5545 calendar file (a subscription feed): the text, no I/O.
 *
 * - VCALENDAR with VERSION, PRODID, CALSCALE and X-WR-CALNAME; one VTIMEZONE per zone a
 *   recurring mode uses, built from the server's own offsets (vtimezone.ts) from the earliest
 *   start of the modes in that zone, or the horizon's start if later, to the horizon's end (now
 *   ± 2 years by default) or `horizon` after that first start, whichever is later, its last two
 *   changes as yearly rules when the zone keeps them; one VEVENT per mode, and for a recurring
 *   mode the nights it writes out (calendar-series.ts).
 * - A one-off mode: DTSTART and DTEND in UTC. A canceled mode stays, with STATUS:CANCELLED, so a
 *   client that saw it removes it. DTSTAMP and LAST-MODIFIED are the mode's last change (a feed
 *   has no METHOD, so DTSTAMP is the revision time, RFC 5545 §3.8.7.2).
 * - A recurring mode: DTSTART;TZID at dateStart's wall time, its RRULE, its wall-clock span as
 *   DTEND;TZID (or DURATION), EXDATEs; and every occurrence that a reader of the RRULE would
 *   place otherwise than the platform (on and around offset changes) written out with the
 *   platform's start and end, as a RECURRENCE-ID override or, where the clock skips or repeats
 *   the night's rule wall time, as an event of its own with the series' instance excluded:
 *   calendar-series.ts says how, and why (read back by python-icalendar + dateutil, node-ical
 *   and ical.js in test/integration/maintenance/calendar-feed-parsers.test.ts, issue #37).
 * - The override window of a series: from `horizon` (two years by default) before now to
 *   `horizon` after now, or after the series' first occurrence when that is later (a series
 *   planned years ahead is right for its first two years when it is published). Past that a
 *   reader applies its own reading on change days (an hour off at most, on those days only); the
 *   feed is fetched again, and the window moves with now.
 * - The work is bounded by those windows (issue #34), however long a mode's series: the changes
 *   looked at are those within a series' window (zone-changes.ts, each zone's year scanned once
 *   per process), the occurrences around each those starting at most 31 days
 *   (MAX_OCCURRENCE_MS, the longest occurrence a recurring mode may have) before it, and the
 *   VTIMEZONE covers the horizon only (past its end a zone's last yearly rules apply; before its
 *   start, for a mode that began earlier, its first observance). A mode saved before the 31-day
 *   limit, with a first occurrence of years, or one that began decades ago, renders in the time
 *   of any other.
 * - The RRULE as the mode gives it, except: COUNT becomes the UNTIL it amounts to and a date
 *   UNTIL the UTC end of that local day (calendar-series.ts fileRule); an occurrence left out as
 *   empty (recurrence.ts) is an EXDATE; a dateStart that is not a date of the rule is added as an
 *   RDATE (RFC 5545 leaves such sets undefined; ical.js then shows a DAILY rule's start twice).
 * - Lines end in CRLF and are folded at 75 octets, never inside a UTF-8 sequence.
 */
import ICAL from 'ical.js';
import type { Interval } from '../time/interval-ops.js';
import { DAY_MS } from '../time/time-zone.js';
import { recurringEvents } from './calendar-series.js';
import { describe, utcTime } from './calendar-vevent.js';
import type { CalendarEvent } from './calendar-event.js';
import { compileRecurrence } from './recurrence.js';
import { buildVtimezone } from './vtimezone.js';

export interface CalendarOptions {
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  now: number;
  /** How far either side of `now` change nights are written out (after the first occurrence of a series that begins later), and how far the VTIMEZONEs reach; default 2 years. */
  horizonMs?: number;
}

export const DEFAULT_HORIZON_MS = 2 * 365 * DAY_MS;
const PRODID = '-//opsplatform//Maintenance calendar//EN';
const FOLD_OCTETS = 75;

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
  for (const timeZone of [...ranges.keys()].sort()) {
    const { from, to } = ranges.get(timeZone)!;
    // A zone whose modes all begin after the horizon: their first `horizon` at least.
    calendar.addSubcomponent(buildVtimezone(timeZone, from - 2 * DAY_MS, Math.max(to, from + horizon) + 2 * DAY_MS).component);
  }

  for (const { event, series } of compiled) {
    if (series !== null) {
      const overrides: Interval = { start: window.start, end: Math.max(options.now, event.start) + horizon };
      for (const c of recurringEvents(event, series, overrides)) calendar.addSubcomponent(c);
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

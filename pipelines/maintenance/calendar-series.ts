/**
 * A recurring mode as VEVENTs (issues #17, #37): the series, and what makes every reader's
 * occurrences the platform's (recurrence.ts), night by night, within the override window.
 *
 * - The master: DTSTART;TZID at dateStart's wall time, the RRULE (fileRule), and the wall-clock
 *   span as its length: DTEND;TZID when the first occurrence is plain, else DURATION. RFC 5545
 *   gives every instance that EXACT length, and readers resolve a wall time the clock skips or
 *   repeats each their own way; our windows keep their wall-clock times. On a plain occurrence
 *   (both wall times exist once, no offset change in between) every reading agrees.
 * - Every other occurrence in the window is written out with the platform's start and end
 *   (as TZID wall times where the wall time exists once, else in UTC):
 *   - when its rule wall time exists once, as a RECURRENCE-ID;TZID override (same UID,
 *     RECURRENCE-ID = that wall time): every reader's RRULE gives it one instant, which is the
 *     one it reads the RECURRENCE-ID as;
 *   - when the clock skips or repeats its rule wall time (02:00 in Berlin on both change nights,
 *     01:30 in New York on the fall-back night), as an event of its own, UID
 *     `<uid's local part>-<YYYYMMDD>@…` (the night's rule date) with RELATED-TO the series, the
 *     series' own instance that night being excluded (below). No RECURRENCE-ID names such a
 *     night for every reader: for a repeated wall time node-ical 0.26's RRULE gives the earlier
 *     instant (as RFC 5545 says) but it reads a TZID value as the later one, as ical.js and
 *     python-icalendar read both; a skipped one, RFC 5545 §3.3.10 also says to drop (later
 *     rrule-temporal releases do), leaving an override nothing to replace.
 * - EXDATE: the exdates, the occurrences left out as empty, and the nights sent as events of
 *   their own. A wall time the clock shows once is an EXDATE;TZID value. One it skips or repeats
 *   is written in UTC, once for each instant a reader may take it for (calendar-vevent.ts
 *   wallReadings; the series has one occurrence a day, so the other instant names none), and
 *   added as an RDATE, in UTC, at the instant RFC 5545 (and the platform) gives it. ical.js 2.2
 *   takes the other instant, and its EXDATE check steps past an excluded instant that is none of
 *   its occurrences without looking at the next one, which stayed; the RDATE gives it that
 *   occurrence to exclude. RRULE ∪ RDATE − EXDATE is then the same set for every reader.
 * - The window is given by the caller (calendar-ics.ts); the occurrences looked at are the
 *   first and those starting at most 31 days (MAX_OCCURRENCE_MS) before an offset change in the
 *   window, up to two days after it. Past the window a reader applies its own reading on change
 *   days (an hour off at most, on those days only).
 */
import ICAL from 'ical.js';
import type { Interval } from '../time/interval-ops.js';
import { DAY_MS, isoDate, wallToUtc } from '../time/time-zone.js';
import type { CalendarEvent } from './calendar-event.js';
import { addTime, describe, utcStamp, utcTime, wallInstants, wallReadings } from './calendar-vevent.js';
import { formatRule, LAST_DAY } from './recurrence-rule.js';
import { type Instance, MAX_OCCURRENCE_MS, type RecurringSeries } from './recurrence.js';
import { floatingTime } from './vtimezone.js';
import { offsetAt, offsetChanges } from './zone-changes.js';

/** Whether every reading of the master gives this instance: both wall times exist once, no change in between. */
function isPlain(instance: Instance, span: number, timeZone: string): boolean {
  const starts = wallInstants(instance.nominal, timeZone);
  const ends = wallInstants(instance.nominal + span, timeZone);
  return starts.length === 1 && starts[0] === instance.start && ends.length === 1 && ends[0] === instance.end && instance.end - instance.start === span;
}

/**
 * The RRULE text for the file: the mode's rule with its COUNT written as the UNTIL it amounts to
 * (the end of the last occurrence's local day, in UTC), and a date UNTIL as the UTC end of that
 * local day (RFC 5545 wants UTC beside a DTSTART with TZID). A COUNT is read differently: RFC
 * 5545 §3.3.10 says an instance at a wall time the clock skips is not counted (later rrule-temporal
 * releases drop it, rrule-temporal#141), where the platform, ical.js and dateutil count it, and
 * node-ical 0.26 gives one occurrence more when DTSTART is a wall time the clock repeats.
 */
function fileRule(series: RecurringSeries): string {
  const { rule, timeZone } = series;
  const endOfLocalDay = (day: number): number => wallToUtc((day + 1) * DAY_MS, timeZone) - 1000;
  const extra: string[] = [];
  if (rule.count !== null) {
    const all = series.instancesOnDays(series.startDay, LAST_DAY); // a COUNT rule's, all in hand
    extra.push(`UNTIL=${utcStamp(endOfLocalDay(Math.floor(all[all.length - 1]!.nominal / DAY_MS)))}`);
  } else if (rule.until?.kind === 'date') extra.push(`UNTIL=${utcStamp(endOfLocalDay(rule.until.day))}`);
  else if (rule.until?.kind === 'instant') extra.push(`UNTIL=${utcStamp(rule.until.utcMs)}`);
  return formatRule(rule, extra);
}

/**
 * The occurrences that could read differently: the first, and those within two days of an offset
 * change in the window (a change can only make an occurrence near it odd). By rule date, once each.
 */
function occurrencesNearChanges(series: RecurringSeries, window: Interval): Instance[] {
  const byNominal = new Map<number, Instance>();
  for (const i of series.instancesOnDays(series.startDay, series.startDay)) byNominal.set(i.nominal, i);
  // Bounded by the longest occurrence a recurring mode may have (recurrence-check.ts): a mode
  // saved before that limit, with a span of years, costs what a 31-day one costs.
  const spanDays = Math.ceil(Math.min(series.span, MAX_OCCURRENCE_MS) / DAY_MS);
  // Changes before the first occurrence or after the series' end can make no occurrence odd.
  const from = Math.max(window.start, series.firstStart - MAX_OCCURRENCE_MS - 2 * DAY_MS);
  const to = Math.min(window.end, series.lastEnd + 2 * DAY_MS);
  for (const change of offsetChanges(series.timeZone, from, to)) {
    const day = Math.floor((change + offsetAt(change, series.timeZone)) / DAY_MS);
    for (const i of series.instancesOnDays(day - spanDays - 2, day + 2)) byNominal.set(i.nominal, i);
  }
  return [...byNominal.values()].sort((a, b) => a.nominal - b.nominal);
}

/** The UID of a night sent as an event of its own: the series' UID with the night's rule date. */
function nightUid(uid: string, nominal: number): string {
  const date = isoDate(nominal).replace(/-/g, '');
  const at = uid.lastIndexOf('@');
  return at === -1 ? `${uid}-${date}` : `${uid.slice(0, at)}-${date}${uid.slice(at)}`;
}

/** The master VEVENT of `event`, its overrides and its nights of their own (see the file comment). */
export function recurringEvents(event: CalendarEvent, series: RecurringSeries, window: Interval): ICAL.Component[] {
  const { timeZone, span, startWall } = series;
  const timeOfDay = startWall - series.startDay * DAY_MS;
  const master = new ICAL.Component('vevent');
  describe(master, event);
  master.addPropertyWithValue('dtstart', floatingTime(startWall)).setParameter('tzid', timeZone);
  const near = occurrencesNearChanges(series, window);
  const first = near[0]!;
  if (isPlain(first, span, timeZone)) master.addPropertyWithValue('dtend', floatingTime(startWall + span)).setParameter('tzid', timeZone);
  else master.addPropertyWithValue('duration', ICAL.Duration.fromSeconds(Math.round(span / 1000)));
  master.addPropertyWithValue('rrule', ICAL.Recur.fromString(fileRule(series)));
  if (!series.synchronized) master.addPropertyWithValue('rdate', floatingTime(startWall)).setParameter('tzid', timeZone);

  // A wall time the clock skips or repeats: readers take it for different instants. Looked up
  // once a wall time (up to 1000 exdates), by its full test only near an offset change.
  const ambiguity = new Map<number, boolean>();
  const ambiguous = (wall: number): boolean => {
    let found = ambiguity.get(wall);
    if (found === undefined) {
      found = offsetAt(wall - DAY_MS, timeZone) !== offsetAt(wall + DAY_MS, timeZone) && wallInstants(wall, timeZone).length !== 1;
      ambiguity.set(wall, found);
    }
    return found;
  };
  const others: ICAL.Component[] = [];
  const excludedWalls = new Set((event.recurrence?.exdates ?? []).map((d) => Date.parse(`${d}T00:00:00Z`) + timeOfDay));
  for (const instance of near) {
    if (instance.excluded) continue;
    if (instance.end <= instance.start) {
      excludedWalls.add(instance.nominal);
      continue;
    }
    if (isPlain(instance, span, timeZone)) continue;
    const o = new ICAL.Component('vevent');
    if (ambiguous(instance.nominal)) {
      excludedWalls.add(instance.nominal);
      describe(o, event, nightUid(event.uid, instance.nominal));
      o.addPropertyWithValue('related-to', event.uid);
    } else {
      describe(o, event);
      o.addPropertyWithValue('recurrence-id', floatingTime(instance.nominal)).setParameter('tzid', timeZone);
    }
    addTime(o, 'dtstart', instance.start, timeZone);
    addTime(o, 'dtend', instance.end, timeZone);
    others.push(o);
  }
  const walls = [...excludedWalls].sort((a, b) => a - b);
  const once = walls.filter((w) => !ambiguous(w));
  if (once.length > 0) {
    const exdate = new ICAL.Property('exdate');
    exdate.setParameter('tzid', timeZone);
    exdate.setValues(once.map(floatingTime));
    master.addProperty(exdate);
  }
  const odd = walls.filter(ambiguous);
  if (odd.length > 0) {
    const rdate = new ICAL.Property('rdate');
    rdate.setValues(odd.map((w) => utcTime(wallToUtc(w, timeZone))));
    master.addProperty(rdate);
    const exdate = new ICAL.Property('exdate');
    exdate.setValues(odd.flatMap((w) => wallReadings(w, timeZone)).map(utcTime));
    master.addProperty(exdate);
  }
  return [master, ...others];
}

/**
 * The properties every VEVENT of the calendar file carries, and date-time values written so that
 * every reader takes the same instant from them (calendar-ics.ts, calendar-series.ts).
 */
import ICAL from 'ical.js';
import { DAY_MS } from '../time/time-zone.js';
import type { CalendarEvent } from './calendar-event.js';
import { floatingTime } from './vtimezone.js';
import { offsetAt } from './zone-changes.js';

export const utcTime = (ms: number): ICAL.Time => {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  return ICAL.Time.fromData(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), isDate: false },
    ICAL.Timezone.utcTimezone,
  );
};

/** `YYYYMMDDTHHMMSSZ`. */
export const utcStamp = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000)
    .toISOString()
    .replace(/\.000Z$/, 'Z')
    .replace(/[-:]/g, '');

/** The instants a wall time names: one, two (the clock repeats it) or none (the clock skips it). */
export function wallInstants(wall: number, timeZone: string): number[] {
  const out: number[] = [];
  for (const probe of [wall - DAY_MS, wall + DAY_MS]) {
    const instant = wall - offsetAt(probe, timeZone);
    if (!out.includes(instant) && offsetAt(instant, timeZone) === wall - instant) out.push(instant);
  }
  return out;
}

/**
 * Every instant a reader may take a wall time for: the wall time read with the offset in force
 * before a change near it and with the one after. One instant for a wall time the clock shows
 * once; for one it repeats, both (RFC 5545 and node-ical's RRULE take the earlier, ical.js and
 * python-icalendar the later); for one it skips, both (RFC 5545, node-ical and python-icalendar
 * read it with the offset before the gap, ical.js with the one after).
 */
export function wallReadings(wall: number, timeZone: string): number[] {
  const readings = [wall - offsetAt(wall - DAY_MS, timeZone), wall - offsetAt(wall + DAY_MS, timeZone)];
  return [...new Set(readings)].sort((a, b) => a - b);
}

/** A DATE-TIME property: TZID and the local wall time when that wall time names only this instant, else UTC. */
export function addTime(component: ICAL.Component, name: string, instant: number, timeZone: string): void {
  const wall = instant + offsetAt(instant, timeZone);
  const named = wallInstants(wall, timeZone);
  if (instant % 1000 === 0 && named.length === 1 && named[0] === instant) {
    component.addPropertyWithValue(name, floatingTime(wall)).setParameter('tzid', timeZone);
  } else {
    component.addPropertyWithValue(name, utcTime(instant));
  }
}

/** UID, stamps, summary, description, URL and status: what every VEVENT of a mode says. */
export function describe(component: ICAL.Component, event: CalendarEvent, uid: string = event.uid): void {
  component.addPropertyWithValue('uid', uid);
  component.addPropertyWithValue('dtstamp', utcTime(event.updatedAt));
  component.addPropertyWithValue('last-modified', utcTime(event.updatedAt));
  component.addPropertyWithValue('summary', event.title);
  if (event.description !== undefined) component.addPropertyWithValue('description', event.description);
  if (event.url !== undefined) component.addPropertyWithValue('url', event.url);
  if (event.canceled) component.addPropertyWithValue('status', 'CANCELLED');
}

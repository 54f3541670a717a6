/**
 * Maintenance modes as calendar events (issue #17), for pipelines/maintenance/calendar-ics.ts.
 * One event per mode: a recurring mode is one event with its rule, so a client shows the series
 * as the mode's own rule says, in its time zone (the renderer adds the nights a daylight-saving
 * change makes readers place otherwise, with the platform's times: calendar-series.ts, issue
 * #37); a canceled mode stays in the feed, marked cancelled, so clients that saw it remove it
 * instead of keeping a stale copy.
 */
import type { CalendarEvent } from '../../../pipelines/maintenance/calendar-event.js';
import { type MaintenanceRecord, modeEnd, type ScopeEntryRecord } from './maintenance.types.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Unique across installations as RFC 5545 asks, and stable for the mode's life: the mode's id
 * with the moment it was created (an installation has no name of its own to put after the @).
 */
export const calendarUid = (mode: MaintenanceRecord): string => `maintenance-${mode.id}@${Date.parse(mode.createdAt)}.opsplatform`;

function entryLine(mode: MaintenanceRecord, entry: ScopeEntryRecord): string {
  const what =
    entry.scope === 'Ci'
      ? `CI ${entry.ciId}`
      : `CI ${entry.ciId} and its descendants (${entry.depth === -1 ? 'all levels' : `${entry.depth} level${entry.depth === 1 ? '' : 's'}`})`;
  // Entries are the scope's history: one added to or removed from a running mode says when.
  const from = entry.start > mode.start ? ` from ${iso(entry.start)}` : '';
  const until = mode.canceledAt === null && entry.end < modeEnd(mode) ? ` until ${iso(entry.end)}` : '';
  return `- ${what}${from}${until}`;
}

function description(mode: MaintenanceRecord): string {
  const lines = [`Maintenance mode ${mode.id}`, 'CIs in scope:', ...mode.entries.map((entry) => entryLine(mode, entry))];
  const labels = Object.entries(mode.labels);
  if (labels.length > 0) lines.push('Labels:', ...labels.map(([key, value]) => `- ${key}: ${value}`));
  return lines.join('\n');
}

const UNTIL_OR_COUNT = /^(UNTIL|COUNT)=/i;

/** `YYYYMMDDTHHMMSSZ`, the form UNTIL takes beside a DTSTART with a time zone (RFC 5545 3.3.10). */
const untilStamp = (ms: number): string =>
  iso(ms)
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

/**
 * The rule as the calendar must show it. A series completed early ends at `seriesEnd`, earlier
 * than its rule says, so its COUNT or UNTIL is replaced by an UNTIL that keeps only the
 * occurrences that began before that moment.
 */
export function effectiveRule(mode: MaintenanceRecord): string | undefined {
  const recurrence = mode.recurrence;
  if (!recurrence) return undefined;
  if (mode.completedAt === null) return recurrence.rule;
  const parts = recurrence.rule.split(';').filter((part) => part !== '' && !UNTIL_OR_COUNT.test(part));
  // Never before the first occurrence, which a series completed the moment it began still has.
  const lastStart = Math.max(Math.floor(mode.start / 1000), Math.floor((recurrence.seriesEnd - 1) / 1000)) * 1000;
  return [...parts, `UNTIL=${untilStamp(lastStart)}`].join(';');
}

export function calendarEventOf(mode: MaintenanceRecord): CalendarEvent {
  const event: CalendarEvent = {
    uid: calendarUid(mode),
    title: mode.title ?? `Maintenance ${mode.id}`,
    description: description(mode),
    start: mode.start,
    end: mode.end,
    updatedAt: Date.parse(mode.updatedAt),
  };
  const rule = effectiveRule(mode);
  if (mode.recurrence && rule !== undefined) event.recurrence = { rule, timeZone: mode.recurrence.timeZone, exdates: mode.recurrence.exdates };
  if (mode.canceledAt !== null) event.canceled = true;
  return event;
}

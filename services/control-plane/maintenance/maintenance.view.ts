/** The wire form of a maintenance mode (spec 2.10): dates in UTC with a `Z` offset and milliseconds. */
import { ENDLESS } from '../../../pipelines/maintenance/recurrence.js';
import type { MaintenanceModeModel, RecurrenceViewModel } from '../../../schemas/maintenance.schema.js';
import { recurringOf } from './maintenance-coverage.js';
import { entryState, type MaintenanceRecord, modeState } from './maintenance.types.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** How many coming occurrences a recurring mode shows. */
export const NEXT_OCCURRENCES = 5;

/** A recurring mode's rule, the occurrence running now and the next ones, cut at the series' end (issue #17). */
function recurrenceView(mode: MaintenanceRecord, now: number): RecurrenceViewModel | undefined {
  const recurring = recurringOf(mode);
  if (!mode.recurrence || !recurring) return undefined;
  const { rule, timeZone, exdates, seriesEnd } = mode.recurrence;
  const live = mode.canceledAt === null && now < seriesEnd;
  const window = (o: { start: number; end: number }) => ({ dateStart: iso(o.start), dateEnd: iso(Math.min(o.end, seriesEnd)) });
  const current = live ? recurring.occurrences(now, now + 1).find((o) => o.start <= now && now < o.end) : undefined;
  const next = live
    ? recurring
        .next(now, NEXT_OCCURRENCES)
        .filter((o) => o.start < seriesEnd)
        .map(window)
    : [];
  return { rule, timeZone, exdates, seriesEnd: seriesEnd >= ENDLESS ? null : iso(seriesEnd), current: current ? window(current) : null, next };
}

export function modeView(mode: MaintenanceRecord, now: number): MaintenanceModeModel {
  const view: MaintenanceModeModel = {
    id: mode.id,
    title: mode.title,
    dateStart: iso(mode.start),
    dateEnd: iso(mode.end),
    state: modeState(mode, now),
    configItems: mode.entries.map((entry) => ({
      id: entry.ciId,
      scope: entry.scope,
      depth: entry.depth,
      state: entryState(mode, entry, now),
      dateStart: iso(entry.start),
      dateEnd: iso(entry.end),
    })),
    labels: mode.labels,
  };
  const recurrence = recurrenceView(mode, now);
  if (recurrence) view.recurrence = recurrence;
  return view;
}

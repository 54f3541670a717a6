/** The wire form of a maintenance mode (spec 2.10): dates in UTC with a `Z` offset and milliseconds. */
import type { MaintenanceModeModel } from '../../../schemas/maintenance.schema.js';
import { entryState, type MaintenanceRecord, modeState } from './maintenance.types.js';

const iso = (ms: number): string => new Date(ms).toISOString();

export function modeView(mode: MaintenanceRecord, now: number): MaintenanceModeModel {
  return {
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
}

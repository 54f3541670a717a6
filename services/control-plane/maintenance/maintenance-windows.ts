/**
 * The windows of maintenance modes within a range (issue #33, the console's calendar): a one-off
 * mode's window, or each occurrence of a recurring one, cut at its series' end (a series
 * completed early ends then). Canceled modes keep their windows, so a calendar can show them
 * struck through. Pure: the route passes the modes the caller may see.
 */
import { recurringOf } from './maintenance-coverage.js';
import type { MaintenanceRecord } from './maintenance.types.js';

export interface ModeWindow {
  mode: MaintenanceRecord;
  start: number;
  end: number;
}

/** Every window meeting [from, to), ascending by start (ties by mode id). */
export function windowsIn(modes: Iterable<MaintenanceRecord>, from: number, to: number): ModeWindow[] {
  const out: ModeWindow[] = [];
  for (const mode of modes) {
    const recurring = recurringOf(mode);
    if (!recurring || !mode.recurrence) {
      if (mode.start < to && mode.end > from) out.push({ mode, start: mode.start, end: mode.end });
      continue;
    }
    const cut = mode.recurrence.seriesEnd;
    if (cut <= from || mode.start >= to) continue;
    for (const o of recurring.occurrences(from, Math.min(to, cut))) out.push({ mode, start: o.start, end: Math.min(o.end, cut) });
  }
  out.sort((a, b) => a.start - b.start || a.mode.id - b.mode.id);
  return out;
}

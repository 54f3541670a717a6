/**
 * The calendar's occurrences: every window of the modes that meets the visible range, recurring
 * modes expanded by the API's own expander (pipelines/maintenance/recurrence.ts, the code the
 * server runs), so the calendar and the API cannot disagree on a DST night. Work is linear in the
 * modes plus the occurrences inside the range: a series only expands the years the range touches,
 * and a compiled series is kept per mode while its recurrence and first window stay the same.
 */
import { compileRecurrence, type RecurringSeries } from '../../../pipelines/maintenance/recurrence.js';
import type { operations } from '../app/api-schema.js';

export type Mode = operations['maintenance.filterModes']['responses'][200]['content']['application/json'][number];

export interface Occurrence {
  mode: Mode;
  start: number;
  end: number;
  canceled: boolean;
}

const compiled = new Map<number, { key: string; series: RecurringSeries | null }>();

function seriesOf(mode: Mode): RecurringSeries | null {
  const r = mode.recurrence;
  if (!r) return null;
  const key = `${r.rule}|${r.timeZone}|${r.exdates.join(',')}|${mode.dateStart}|${mode.dateEnd}`;
  const known = compiled.get(mode.id);
  if (known?.key === key) return known.series;
  let series: RecurringSeries | null;
  try {
    series = compileRecurrence({ rule: r.rule, timeZone: r.timeZone, exdates: r.exdates }, Date.parse(mode.dateStart), Date.parse(mode.dateEnd));
  } catch {
    // A rule this build cannot read (a newer server): the first window still shows.
    series = null;
  }
  compiled.set(mode.id, { key, series });
  return series;
}

/** The windows of `modes` meeting [from, to), ascending by start (ties by mode id). */
export function occurrencesIn(modes: readonly Mode[], from: number, to: number): Occurrence[] {
  const out: Occurrence[] = [];
  for (const mode of modes) {
    const canceled = mode.state === 'Canceled';
    const series = seriesOf(mode);
    if (!series) {
      const start = Date.parse(mode.dateStart);
      const end = Date.parse(mode.dateEnd);
      if (start < to && end > from) out.push({ mode, start, end, canceled });
      continue;
    }
    // A series completed early ends at its seriesEnd; the windows after it never happen.
    const cut = mode.recurrence?.seriesEnd ? Date.parse(mode.recurrence.seriesEnd) : Infinity;
    if (cut <= from) continue;
    for (const o of series.occurrences(from, Math.min(to, cut))) out.push({ mode, start: o.start, end: Math.min(o.end, cut), canceled });
  }
  out.sort((a, b) => a.start - b.start || a.mode.id - b.mode.id);
  return out;
}

/**
 * The occurrences of each day, `dayStarts` being the days' first instants and the range's end
 * (length days + 1). An occurrence is listed on the day it starts (or the first visible day);
 * one that lasts a day or more is also listed on each further day it covers, as a calendar does.
 */
export function byDay(occurrences: readonly Occurrence[], dayStarts: readonly number[]): Occurrence[][] {
  const days: Occurrence[][] = dayStarts.slice(1).map(() => []);
  const dayOf = (t: number): number => {
    let lo = 0;
    let hi = days.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (dayStarts[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (const o of occurrences) {
    const first = dayOf(o.start);
    days[first]!.push(o);
    if (o.end - o.start < 86_400_000) continue;
    for (let d = first + 1; d < days.length && dayStarts[d]! < o.end; d++) days[d]!.push(o);
  }
  return days;
}

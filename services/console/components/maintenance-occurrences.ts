/**
 * The calendar's occurrences, as the API's windows endpoint answers them (GET
 * …/rsm-maintenance/windows): the server expands recurring modes with the code that decides
 * coverage (pipelines/maintenance/recurrence.ts), keeping each series compiled, so the calendar
 * and the API cannot disagree on a DST night and no browser compiles 3 000 rules for a month.
 */
import type { operations } from '../app/api-schema.js';

export type Mode = operations['maintenance.filterModes']['responses'][200]['content']['application/json'][number];
export type Windows = operations['maintenance.windows']['responses'][200]['content']['application/json'];
export type WindowMode = Windows['modes'][number];

export interface Occurrence {
  mode: WindowMode;
  start: number;
  end: number;
  canceled: boolean;
}

/** The answer's windows with their modes, in the answer's order (by start, ties by mode id). */
export function occurrencesOf(answer: Windows): Occurrence[] {
  const modes = new Map(answer.modes.map((m) => [m.id, m]));
  return answer.windows.map((w) => {
    const mode = modes.get(w.modeId)!;
    return { mode, start: Date.parse(w.dateStart), end: Date.parse(w.dateEnd), canceled: mode.state === 'Canceled' };
  });
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

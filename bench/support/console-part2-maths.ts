/**
 * Where the month view's own work goes, outside the browser: the console's turning of the
 * windows answer into each day's entries (services/console/components/maintenance-occurrences.ts
 * `occurrencesOf` + `byDay`, the code the page runs) on the same answer the page gets, timed in
 * this Node process (V8, as Chromium): a first call with the code cold, then warm. The server's
 * expansion is inside the request's time (the API rows of the report).
 */
import { parseDay, rangeOf } from '../../services/console/components/maintenance-calendar-model.js';
import { byDay, occurrencesOf, type Windows } from '../../services/console/components/maintenance-occurrences.js';
import { BENCH_ADMIN_TOKEN } from './problems-api-dataset.js';

export interface MonthMaths {
  modes: number;
  recurring: number;
  occurrences: number;
  /** occurrencesOf + byDay, ms: the first call (code cold), then the median of five (code warm). */
  firstMs: number;
  warmMs: number;
}

/** The month around `date` (YYYY-MM-DD) on this process's clock (the machine's zone, as the browser's). */
export async function monthMaths(origin: string, date: string): Promise<MonthMaths> {
  const range = rangeOf('month', parseDay(date)!, false);
  const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
  const url = `${origin}/api/public/sm/v1/rsm-maintenance/windows?dateFrom=${iso(range.starts[0]!)}&dateTo=${iso(range.starts[range.starts.length - 1]!)}`;
  const answer = await fetch(url, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
  if (answer.status !== 200) throw new Error(`windows: ${answer.status}`);
  const windows = (await answer.json()) as Windows;
  const timed = (): { ms: number; occurrences: number } => {
    const started = performance.now();
    const occurrences = occurrencesOf(windows);
    byDay(occurrences, range.starts);
    return { ms: performance.now() - started, occurrences: occurrences.length };
  };
  const first = timed();
  const warm = Array.from({ length: 5 }, () => timed().ms).sort((a, b) => a - b)[2]!;
  return { modes: windows.modes.length, recurring: windows.modes.filter((m) => m.recurrence).length, occurrences: first.occurrences, firstMs: first.ms, warmMs: warm };
}

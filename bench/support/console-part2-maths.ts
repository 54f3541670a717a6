/**
 * Where the month view's own work goes, outside the browser: the console's occurrence expansion
 * (services/console/components/maintenance-occurrences.ts, the code the page runs, the
 * platform's recurrence expander) on the same API answer the page gets, timed in this Node
 * process (V8, as Chromium). A first call warms the code; the second, on the same modes under
 * new ids, compiles every recurring series again, as a fresh page does; the third finds them in
 * the module's cache, as the page does when it comes back to a month.
 */
import { rangeOf, parseDay } from '../../services/console/components/maintenance-calendar-model.js';
import { byDay, occurrencesIn, type Mode } from '../../services/console/components/maintenance-occurrences.js';
import { BENCH_ADMIN_TOKEN } from './problems-api-dataset.js';

export interface MonthMaths {
  modes: number;
  recurring: number;
  occurrences: number;
  /** occurrencesIn + byDay, ms: the first call (code and series cold), series compiled (code warm), series cached. */
  firstMs: number;
  coldMs: number;
  warmMs: number;
}

/** The month around `date` (YYYY-MM-DD) on this process's clock (the machine's zone, as the browser's). */
export async function monthMaths(origin: string, date: string): Promise<MonthMaths> {
  const range = rangeOf('month', parseDay(date)!, false);
  const to = new Date(range.starts[range.starts.length - 1]!).toISOString();
  const answer = await fetch(`${origin}/api/public/sm/v1/rsm-maintenance/filter?sortCol=dateStart&sortDir=asc&perPage=-1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ dateStart: { lessThanOrEqual: to } }),
  });
  if (answer.status !== 200) throw new Error(`filter: ${answer.status}`);
  const modes = (await answer.json()) as Mode[];
  const from = range.starts[0]!;
  const end = range.starts[range.starts.length - 1]!;
  const timed = (of: Mode[]): { ms: number; occurrences: number } => {
    const started = performance.now();
    const occurrences = occurrencesIn(of, from, end);
    byDay(occurrences, range.starts);
    return { ms: performance.now() - started, occurrences: occurrences.length };
  };
  const first = timed(modes);
  const renamed = modes.map((m) => ({ ...m, id: m.id + 1_000_000 }));
  const cold = timed(renamed);
  const warm = timed(renamed);
  return { modes: modes.length, recurring: modes.filter((m) => m.recurrence).length, occurrences: first.occurrences, firstMs: first.ms, coldMs: cold.ms, warmMs: warm.ms };
}

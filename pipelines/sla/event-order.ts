/**
 * The order of event rows: by start, then problem id, then (for rows of equal start and id) the
 * CI id. Each CI's rows are sorted on their own, then the report sorts all of them by numeric
 * key (comparing the ISO strings instead costs about twice as much for a million rows).
 */
import type { SlaEventRowModel } from '../../schemas/sla-export.schema.js';

/** A CI's event rows sorted by (start, id), with their starts as epoch milliseconds. */
export interface SortedEvents {
  ciId: number;
  rows: SlaEventRowModel[];
  starts: number[];
}

const idOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts rows (with their starts) of one CI. */
export function sortEvents(ciId: number, rows: SlaEventRowModel[], starts: number[]): SortedEvents {
  let sorted = true;
  for (let i = 1; i < rows.length && sorted; i++) sorted = (starts[i - 1]! - starts[i]! || idOrder(rows[i - 1]!.id, rows[i]!.id)) <= 0;
  if (sorted) return { ciId, rows, starts };
  const order = rows.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]! || idOrder(rows[a]!.id, rows[b]!.id));
  return { ciId, rows: order.map((i) => rows[i]!), starts: order.map((i) => starts[i]!) };
}

/** All rows of the lists in one ordered array (a sort of indices by numeric start: TimSort gains from the sorted runs). */
export function mergeEvents(lists: readonly SortedEvents[]): SlaEventRowModel[] {
  const rows: SlaEventRowModel[] = [];
  const starts: number[] = [];
  const ciIds: number[] = [];
  for (const list of lists) {
    for (let i = 0; i < list.rows.length; i++) {
      rows.push(list.rows[i]!);
      starts.push(list.starts[i]!);
      ciIds.push(list.ciId);
    }
  }
  const order = rows.map((_, i) => i);
  order.sort((a, b) => starts[a]! - starts[b]! || idOrder(rows[a]!.id, rows[b]!.id) || ciIds[a]! - ciIds[b]!);
  return order.map((i) => rows[i]!);
}

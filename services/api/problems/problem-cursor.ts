/**
 * Keyset cursors of the problem list (issue #30): the sort key, start and id of the last item
 * of a page, so the next page starts right after it however many problems arrived meanwhile
 * (never an offset). A duration sort fixes "now" at its first page, so open problems keep the
 * durations the walk started with.
 */
import { fail } from '../../../schemas/errors.js';

export interface Cursor {
  /** The last item's sort value: start (ms), priority, or duration (ms). */
  value: number;
  start: number;
  id: string;
  /** Duration sorts: the instant open problems' durations are measured to. */
  now?: number;
}

interface Wire {
  k: SortKey;
  d: 0 | 1;
  v: number;
  s: number;
  i: string;
  n?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The columns a problem list sorts by. */
export type SortKey = 'dateStart' | 'priority' | 'duration';

export function encodeCursor(cursor: Cursor, sort: { key: SortKey; desc: boolean }): string {
  const wire: Wire = { k: sort.key, d: sort.desc ? 1 : 0, v: cursor.value, s: cursor.start, i: cursor.id, ...(cursor.now === undefined ? {} : { n: cursor.now }) };
  return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

export function decodeCursor(text: string, sort: { key: SortKey; desc: boolean }): Cursor {
  let wire: Partial<Wire>;
  try {
    wire = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Wire>;
  } catch {
    throw fail('problem.cursor_invalid');
  }
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  if (
    typeof wire !== 'object' ||
    wire === null ||
    wire.k !== sort.key ||
    wire.d !== (sort.desc ? 1 : 0) ||
    !finite(wire.v) ||
    !finite(wire.s) ||
    typeof wire.i !== 'string' ||
    !UUID.test(wire.i) ||
    (wire.n !== undefined && !finite(wire.n)) ||
    (sort.key === 'duration' && wire.n === undefined)
  ) {
    throw fail('problem.cursor_invalid');
  }
  return { value: wire.v, start: wire.s, id: wire.i, ...(wire.n === undefined ? {} : { now: wire.n }) };
}

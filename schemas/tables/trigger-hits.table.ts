/**
 * The `trigger_hits` table (0006_problem_lifecycle.sql): each record that hit a trigger on a CI,
 * written by the problem stage (services/event-worker/problem-stage/problem-stage.ts) and read
 * by the problem API as a problem's events (services/api/problems/problem-reads.ts).
 */
import { type ColumnOf, type RowOf, selectList, table, through } from './table.js';

export const TRIGGER_HITS = table('trigger_hits', {
  trigger_id: 'UInt64',
  ci_id: 'UInt64',
  ts: "DateTime64(3, 'UTC')",
  event_id: 'String',
  /** 1: the record resolved the problem. */
  resolve: 'UInt8',
});

export type TriggerHitRow = RowOf<typeof TRIGGER_HITS>;

/** A problem's hits as the API reads them (through the table's alias `h`; the instant as text). */
export const HIT_READ_LIST = selectList<ColumnOf<typeof TRIGGER_HITS>>(['ts', 'event_id', 'resolve'], { ts: 'toString(h.ts) AS ts' }, through('h'));

/**
 * The `problem_changes` table (0005_problem_changes.sql): every row written to `problems`, with
 * the instant it was written, filled by the materialized view `problem_changes_mv` and read by
 * the live SLA (services/live-sla/live-sla.ts) for what changed since its last read. Kept a day.
 */
import type { ProblemColumn } from './problems.table.js';
import { type ColumnOf, table } from './table.js';

const DATE = "DateTime64(3, 'UTC')";

export const PROBLEM_CHANGES = table('problem_changes', {
  written_at: DATE,
  id: 'UUID',
  ci_id: 'UInt64',
  date_start: DATE,
  date_end: `Nullable(${DATE})`,
  priority: 'UInt8',
  influence_value: 'Float64',
  influence_max: 'UInt8',
  version: 'UInt64',
  is_deleted: 'UInt8',
});

/** The columns copied from `problems` (all but written_at) are problems' columns. */
export const CHANGED_COLUMNS: ReadonlyArray<ProblemColumn> = PROBLEM_CHANGES.columns.filter(
  (c): c is Exclude<ColumnOf<typeof PROBLEM_CHANGES>, 'written_at'> => c !== 'written_at',
);

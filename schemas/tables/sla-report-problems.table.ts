/**
 * The `sla_report_problem_copies` table (0010_report_copies_by_report.sql): the problems a report
 * counted, copied from `problems` when it was calculated (services/sla-worker/calculate-report.ts)
 * and read back for its export and timelines (services/api/sla/report-results.ts). One partition
 * per report, never merged, dropped whole (DROP_REPORT_PROBLEMS); kept a day (TTL).
 */
import { PROBLEMS, type ProblemColumn } from './problems.table.js';
import { asText, type ColumnOf, epochMs, type RowOf, selectList, table } from './table.js';

/** The copied columns take their types from `problems` (a copy is the same data). */
const { id, trigger_id, trigger_name, ci_id, date_start, date_end, priority, tags, incidents, influence_value, influence_max, with_maintenance } = PROBLEMS.types;

export const SLA_REPORT_PROBLEMS = table('sla_report_problem_copies', {
  report_id: 'LowCardinality(String)',
  id,
  trigger_id,
  trigger_name,
  ci_id,
  date_start,
  date_end,
  priority,
  tags,
  incidents,
  influence_value,
  influence_max,
  with_maintenance,
  created_at: "DateTime64(3, 'UTC')",
});

/** Removes one report's rows (the parameter `report`): its partition, dropped whole, no mutation. */
export const DROP_REPORT_PROBLEMS = `ALTER TABLE ${SLA_REPORT_PROBLEMS.name} DROP PARTITION {report:String}`;

/** The reports with rows here (column `report_id`): the table's partitions, read from the parts' list, not from the rows. */
export const REPORTS_IN_PROBLEMS = `SELECT DISTINCT partition AS report_id FROM system.parts WHERE database = currentDatabase() AND table = '${SLA_REPORT_PROBLEMS.name}' AND active`;

export type SlaReportProblemRow = RowOf<typeof SLA_REPORT_PROBLEMS>;
type SlaReportProblemColumn = ColumnOf<typeof SLA_REPORT_PROBLEMS>;

/** The columns copied from `problems`: all but the report's id and the copy's date, which must be problems' columns. */
type CopiedColumn = Exclude<SlaReportProblemColumn, 'report_id' | 'created_at'>;
const copied: ReadonlyArray<CopiedColumn & ProblemColumn> = SLA_REPORT_PROBLEMS.columns.filter((c): c is CopiedColumn => c !== 'report_id' && c !== 'created_at');

/**
 * The SELECT list, over `problems`, of a report's copy in this table's order: the report's id and
 * the copy's date are the parameters `report` and `now`.
 */
export const COPY_FROM_PROBLEMS_LIST = selectList(SLA_REPORT_PROBLEMS.columns, { report_id: '{report:String}', created_at: '{now:DateTime64(3)}' });

/** The columns of a copied problem that the export reads: instants as epoch milliseconds (`start`, `end`). */
export const SNAPSHOT_LIST = selectList(copied, { id: asText('id'), date_start: `${epochMs('date_start')} AS start`, date_end: `${epochMs('date_end')} AS end` });

/** A row of SNAPSHOT_LIST (64-bit integers may come back as text). */
export type SnapshotRow = Omit<SlaReportProblemRow, 'report_id' | 'created_at' | 'trigger_id' | 'ci_id' | 'date_start' | 'date_end'> & {
  trigger_id: string | number;
  ci_id: string | number;
  start: string | number;
  end: string | number | null;
};

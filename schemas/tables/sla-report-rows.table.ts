/**
 * The `sla_report_result_rows` table (0010_report_copies_by_report.sql): the rows a report's export
 * shows (CI or template rows, as JSON), stored by the SLA worker
 * (services/sla-worker/calculate-report.ts) and read in order by the export
 * (services/api/sla/report-results.ts). One partition per report, never merged, dropped whole
 * (DROP_REPORT_ROWS); kept a day (TTL).
 */
import { type RowOf, table } from './table.js';

export const SLA_REPORT_ROWS = table('sla_report_result_rows', {
  report_id: 'LowCardinality(String)',
  /** `configItems` or `templates`. */
  kind: 'LowCardinality(String)',
  seq: 'UInt32',
  /** JSON of the export's row. */
  row: 'String',
  created_at: "DateTime64(3, 'UTC')",
});

/** Removes one report's rows (the parameter `report`): its partition, dropped whole, no mutation. */
export const DROP_REPORT_ROWS = `ALTER TABLE ${SLA_REPORT_ROWS.name} DROP PARTITION {report:String}`;

/** The reports with rows here (column `report_id`): the table's partitions, read from the parts' list, not from the rows. */
export const REPORTS_IN_ROWS = `SELECT DISTINCT partition AS report_id FROM system.parts WHERE database = currentDatabase() AND table = '${SLA_REPORT_ROWS.name}' AND active`;

export type SlaReportRow = RowOf<typeof SLA_REPORT_ROWS>;

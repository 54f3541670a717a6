/**
 * The `sla_report_rows` table (0003_sla_reports.sql, 0010_report_ids_low_cardinality.sql): the
 * rows a report's export shows (CI or template rows, as JSON), stored by the SLA worker
 * (services/sla-worker/calculate-report.ts) and read in order by the export
 * (services/api/sla/report-results.ts). Kept a day (TTL).
 */
import { type RowOf, table } from './table.js';

export const SLA_REPORT_ROWS = table('sla_report_rows', {
  report_id: 'LowCardinality(String)',
  /** `configItems` or `templates`. */
  kind: 'LowCardinality(String)',
  seq: 'UInt32',
  /** JSON of the export's row. */
  row: 'String',
  created_at: "DateTime64(3, 'UTC')",
});

export type SlaReportRow = RowOf<typeof SLA_REPORT_ROWS>;

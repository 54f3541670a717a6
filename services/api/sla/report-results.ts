/**
 * Reading a report's results for its export (DESIGN §9), page by page so a large export streams:
 * the stored CI or template rows as they are, and the event rows built from the problems the
 * report counted (copied when it was calculated), with the CIs as the CMDB names them now.
 */

import { ciTypeModel, eventRow } from '../../../pipelines/sla/report-rows.js';
import type { ProblemInput } from '../../../pipelines/sla/sla.types.js';
import type { SlaCiRowModel, SlaEventRowModel, SlaTemplateRowModel } from '../../../schemas/sla-export.schema.js';
import { SLA_REPORT_PROBLEMS, SNAPSHOT_LIST, type SnapshotRow } from '../../../schemas/tables/sla-report-problems.table.js';
import { SLA_REPORT_ROWS } from '../../../schemas/tables/sla-report-rows.table.js';
import { ciTypeWithIcon } from '../../control-plane/cmdb/ci-type-icons.js';
import type { SlaReportRecord } from '../../control-plane/sla/sla-reports.slice.js';
import type { PlatformModel } from '../../control-plane/model.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';

const PAGE = 5000;

/** The stored rows of one kind (`configItems` or `templates`), in order. */
export async function* storedRows<T extends SlaCiRowModel | SlaTemplateRowModel>(
  analytics: AnalyticsStore,
  reportId: string,
  kind: 'configItems' | 'templates',
): AsyncGenerator<T> {
  for (let from = 0; ; from += PAGE) {
    const page = await analytics.query<{ row: string }>(
      `SELECT row FROM ${SLA_REPORT_ROWS.name} FINAL WHERE report_id = {id:String} AND kind = {kind:String} AND seq >= {from:UInt32} ORDER BY seq LIMIT {page:UInt32}`,
      { id: reportId, kind, from, page: PAGE },
    );
    for (const { row } of page) yield JSON.parse(row) as T;
    if (page.length < PAGE) return;
  }
}

/** A problem as the report copied it. */
function snapshotProblem(row: SnapshotRow): ProblemInput {
  return {
    id: row.id,
    trigger: { id: Number(row.trigger_id), name: row.trigger_name },
    ciId: Number(row.ci_id),
    start: Number(row.start),
    end: row.end === null ? null : Number(row.end),
    priority: row.priority as ProblemInput['priority'],
    influence: { value: row.influence_value, maxInfluence: row.influence_max === 1 },
    tags: JSON.parse(row.tags) as ProblemInput['tags'],
    incidents: JSON.parse(row.incidents) as ProblemInput['incidents'],
  };
}

/**
 * The problems a report counted for each of the CIs, by start then id, as its calculation read
 * them. One read for all of them: the copy is sorted by date, so each read scans the report's rows.
 */
export async function copiedProblems(analytics: AnalyticsStore, reportId: string, ciIds: readonly number[]): Promise<Map<number, ProblemInput[]>> {
  const rows = await analytics.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_LIST} FROM ${SLA_REPORT_PROBLEMS.name} FINAL WHERE report_id = {id:String} AND ci_id IN {cis:Array(UInt64)} ORDER BY date_start, toString(id)`,
    { id: reportId, cis: ciIds },
  );
  const byCi = new Map<number, ProblemInput[]>(ciIds.map((id) => [id, []]));
  for (const row of rows) byCi.get(Number(row.ci_id))?.push(snapshotProblem(row));
  return byCi;
}

/** Spec 2.13 rows of the problems a report counted, by start then id. */
export async function* eventRows(analytics: AnalyticsStore, model: PlatformModel, report: SlaReportRecord): AsyncGenerator<SlaEventRowModel> {
  const cmdb = model.slices.cmdb;
  const included = new Set(report.priorities);
  const calculatedAt = Date.parse(report.finishedAt ?? report.createdAt);
  let after: { start: number; id: string } | undefined;
  for (;;) {
    const page = await analytics.query<SnapshotRow>(
      `SELECT ${SNAPSHOT_LIST}
       FROM ${SLA_REPORT_PROBLEMS.name} FINAL
       WHERE report_id = {id:String} ${after ? "AND (date_start, toString(id)) > (fromUnixTimestamp64Milli({start:Int64}, 'UTC'), {after:String})" : ''}
       ORDER BY date_start, toString(id) LIMIT {page:UInt32}`,
      { id: report.id, page: PAGE, ...(after ? { start: after.start, after: after.id } : {}) },
    );
    for (const row of page) {
      const problem = snapshotProblem(row);
      const { ciId, influence } = problem;
      const ci = cmdb.cis.get(ciId);
      const isIncluded = included.has(row.priority);
      const configItem = {
        id: ciId,
        name: ci?.name ?? '',
        configItemType: ciTypeModel(ci ? ciTypeWithIcon(cmdb, ci.typeId) : { id: 0, name: '', description: '', icon: null }),
        withMaintenance: row.with_maintenance === 1,
        influence,
        isIncluded,
      };
      yield eventRow(problem, isIncluded, [configItem], calculatedAt);
    }
    if (page.length < PAGE) return;
    const last = page[page.length - 1]!;
    after = { start: Number(last.start), id: last.id };
  }
}

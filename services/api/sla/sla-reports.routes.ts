/**
 * Spec 4.3 #2–#4: order a custom SLA report, poll it, export it. Ordering stores a `Pending`
 * report and queues its job on the bus (DESIGN §9); the export streams the results in the
 * format asked for, for one day after the report was created (spec 8), then answers 410.
 */
import { randomUUID } from 'node:crypto';
import Type from 'typebox';
import { type ExportFormat, exportFile } from '../../../pipelines/sla/export/formats.js';
import { type SlaCiRowModel, SlaExportCsv, SlaExportJson, slaEventRowsExample, slaEventsCsvExample } from '../../../schemas/sla-export.schema.js';
import {
  SlaCustomReport,
  type SlaCustomReportModel,
  SlaExportQuery,
  SlaOrderBody,
  slaFinishedReportExample,
  slaOrderExample,
  slaPendingReportExample,
} from '../../../schemas/sla-report.schema.js';
import { canReadTemplate } from '../../control-plane/sla/sla-access.js';
import { orderReport } from '../../control-plane/sla/sla-reports.commands.js';
import type { SlaReportRecord } from '../../control-plane/sla/sla-reports.slice.js';
import { REPORT_RETENTION_MS } from '../../control-plane/sla/sla-reports.types.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import { queueJob } from '../../runtime/sla-jobs.js';
import type { ApiDeps } from '../api-deps.js';
import type { PrincipalRequest } from '../auth.js';
import { problems } from '../../runtime/http/route-kit.js';
import { eventRows, storedRows } from './report-results.js';
import { slaTimelineRoutes } from './sla-timeline.routes.js';
import { timelineColumns, timelineSheetRows, WorstCis } from './report-timeline.js';
import { furtherSheet } from '../../../pipelines/sla/export/xlsx.js';
import { SLA_PREFIX, SLA_READ, slaReaderOf } from './sla-templates.routes.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The public model of spec 2.12. */
export const reportView = (r: SlaReportRecord): SlaCustomReportModel => ({
  id: r.id,
  reportId: r.reportId,
  start: r.start,
  end: r.end,
  template: r.template,
  status: r.status,
  error: r.error,
  ownerType: r.ownerType,
  userId: r.userId,
  workGroup: r.workGroup,
});

export function slaReportRoutes(deps: ApiDeps): Route[] {
  const model = deps.controlPlane.model;
  const base = { tags: ['sla'], security: 'bearer' as const, authenticate: deps.auth.requireRight(SLA_READ) };

  /** The report of `:id` if the caller may read it: 400 not a GUID, 404 unknown, 403 not theirs. */
  const readable = (req: PrincipalRequest): SlaReportRecord => {
    const id = req.params['id'] ?? '';
    if (!GUID.test(id)) throw failFields('sla_report.id_invalid', [{ path: '/id', message: 'must be a GUID' }], { id: JSON.stringify(id) });
    const report = model.slices.slaReports.reports.get(id.toLowerCase());
    if (!report) throw fail('sla_report.not_found', { id });
    const reader = slaReaderOf(req);
    const template = model.slices.slaTemplates.templates.get(report.templateId);
    // The one who ordered it reads it; so does whoever may read its template (and admins).
    const allowed = reader.admin || report.userId === reader.userId || (template !== undefined && canReadTemplate(model, reader, template));
    if (!allowed) throw fail('sla_report.read_forbidden', { id });
    return report;
  };

  /** A readable report with results to show: not Pending, not failed, not past its day (410). */
  const finished = (req: PrincipalRequest): SlaReportRecord => {
    const report = readable(req);
    if (report.status === 'Pending') throw fail('sla_report.pending', { id: report.id });
    if (report.status === 'Error') throw fail('sla_report.failed', { id: report.id, error: report.error ?? 'unknown error' });
    if (Date.parse(report.createdAt) + REPORT_RETENTION_MS <= deps.now()) throw fail('sla_report.expired', { id: report.id });
    return report;
  };

  /**
   * The CI rows; as a workbook, followed by a "Timeline" sheet with the segments of the worst
   * CIs (issue #18), picked while the first sheet streams the rows.
   */
  const ciExport = (report: SlaReportRecord, format: ExportFormat, baseName: string, timeZone: string) => {
    const rows = storedRows<SlaCiRowModel>(deps.analytics, report.id, 'configItems');
    const template = model.slices.slaTemplates.templates.get(report.templateId);
    if (format !== 'xls' || template?.type !== 'Single') return exportFile('configItems', format, rows, { baseName, timeZone });
    const worst = new WorstCis();
    const timeline = furtherSheet({ name: 'Timeline', columns: timelineColumns, rows: timelineSheetRows({ analytics: deps.analytics, model }, report, template, worst) });
    return exportFile('configItems', format, worst.tap(rows), { baseName, timeZone, more: [timeline] });
  };

  return [
    defineRoute({
      ...base,
      method: 'POST',
      path: `${SLA_PREFIX}/ordered`,
      name: 'sla.orderReport',
      summary: '#2 Order a custom SLA report for a template and a range (default: the template’s period)',
      schema: {
        body: SlaOrderBody,
        bodyExample: slaOrderExample,
        responses: { 200: { description: 'The report, Pending', schema: SlaCustomReport, example: slaPendingReportExample }, ...problems(400, 401, 403, 415) },
      },
      handler: async (req) => {
        const { body } = req;
        const report = await deps.controlPlane.execute(
          orderReport({ id: randomUUID(), templateId: body.template.id, range: body.range, reader: slaReaderOf(req), now: deps.now() }),
        );
        queueJob(deps.bus, { reportId: report.id, attempt: report.attempt }, deps.logger);
        return json(200, reportView(report));
      },
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${SLA_PREFIX}/ordered/:id`,
      name: 'sla.getReport',
      summary: '#3 A custom SLA report: Pending, Ok or Error',
      schema: { responses: { 200: { description: 'The report', schema: SlaCustomReport, example: slaFinishedReportExample }, ...problems(400, 401, 403, 404) } },
      handler: (req) => json(200, reportView(readable(req))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${SLA_PREFIX}/ordered/:id/export`,
      name: 'sla.exportReport',
      summary: '#4 Export a finished report: xls (default, an xlsx workbook), csv or json; events (default) or configItems',
      schema: {
        query: SlaExportQuery,
        responses: {
          // Those exportFile serves for format=xls, csv and json; openapi-lint.test.ts keeps them equal.
          200: {
            description: 'The export file, as an attachment: an xlsx workbook (format=xls), CSV (format=csv) or JSON (format=json)',
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {},
              'text/csv': { schema: SlaExportCsv, example: slaEventsCsvExample },
              'application/json': { schema: SlaExportJson, example: slaEventRowsExample },
            },
            headers: {
              'Content-Disposition': {
                description: 'attachment; filename="…"; filename*=UTF-8\'\'… (RFC 6266): the template name, the range and the export type',
                schema: Type.String(),
              },
            },
          },
          ...problems(400, 401, 403, 404, 410),
        },
      },
      handler: (req) => {
        const report = finished(req);
        const format = req.queryValues.format ?? 'xls';
        const exportType = req.queryValues.exportType ?? 'events';
        const baseName = `${report.template.name} ${report.start.slice(0, 10)} ${report.end.slice(0, 10)} ${report.template.type === 'Multi' ? 'templates' : exportType}`;
        const timeZone = report.timeZone;
        const file =
          report.template.type === 'Multi'
            ? exportFile('templates', format, storedRows(deps.analytics, report.id, 'templates'), { baseName, timeZone })
            : exportType === 'configItems'
              ? ciExport(report, format, baseName, timeZone)
              : exportFile('events', format, eventRows(deps.analytics, model, report), { baseName, timeZone });
        return { status: 200, headers: { 'content-type': file.contentType, 'content-disposition': file.contentDisposition }, stream: file.body };
      },
    }),
    ...slaTimelineRoutes(deps, finished),
  ];
}

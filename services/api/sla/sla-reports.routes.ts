/**
 * Spec 4.3 #2–#4: order a custom SLA report, poll it, export it. Ordering stores a `Pending`
 * report and queues its job on the bus (DESIGN §9); the export streams the results in the
 * format asked for, for one day after the report was created (spec 8), then answers 410.
 */
import { randomUUID } from 'node:crypto';
import { SlaCustomReport, SlaExportQuery, SlaOrderBody, type SlaCustomReportModel, type SlaOrderBodyModel } from '../../../schemas/sla-report.schema.js';
import { exportFile, type ExportFormat } from '../../../pipelines/sla/export/formats.js';
import { canReadTemplate } from '../../control-plane/sla/sla-access.js';
import { orderReport } from '../../control-plane/sla/sla-reports.commands.js';
import type { SlaReportRecord } from '../../control-plane/sla/sla-reports.slice.js';
import { REPORT_RETENTION_MS } from '../../control-plane/sla/sla-reports.types.js';
import { errors } from '../../runtime/errors.js';
import { json, type Request, type Route } from '../../runtime/http/route.js';
import { queueJob } from '../../sla-worker/sla-jobs.js';
import type { ApiDeps } from '../api-deps.js';
import { problems } from '../route-kit.js';
import { eventRows, storedRows } from './report-results.js';
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
  const readable = (req: Request): SlaReportRecord => {
    const id = req.params['id'] ?? '';
    if (!GUID.test(id)) throw errors.badRequest(`Invalid report id: ${JSON.stringify(id)}`, [{ path: '/id', message: 'must be a GUID' }]);
    const report = model.slices.slaReports.reports.get(id.toLowerCase());
    if (!report) throw errors.notFound(`Custom SLA report ${id} not found`);
    const reader = slaReaderOf(req);
    const template = model.slices.slaTemplates.templates.get(report.templateId);
    // The one who ordered it reads it; so does whoever may read its template (and admins).
    const allowed = reader.admin || report.userId === reader.userId || (template !== undefined && canReadTemplate(model, reader, template));
    if (!allowed) throw errors.forbidden(`Insufficient rights to read custom SLA report ${id}`);
    return report;
  };

  return [
    {
      ...base,
      method: 'POST',
      path: `${SLA_PREFIX}/ordered`,
      name: 'sla.orderReport',
      summary: '#2 Order a custom SLA report for a template and a range (default: the template’s period)',
      schema: { body: SlaOrderBody, responses: { 200: { description: 'The report, Pending', schema: SlaCustomReport }, ...problems(400, 401, 403, 415) } },
      handler: async (req) => {
        const body = req.body as SlaOrderBodyModel;
        const report = await deps.controlPlane.execute(orderReport({ id: randomUUID(), templateId: body.template.id, range: body.range, reader: slaReaderOf(req), now: deps.now() }));
        queueJob(deps.bus, { reportId: report.id, attempt: report.attempt }, deps.logger);
        return json(200, reportView(report));
      },
    },
    {
      ...base,
      method: 'GET',
      path: `${SLA_PREFIX}/ordered/:id`,
      name: 'sla.getReport',
      summary: '#3 A custom SLA report: Pending, Ok or Error',
      schema: { responses: { 200: { description: 'The report', schema: SlaCustomReport }, ...problems(400, 401, 403, 404) } },
      handler: (req) => json(200, reportView(readable(req))),
    },
    {
      ...base,
      method: 'GET',
      path: `${SLA_PREFIX}/ordered/:id/export`,
      name: 'sla.exportReport',
      summary: '#4 Export a finished report: xls (default, an xlsx workbook), csv or json; events (default) or configItems',
      schema: {
        query: SlaExportQuery,
        responses: {
          200: { description: 'The export file (spreadsheet, CSV or JSON)', contentType: 'application/octet-stream' },
          ...problems(400, 401, 403, 404, 410),
        },
      },
      handler: (req) => {
        const report = readable(req);
        if (report.status === 'Pending') throw errors.badRequest(`Custom SLA report ${report.id} is not ready yet; poll GET ordered/${report.id} until its status is Ok`);
        if (report.status === 'Error') throw errors.badRequest(`Custom SLA report ${report.id} failed and has nothing to export: ${report.error ?? 'unknown error'}`);
        if (Date.parse(report.createdAt) + REPORT_RETENTION_MS <= deps.now()) {
          throw errors.gone(`Custom SLA report ${report.id} was created more than a day ago; its results are gone. Order it again.`);
        }
        const format = (req.queryValues['format'] ?? 'xls') as ExportFormat;
        const exportType = (req.queryValues['exportType'] ?? 'events') as 'events' | 'configItems';
        const baseName = `${report.template.name} ${report.start.slice(0, 10)} ${report.end.slice(0, 10)} ${report.template.type === 'Multi' ? 'templates' : exportType}`;
        const timeZone = report.timeZone;
        const file =
          report.template.type === 'Multi'
            ? exportFile('templates', format, storedRows(deps.analytics, report.id, 'templates'), { baseName, timeZone })
            : exportType === 'configItems'
              ? exportFile('configItems', format, storedRows(deps.analytics, report.id, 'configItems'), { baseName, timeZone })
              : exportFile('events', format, eventRows(deps.analytics, model, report), { baseName, timeZone });
        return { status: 200, headers: { 'content-type': file.contentType, 'content-disposition': file.contentDisposition }, stream: file.body };
      },
    },
  ];
}

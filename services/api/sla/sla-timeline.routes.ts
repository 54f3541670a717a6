/**
 * Issue #18: why a CI's figures are what they are. GET …/sla/ordered/{id}/timeline?configItemId=
 * replays the report's calculation for one CI of a Single template (pipelines/sla/ci-timeline.ts)
 * from the problems the report copied, the `now` it was calculated at, and the template's
 * calendar and the maintenance modes, which are read as they are now: when the template or a
 * mode that covers the CI changed after the calculation, the figures could differ, so the answer
 * is 409 (order the report again) rather than a timeline that does not add up to the report.
 */
import { ciTimeline, type TimelineSegment } from '../../../pipelines/sla/ci-timeline.js';
import { unattendedIntervals } from '../../../pipelines/sla/calendar.js';
import { clipIntervals, mergeIntervals } from '../../../pipelines/sla/interval-ops.js';
import type { ProblemInput, WorkingCalendar } from '../../../pipelines/sla/sla.types.js';
import { isoDate, toWallClockMs } from '../../../pipelines/sla/time-zone.js';
import { SlaTimeline, type SlaTimelineModel, SlaTimelineQuery, slaTimelineExample, type TimelineProblemModel } from '../../../schemas/sla-timeline.schema.js';
import type { SlaSingleTemplateModel } from '../../../schemas/sla-template.schema.js';
import { maintenanceIntervals, modesOverlapping } from '../../control-plane/maintenance/maintenance-coverage.js';
import type { SlaReportRecord } from '../../control-plane/sla/sla-reports.slice.js';
import type { PlatformModel } from '../../control-plane/slices.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';
import { fail } from '../../runtime/errors.js';
import { json, type Request, type Route } from '../../runtime/http/route.js';
import { templateCis } from '../../sla-worker/calculate-report.js';
import type { ApiDeps } from '../api-deps.js';
import { problems as problemResponses } from '../route-kit.js';
import { SLA_PREFIX, SLA_READ } from './sla-templates.routes.js';

interface CopiedProblem {
  id: string;
  trigger_id: string;
  trigger_name: string;
  start: string;
  end: string | null;
  priority: number;
  influence_value: number;
  influence_max: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The problems the report counted for the CI, as the calculation read them. */
async function copiedProblems(analytics: AnalyticsStore, report: SlaReportRecord, ciId: number): Promise<ProblemInput[]> {
  const rows = await analytics.query<CopiedProblem>(
    `SELECT toString(id) AS id, trigger_id, trigger_name, toUnixTimestamp64Milli(date_start) AS start, toUnixTimestamp64Milli(date_end) AS end,
            priority, influence_value, influence_max
     FROM sla_report_problems FINAL WHERE report_id = {id:String} AND ci_id = {ci:UInt64} ORDER BY date_start, toString(id)`,
    { id: report.id, ci: ciId },
  );
  return rows.map((r) => ({
    id: r.id,
    trigger: { id: Number(r.trigger_id), name: r.trigger_name },
    ciId,
    start: Number(r.start),
    end: r.end === null ? null : Number(r.end),
    priority: r.priority as ProblemInput['priority'],
    influence: { value: r.influence_value, maxInfluence: r.influence_max === 1 },
    tags: [],
    incidents: [],
  }));
}

/** The calendar's holidays (local dates) that [start, end) reaches into. */
function holidaysWithin(calendar: WorkingCalendar, start: number, end: number): string[] {
  const first = isoDate(toWallClockMs(start, calendar.timeZone));
  const last = isoDate(toWallClockMs(end - 1, calendar.timeZone));
  return calendar.holidays.filter((day) => day >= first && day <= last).sort();
}

const calendarOf = (template: SlaSingleTemplateModel): WorkingCalendar | null =>
  template.calendar ? { timeZone: template.timeZone, week: template.calendar.week, holidays: template.calendar.holidays } : null;

/** Whether anything the replay reads now changed after the report was calculated. */
function changedSince(model: PlatformModel, template: SlaSingleTemplateModel, ciId: number, range: { start: number; end: number }, calculatedAt: number): boolean {
  if (Date.parse(template.updatedAt) > calculatedAt) return true;
  const modes = model.slices.maintenance.modes;
  return modesOverlapping(model, ciId, range.start, range.end).some((id) => Date.parse(modes.get(id)!.updatedAt) > calculatedAt);
}

export function slaTimelineRoutes(deps: ApiDeps, readable: (req: Request) => SlaReportRecord): Route[] {
  const model = deps.controlPlane.model;
  return [
    {
      tags: ['sla'],
      security: 'bearer',
      authenticate: deps.auth.requireRight(SLA_READ),
      method: 'GET',
      path: `${SLA_PREFIX}/ordered/:id/timeline`,
      name: 'sla.reportTimeline',
      summary: 'The timeline of one CI of a finished report: segments by bucket with the problems, modes, calendar and influence behind them (issue #18)',
      schema: {
        query: SlaTimelineQuery,
        responses: {
          200: { description: 'The CI’s timeline; its totals equal the report’s figures for the CI', schema: SlaTimeline, example: slaTimelineExample },
          ...problemResponses(400, 401, 403, 404, 409, 410),
        },
      },
      handler: async (req) => {
        const report = readable(req);
        const ciId = req.queryValues['configItemId'] as number;
        const template = model.slices.slaTemplates.templates.get(report.templateId);
        if (template === undefined || template.type !== 'Single') throw fail('sla_report.timeline_single_only', { id: report.id });
        if (!templateCis(model, template).has(ciId)) throw fail('sla_report.ci_not_in_report', { id: report.id, ciId });
        const range = { start: Date.parse(report.start), end: Date.parse(report.end) };
        const calculatedAt = Date.parse(report.calculatedAt ?? report.finishedAt ?? report.createdAt);
        if (report.calculatedAt === undefined || changedSince(model, template, ciId, range, calculatedAt)) throw fail('sla_report.inputs_changed', { id: report.id });

        const problems = await copiedProblems(deps.analytics, report, ciId);
        const calendar = calendarOf(template);
        const included = new Set(report.priorities);
        const context = { range, now: calculatedAt, included, excludeMaintenance: template.excludeMaintenance, unattended: unattendedIntervals(calendar, range) };
        const maintenance = clipIntervals(mergeIntervals(maintenanceIntervals(model, ciId, range.start, range.end)), range);
        const { segments, totals } = ciTimeline(context, maintenance, problems);

        const modes = model.slices.maintenance.modes;
        const segment = (s: TimelineSegment) => {
          const durationMs = s.end - s.start;
          const weighted = s.bucket === 'problem' ? s.weightPercent : 0;
          return {
            dateStart: iso(s.start),
            dateEnd: iso(s.end),
            bucket: s.bucket,
            durationMs,
            weightPercent: weighted,
            problemMs: (durationMs * weighted) / 100,
            problems: s.problems.map((i) => problems[i]!.id),
            maintenanceModes: s.bucket === 'maintenance' ? modesOverlapping(model, ciId, s.start, s.end).map((id) => ({ id, title: modes.get(id)?.title ?? null })) : [],
            calendar: s.bucket === 'unattended' && calendar !== null ? { timeZone: calendar.timeZone, holidays: holidaysWithin(calendar, s.start, s.end) } : null,
          };
        };
        const problem = (p: ProblemInput): TimelineProblemModel => ({
          id: p.id,
          trigger: p.trigger,
          priority: `Problem${p.priority}`,
          isIncluded: included.has(p.priority),
          influence: p.influence,
          dateStart: iso(p.start),
          dateEnd: p.end === null ? null : iso(p.end),
        });
        const ci = model.slices.cmdb.cis.get(ciId)!;
        const body: SlaTimelineModel = {
          reportId: report.id,
          configItem: { id: ciId, name: ci.name },
          range: { start: iso(range.start), end: iso(range.end) },
          calculatedAt: iso(calculatedAt),
          excludeMaintenance: template.excludeMaintenance,
          priorities: [...report.priorities],
          problems: problems.map(problem),
          segments: segments.map(segment),
          totals: {
            okMs: totals.okMs,
            problemMs: totals.problemMs,
            unattendedMs: totals.unattendedMs,
            maintenanceMs: totals.maintenanceMs,
            maxDowntimeSeconds: Math.round(totals.maxDowntimeMs / 1000),
          },
        };
        return json(200, body);
      },
    },
  ];
}

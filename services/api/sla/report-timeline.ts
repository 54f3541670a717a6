/**
 * Issue #18: a finished report's calculation replayed for one CI (pipelines/sla/ci-timeline.ts,
 * under the template's rules of pipelines/sla/template-rules.ts) from the problems the report copied, the `now` it was calculated at, and the template's
 * calendar and the maintenance modes, which are read as they are now: when the template or a
 * mode that covers the CI changed after the calculation, the figures could differ, so the
 * replay refuses (409) rather than give a timeline that does not add up to the report. Served by
 * GET …/timeline (sla-timeline.routes.ts) and, for the worst CIs, as the xlsx export's
 * "Timeline" sheet.
 */
import { ciTimeline, type TimelineSegment } from '../../../pipelines/sla/ci-timeline.js';
import { type ExportColumn, toSeconds } from '../../../pipelines/sla/export/columns.js';
import { clipIntervals, mergeIntervals } from '../../../pipelines/time/interval-ops.js';
import type { ProblemInput, WorkingCalendar } from '../../../pipelines/sla/sla.types.js';
import { calendarOf, figuresContext, templateCis } from '../../../pipelines/sla/template-rules.js';
import { isoDate, toWallClockMs } from '../../../pipelines/time/time-zone.js';
import type { SlaSingleTemplateModel } from '../../../schemas/sla-template.schema.js';
import type { SlaCiRowModel } from '../../../schemas/sla-export.schema.js';
import type { SlaTimelineModel, TimelineProblemModel, TimelineSegmentModel } from '../../../schemas/sla-timeline.schema.js';
import { maintenanceIntervals, modesOverlapping } from '../../control-plane/maintenance/maintenance-coverage.js';
import type { SlaReportRecord } from '../../control-plane/sla/sla-reports.slice.js';
import type { PlatformModel } from '../../control-plane/model.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';
import { fail, isAppError } from '../../../schemas/errors.js';
import { copiedProblems } from './report-results.js';

export interface TimelineDeps {
  analytics: AnalyticsStore;
  model: PlatformModel;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The calendar's holidays (local dates) that [start, end) reaches into. */
function holidaysWithin(calendar: WorkingCalendar, start: number, end: number): string[] {
  const first = isoDate(toWallClockMs(start, calendar.timeZone));
  const last = isoDate(toWallClockMs(end - 1, calendar.timeZone));
  return calendar.holidays.filter((day) => day >= first && day <= last).sort();
}

/** Whether anything the replay reads now changed after the report was calculated. */
function changedSince(model: PlatformModel, template: SlaSingleTemplateModel, ciId: number, range: { start: number; end: number }, calculatedAt: number): boolean {
  if (Date.parse(template.updatedAt) > calculatedAt) return true;
  const modes = model.slices.maintenance.modes;
  return modesOverlapping(model, ciId, range.start, range.end).some((id) => Date.parse(modes.get(id)!.updatedAt) > calculatedAt);
}

/** The Single template whose figures a report's timeline replays (a Multi report's rows are templates: 400). */
export function timelineTemplate(model: PlatformModel, report: SlaReportRecord): SlaSingleTemplateModel {
  const template = model.slices.slaTemplates.templates.get(report.templateId);
  if (template === undefined || template.type !== 'Single') throw fail('sla_report.timeline_single_only', { id: report.id });
  return template;
}

/**
 * The CI's timeline over the report's range; 404 for a CI not in the report, 409 when its inputs
 * changed since. `copied`: the report's problems of the CI, when already read.
 */
export async function replayTimeline(
  deps: TimelineDeps,
  report: SlaReportRecord,
  template: SlaSingleTemplateModel,
  ciId: number,
  copied?: ProblemInput[],
): Promise<SlaTimelineModel> {
  const { model } = deps;
  if (!templateCis(model.slices.cmdb, template).has(ciId)) throw fail('sla_report.ci_not_in_report', { id: report.id, ciId });
  const range = { start: Date.parse(report.start), end: Date.parse(report.end) };
  const calculatedAt = Date.parse(report.calculatedAt ?? report.finishedAt ?? report.createdAt);
  if (report.calculatedAt === undefined || changedSince(model, template, ciId, range, calculatedAt)) throw fail('sla_report.inputs_changed', { id: report.id });

  const problems = copied ?? (await copiedProblems(deps.analytics, report.id, [ciId])).get(ciId)!;
  const calendar = calendarOf(template);
  // The priorities the report was ordered with, the template's other rules.
  const context = figuresContext({ priorities: [...report.priorities], excludeMaintenance: template.excludeMaintenance, calendar }, range, calculatedAt);
  const { included } = context;
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
  return body;
}

/** How many CIs the xlsx export's "Timeline" sheet shows: the worst by service availability (then by id). */
export const TIMELINE_SHEET_CIS = 20;

/** One line of the "Timeline" sheet: a segment of a CI, or why the CI has none there. */
export interface TimelineSheetRow {
  ci: { id: number; name: string };
  segment?: TimelineSegmentModel;
  /** The problems of the CI's timeline, to name the segment's ones by trigger. */
  problems?: ReadonlyMap<string, TimelineProblemModel>;
  note?: string;
}

const text = (header: string, width: number, value: (row: TimelineSheetRow) => string): ExportColumn<TimelineSheetRow> => ({ header, width, type: 'string', value });
const number = (header: string, width: number, value: (row: TimelineSheetRow) => number): ExportColumn<TimelineSheetRow> => ({ header, width, type: 'number', value });
const date = (header: string, width: number, value: (row: TimelineSheetRow) => number | null): ExportColumn<TimelineSheetRow> => ({ header, width, type: 'date', value });

/** Durations in whole seconds, as the other sheets show them. */
export const timelineColumns: ReadonlyArray<ExportColumn<TimelineSheetRow>> = [
  number('Id', 10, (r) => r.ci.id),
  text('Name', 30, (r) => r.ci.name),
  date('Start', 17, (r) => (r.segment ? Date.parse(r.segment.dateStart) : null)),
  date('End', 17, (r) => (r.segment ? Date.parse(r.segment.dateEnd) : null)),
  text('Bucket', 14, (r) => r.segment?.bucket ?? r.note ?? ''),
  number('Duration', 10, (r) => (r.segment ? toSeconds(r.segment.durationMs) : 0)),
  number('Weight', 8, (r) => r.segment?.weightPercent ?? 0),
  number('ProblemTime', 12, (r) => (r.segment ? toSeconds(r.segment.problemMs) : 0)),
  text('Problems', 40, (r) => (r.segment ? r.segment.problems.map((id) => r.problems?.get(id)?.trigger.name ?? id).join(',') : '')),
  text('MaintenanceModes', 30, (r) => (r.segment ? r.segment.maintenanceModes.map((m) => m.title ?? `#${m.id}`).join(',') : '')),
  text('Holidays', 20, (r) => r.segment?.calendar?.holidays.join(',') ?? ''),
];

/** Keeps the `TIMELINE_SHEET_CIS` worst CI rows seen, as the first sheet streams them. */
export class WorstCis {
  private readonly kept: Array<{ id: number; name: string; availability: number }> = [];

  see(row: SlaCiRowModel): void {
    this.kept.push({ id: row.configItem.id, name: row.configItem.name, availability: row.serviceAvailability });
    this.kept.sort((a, b) => a.availability - b.availability || a.id - b.id);
    if (this.kept.length > TIMELINE_SHEET_CIS) this.kept.pop();
  }

  /** The rows, passed on unchanged, each seen. */
  async *tap(rows: AsyncIterable<SlaCiRowModel>): AsyncGenerator<SlaCiRowModel> {
    for await (const row of rows) {
      this.see(row);
      yield row;
    }
  }

  list(): ReadonlyArray<{ id: number; name: string }> {
    return this.kept;
  }
}

/** The "Timeline" sheet: read once the first sheet is written, so `worst` has seen every CI row. */
export async function* timelineSheetRows(deps: TimelineDeps, report: SlaReportRecord, template: SlaSingleTemplateModel, worst: WorstCis): AsyncGenerator<TimelineSheetRow> {
  const copied = await copiedProblems(
    deps.analytics,
    report.id,
    worst.list().map((ci) => ci.id),
  );
  for (const ci of worst.list()) {
    let timeline: SlaTimelineModel;
    try {
      timeline = await replayTimeline(deps, report, template, ci.id, copied.get(ci.id));
    } catch (error) {
      if (!isAppError(error)) throw error;
      yield { ci, note: error.detail };
      continue;
    }
    const problems = new Map(timeline.problems.map((p) => [p.id, p]));
    for (const segment of timeline.segments) yield { ci, segment, problems };
  }
}

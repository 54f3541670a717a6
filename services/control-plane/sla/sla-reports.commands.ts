/**
 * Ordering and finishing custom SLA reports (spec 3.3, 4.3 #2): an order stores a `Pending`
 * report for a template the caller may read; the SLA worker marks it `Ok` or `Error`.
 */

import { periodRange } from '../../../pipelines/sla/period-range.js';
import { publicTemplate } from '../../../schemas/sla-template.schema.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { parseDateTime } from '../maintenance/maintenance-input.js';
import type { PlatformCommand } from '../model.js';
import { canReadTemplate, type SlaReader } from './sla-access.js';
import type { SlaReportRecord } from './sla-reports.slice.js';
import { REPORT_RECORD_KEEP_MS } from './sla-reports.types.js';

export interface SlaOrder {
  id: string;
  templateId: number;
  range: { start: string; end: string } | null | undefined;
  reader: SlaReader;
  now: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function orderReport(order: SlaOrder): PlatformCommand<SlaReportRecord> {
  return (model) => {
    const template = model.slices.slaTemplates.templates.get(order.templateId);
    if (!template) throw failFields('sla_template.unknown', [{ path: '/template/id', message: 'no such template' }], { id: order.templateId });
    if (!canReadTemplate(model, order.reader, template)) throw fail('sla_template.read_forbidden', { id: order.templateId });
    let start: number;
    let end: number;
    if (order.range) {
      start = parseDateTime(order.range.start, '/range/start');
      end = parseDateTime(order.range.end, '/range/end');
      if (end <= start) throw failFields('sla_report.range_invalid', [{ path: '/range/end', message: 'not after start' }]);
    } else {
      ({ start, end } = periodRange(template.period, template.timeZone, order.now));
    }
    const shown = publicTemplate(model, template);
    const record: SlaReportRecord = {
      id: order.id,
      reportId: null,
      start: iso(start),
      end: iso(end),
      template: { id: shown.id, name: shown.name, type: shown.type, period: shown.period, ownerType: shown.ownerType, userId: shown.userId, workGroup: shown.workGroup },
      status: 'Pending',
      error: null,
      ownerType: 'User',
      userId: order.reader.userId,
      workGroup: null,
      templateId: template.id,
      timeZone: template.timeZone,
      priorities: template.type === 'Single' ? template.priorities : [],
      createdAt: iso(order.now),
      finishedAt: null,
      attempt: 1,
      heartbeatAt: null,
    };
    return { changes: [{ key: `sla-report:${order.id}`, value: record }], result: () => record };
  };
}

/** `calculatedAt`: the `now` the figures were computed at (an open problem lasts until it): the timeline replays them with it. */
export type ReportOutcome = { status: 'Ok'; reportId: string; calculatedAt?: number } | { status: 'Error'; error: string };

/** Records the outcome of a calculation; a report already finished stays as it is. */
export function finishReport(id: string, outcome: ReportOutcome, now: number): PlatformCommand<SlaReportRecord | undefined> {
  return (model) => {
    const report = model.slices.slaReports.reports.get(id);
    if (report?.status !== 'Pending') return { changes: [], result: () => report };
    const next: SlaReportRecord = {
      ...report,
      status: outcome.status,
      reportId: outcome.status === 'Ok' ? outcome.reportId : null,
      error: outcome.status === 'Error' ? outcome.error : null,
      finishedAt: iso(now),
      ...(outcome.status === 'Ok' && outcome.calculatedAt !== undefined ? { calculatedAt: iso(outcome.calculatedAt) } : {}),
    };
    return { changes: [{ key: `sla-report:${id}`, value: next }], result: () => next };
  };
}

/** A worker is calculating the report: the sweeps of other workers leave its job alone. */
export function heartbeatReport(id: string, now: number): PlatformCommand<void> {
  return (model) => {
    const report = model.slices.slaReports.reports.get(id);
    if (report?.status !== 'Pending') return { changes: [], result: () => undefined };
    return { changes: [{ key: `sla-report:${id}`, value: { ...report, heartbeatAt: iso(now) } }], result: () => undefined };
  };
}

/** When the report last showed life: its last heartbeat, or its order. */
export const lastSignOfLife = (report: SlaReportRecord): number => Date.parse(report.heartbeatAt ?? report.createdAt);

/** Counts a new attempt of a pending report's job (its message id changes with it). */
export function requeueReport(id: string): PlatformCommand<SlaReportRecord | undefined> {
  return (model) => {
    const report = model.slices.slaReports.reports.get(id);
    if (report?.status !== 'Pending') return { changes: [], result: () => undefined };
    const next = { ...report, attempt: report.attempt + 1 };
    return { changes: [{ key: `sla-report:${id}`, value: next }], result: () => next };
  };
}

/** Forgets report records past REPORT_RECORD_KEEP_MS (their results went after a day). */
export function forgetOldReports(now: number): PlatformCommand<number> {
  return (model) => {
    const changes: JournalChange[] = [];
    for (const report of model.slices.slaReports.reports.values()) {
      if (Date.parse(report.createdAt) + REPORT_RECORD_KEEP_MS < now) changes.push({ key: `sla-report:${report.id}`, value: null });
    }
    return { changes, result: () => changes.length };
  };
}

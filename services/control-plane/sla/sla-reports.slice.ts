/** Custom SLA reports in memory (spec 2.12, DESIGN §9): their status, from order to result. */
import type { SlaCustomReportModel } from '../../../schemas/sla-report.schema.js';
import type { Slice } from '../model.js';
import type { SlaPriorityList } from './sla-reports.types.js';

/** A report as stored, record `sla-report:<id>`: the public model and what the worker needs. */
export interface SlaReportRecord extends SlaCustomReportModel, SlaPriorityList {
  templateId: number;
  /** The template's time zone when ordered: the export's dates are shown in it. */
  timeZone: string;
  createdAt: string;
  finishedAt: string | null;
  /** The `now` a finished report's figures were computed at (absent for reports of earlier versions). */
  calculatedAt?: string;
  /** Times the job was queued (a new attempt after a worker stopped mid-job). */
  attempt: number;
  /** When a worker last said it is calculating the report (null: no worker has taken it). */
  heartbeatAt: string | null;
}

export class SlaReportsSlice implements Slice {
  readonly kinds = ['sla-report'];
  readonly reports = new Map<string, SlaReportRecord>();

  apply(key: string, kind: string, value: unknown): void {
    const id = key.slice(kind.length + 1);
    if (value === null) this.reports.delete(id);
    else this.reports.set(id, value as SlaReportRecord);
  }

  pending(): SlaReportRecord[] {
    return [...this.reports.values()].filter((r) => r.status === 'Pending');
  }
}

declare module '../model.js' {
  interface PlatformSlices {
    slaReports: SlaReportsSlice;
  }
}

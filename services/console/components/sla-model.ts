/**
 * The SLA screens' wire types (all taken from app/api-schema.d.ts) and the pure helpers they
 * share: names of periods and owners, the export links, the report's CI rows sorted and summed,
 * and a timeline's segments summed the way the report sums them (pipelines/sla/ci-timeline.ts),
 * so the page can show that they agree. Every pass over the rows is linear, or one sort.
 */
import type { operations, paths } from '../app/api-schema.js';

type Ok<O> = O extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

export type Template = Ok<operations['sla.listTemplates']>[number];
export type Report = Ok<operations['sla.getReport']>;
export type Timeline = Ok<operations['sla.reportTimeline']>;
export type Segment = Timeline['segments'][number];
type ExportRows = Ok<operations['sla.exportReport']>;
/** One CI of a Single template's report (exportType=configItems, JSON: times in milliseconds). */
export type CiRow = Extract<ExportRows[number], { okTime: unknown; configItem: unknown }>;
/** One template of a Multi template's report, with its weight. */
export type TemplateRow = Extract<ExportRows[number], { weight: number }>;

export const REPORT_PATH = (id: string): string => `/sla/reports/${encodeURIComponent(id)}`;
const EXPORT_PATH = '/api/public/sm/v1/sla/ordered/{id}/export' satisfies keyof paths;

export const FORMATS = [
  { format: 'xls', label: 'Excel' },
  { format: 'csv', label: 'CSV' },
  { format: 'json', label: 'JSON' },
] as const;

export const exportHref = (id: string, format: string, exportType: 'events' | 'configItems'): string =>
  `${EXPORT_PATH.replace('{id}', encodeURIComponent(id))}?${new URLSearchParams({ format, exportType }).toString()}`;

export const owner = (t: Pick<Template, 'ownerType' | 'userId' | 'workGroup'>): string =>
  t.ownerType === 'WorkGroup' ? `Workgroup ${t.workGroup?.name ?? ''}` : `User #${t.userId ?? ''}`;

/** "ThisMonth" → "this month". */
export const periodName = (p: Template['period']): string => p.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

const percentFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 3 });
export const showPercent = (value: number): string => `${percentFormat.format(value)} %`;

/** The columns the CI table sorts by, each with the value it compares. */
export const CI_SORTS = {
  name: (r: CiRow) => r.configItem.name.toLowerCase(),
  type: (r: CiRow) => r.configItem.configItemType.name.toLowerCase(),
  availability: (r: CiRow) => r.serviceAvailability,
  ok: (r: CiRow) => r.okTime.value,
  problem: (r: CiRow) => r.problemTime.value,
  maintenance: (r: CiRow) => r.maintenanceTime.value,
  unattended: (r: CiRow) => r.unattendedTime.value,
  downtime: (r: CiRow) => r.maxDowntime,
  events: (r: CiRow) => r.eventsCount,
} satisfies Record<string, (r: CiRow) => string | number>;
export type CiSortKey = keyof typeof CI_SORTS;

export const isCiSortKey = (key: string | undefined): key is CiSortKey => key !== undefined && Object.hasOwn(CI_SORTS, key);

/** The rows in the order asked for; equal values keep the CI id order, so the order is stable across reloads. */
export function sortedRows(rows: readonly CiRow[], key: CiSortKey, desc: boolean): CiRow[] {
  const value = CI_SORTS[key];
  const sign = desc ? -1 : 1;
  return rows
    .map((row) => ({ row, v: value(row) }))
    .sort((a, b) => (a.v < b.v ? -sign : a.v > b.v ? sign : a.row.configItem.id - b.row.configItem.id))
    .map((x) => x.row);
}

export interface ReportTotals {
  cis: number;
  okMs: number;
  problemMs: number;
  maintenanceMs: number;
  unattendedMs: number;
  events: number;
  /** ok / (ok + problem) over every CI together; 100 when neither. */
  pooledAvailability: number;
  meanAvailability: number;
  worst: CiRow | undefined;
  /** CIs below `target`, when there is one. */
  belowTarget: number | undefined;
}

export function reportTotals(rows: readonly CiRow[], target: number | undefined): ReportTotals {
  let okMs = 0;
  let problemMs = 0;
  let maintenanceMs = 0;
  let unattendedMs = 0;
  let events = 0;
  let sum = 0;
  let below = 0;
  let worst: CiRow | undefined;
  for (const r of rows) {
    okMs += r.okTime.value;
    problemMs += r.problemTime.value;
    maintenanceMs += r.maintenanceTime.value;
    unattendedMs += r.unattendedTime.value;
    events += r.eventsCount;
    sum += r.serviceAvailability;
    if (target !== undefined && r.serviceAvailability < target) below++;
    if (!worst || r.serviceAvailability < worst.serviceAvailability) worst = r;
  }
  return {
    cis: rows.length,
    okMs,
    problemMs,
    maintenanceMs,
    unattendedMs,
    events,
    pooledAvailability: okMs + problemMs === 0 ? 100 : (okMs / (okMs + problemMs)) * 100,
    meanAvailability: rows.length === 0 ? 100 : sum / rows.length,
    worst,
    belowTarget: target === undefined ? undefined : below,
  };
}

export interface SegmentTotals {
  okMs: number;
  problemMs: number;
  maintenanceMs: number;
  unattendedMs: number;
  maxDowntimeMs: number;
}

/**
 * A timeline's segments summed as the report sums a CI: problem time is the weighted problem
 * segments rounded once, ok time what is left of the range, the longest downtime the longest run
 * of touching problem segments.
 */
export function segmentTotals(segments: readonly Segment[]): SegmentTotals {
  let totalMs = 0;
  let weightedMs = 0;
  let maintenanceMs = 0;
  let unattendedMs = 0;
  let run = 0;
  let longest = 0;
  let previousEnd = '';
  for (const s of segments) {
    totalMs += s.durationMs;
    if (s.dateStart !== previousEnd || s.bucket !== 'problem') run = 0;
    previousEnd = s.dateEnd;
    if (s.bucket === 'maintenance') maintenanceMs += s.durationMs;
    else if (s.bucket === 'unattended') unattendedMs += s.durationMs;
    else if (s.bucket === 'problem') {
      weightedMs += s.durationMs * s.weightPercent;
      run += s.durationMs;
      longest = Math.max(longest, run);
    }
  }
  const problemMs = Math.round(weightedMs / 100);
  return { okMs: totalMs - unattendedMs - maintenanceMs - problemMs, problemMs, maintenanceMs, unattendedMs, maxDowntimeMs: longest };
}

/** The segment at `ms` (segments are in time order and do not overlap): a binary search. */
export function segmentAt(segments: readonly Segment[], starts: readonly number[], ms: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= ms) lo = mid;
    else hi = mid - 1;
  }
  return segments.length === 0 ? -1 : lo;
}

export const BUCKETS = [
  { bucket: 'ok', label: 'OK' },
  { bucket: 'problem', label: 'Problem' },
  { bucket: 'maintenance', label: 'Maintenance' },
  { bucket: 'unattended', label: 'Unattended' },
] as const satisfies ReadonlyArray<{ bucket: Segment['bucket']; label: string }>;

export const bucketLabel = (b: Segment['bucket']): string => BUCKETS.find((x) => x.bucket === b)?.label ?? b;

/** Reports ordered in this browser (the API lists none), newest first, kept a day like their results. */
const RECENT_KEY = 'ops.console.sla.recent';
const DAY_MS = 86_400_000;
export interface RecentReport {
  id: string;
  template: string;
  orderedAt: number;
}

export function recentReports(now = Date.now()): RecentReport[] {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as RecentReport[];
    return Array.isArray(list) ? list.filter((r) => typeof r.id === 'string' && now - r.orderedAt < DAY_MS) : [];
  } catch {
    return [];
  }
}

export function rememberReport(report: RecentReport): void {
  const list = [report, ...recentReports(report.orderedAt).filter((r) => r.id !== report.id)].slice(0, 20);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

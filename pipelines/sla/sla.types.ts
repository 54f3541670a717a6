/**
 * What the SLA calculation (DESIGN §9) takes and gives. Pure data: the SLA worker reads the
 * problems, maintenance and CIs from the stores and hands these to the interval maths.
 * All instants are epoch milliseconds; intervals are [start, end).
 */
import type { SlaCiRowModel, SlaEventRowModel, SlaTemplateRowModel } from '../../schemas/sla-export.schema.js';
import type { Interval } from '../time/interval-ops.js';

/** The SLA's intervals are the shared ones (pipelines/time/interval-ops.ts). */
export type { Interval };

export interface SlaCiType {
  id: number;
  name: string;
  description: string;
  /** The type's icon as spec 2.13 shows it; the export gives null when absent. */
  icon?: SlaIcon | null;
  /** The type's userspace; the export gives the platform's one userspace (1) when absent. */
  userspaceId?: number;
}

export interface SlaIcon {
  id: number;
  name: string;
  fileName: string | null;
  userspaceId: number;
  iconUrl: string;
}

export interface SlaTag {
  id: number;
  name: string;
  colorName: string;
}

export interface SlaIncidentGroup {
  connector: { id: number; name: string };
  incidents: Array<{ id: string; type: string }>;
}

export interface ProblemInput {
  id: string;
  trigger: { id: number; name: string };
  ciId: number;
  start: number;
  /** null while the problem is open. */
  end: number | null;
  priority: 1 | 2 | 3 | 4;
  influence: { value: number; maxInfluence: boolean };
  tags: SlaTag[];
  incidents: SlaIncidentGroup[];
}

/** What the availability maths reads of a problem (ci-figures.ts). */
export type ProblemTimes = Pick<ProblemInput, 'start' | 'end' | 'priority' | 'influence'>;

/** A working calendar: weekly hours in a time zone, minus holidays. None = always attended. */
export interface WorkingCalendar {
  /** IANA zone, e.g. `Europe/Berlin`. */
  timeZone: string;
  /** ISO weekday 1 (Monday) .. 7 (Sunday), local `HH:mm` from inclusive to exclusive; `24:00` ends the day. */
  week: Array<{ day: number; from: string; to: string }>;
  /** Local dates `YYYY-MM-DD` that are not worked at all. */
  holidays: string[];
}

/** One CI of a Single template, with everything the maths needs about it. */
export interface SlaCiInput {
  id: number;
  name: string;
  type: SlaCiType;
  /** The CI's weight in the template (> 0). */
  weight: number;
  /** The CI's maintenance intervals, clipped to the range, sorted and disjoint. */
  maintenance: Interval[];
  /** The CI's problems that overlap the range (any priority). */
  problems: ProblemInput[];
}

/** A CI without its problems: what its row shows besides the figures. */
export type SlaCiMeta = Omit<SlaCiInput, 'problems'>;

export interface SingleTemplateInput {
  range: Interval;
  /** The calculation time: an open problem lasts until min(range.end, now). */
  now: number;
  /** Priorities that count against the SLA (default [1, 2]). */
  priorities: number[];
  calendar: WorkingCalendar | null;
  excludeMaintenance: boolean;
  cis: SlaCiInput[];
}

/** Figures of one CI (or of a template, combined by CI weight), all in milliseconds. */
export interface SlaFigures {
  okMs: number;
  problemMs: number;
  unattendedMs: number;
  maintenanceMs: number;
  /** end − start − unattended. */
  attendedMs: number;
  /** ok / (ok + problem) × 100; 100 when both are 0. */
  serviceAvailability: number;
  maxDowntimeMs: number;
  /** Included problems overlapping the range, by priority 1..4. */
  counts: [number, number, number, number];
  eventsCount: number;
}

export interface SingleTemplateResult {
  figures: SlaFigures;
  ciRows: SlaCiRowModel[];
  eventRows: SlaEventRowModel[];
}

export interface MultiTemplateResult {
  /** Template availabilities combined by template weight. */
  serviceAvailability: number;
  templateRows: SlaTemplateRowModel[];
}

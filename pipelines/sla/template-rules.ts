/**
 * The SLA rules of a Single template, in one place (issue #36), read by the SLA worker's
 * reports (services/sla-worker/calculate-report.ts), a report's timeline replay
 * (services/api/sla/report-timeline.ts), the live figures (services/live-sla/, through
 * live-figures.ts and live-template.ts) and the burn alerts (services/notifications/):
 * - which CIs a template covers, with their weights (templateCis);
 * - its working calendar (calendarOf) and the rules the maths applies (templateRules);
 * - how a CI's problems become downtime over a range: the context ciFigures and ciTimeline
 *   read (figuresContext): the included priorities, the maintenance rule and the unattended time;
 * - the current period of a template with a target, and the stretch of maintenance its budget
 *   reads (budgetReach).
 * Pure: the CMDB is read through the small view CiTree, as the control plane's model holds it.
 */
import type { SlaSingleTemplateModel } from '../../schemas/sla-template.schema.js';
import type { Interval } from '../time/interval-ops.js';
import { DAY_MS } from '../time/time-zone.js';
import { unattendedIntervals } from './calendar.js';
import type { CiFiguresContext } from './ci-figures.js';
import { periodRange } from './period-range.js';
import type { WorkingCalendar } from './sla.types.js';

/** What the rules read of the CMDB: which CIs exist, and a CI's descendants. */
export interface CiTree {
  cis: { has(id: number): boolean };
  descendants(id: number): Iterable<number>;
}

/** What the maths needs of a template's rules. */
export interface SlaRules {
  /** Priorities that count against the SLA. */
  priorities: number[];
  excludeMaintenance: boolean;
  /** null: always attended. */
  calendar: WorkingCalendar | null;
}

/** The template's CIs with their weights: listed CIs, and their descendants where asked; first listing wins. */
export function templateCis(cmdb: CiTree, template: SlaSingleTemplateModel): Map<number, number> {
  const weights = new Map<number, number>();
  const add = (id: number, weight: number) => {
    if (cmdb.cis.has(id) && !weights.has(id)) weights.set(id, weight);
  };
  for (const entry of template.configItems) {
    add(entry.id, entry.weight);
    if (entry.withDescendants) for (const id of cmdb.descendants(entry.id)) add(id, entry.weight);
  }
  return weights;
}

/** The template's working calendar as the maths reads it (null: always attended). */
export const calendarOf = (template: SlaSingleTemplateModel): WorkingCalendar | null =>
  template.calendar ? { timeZone: template.timeZone, week: template.calendar.week, holidays: template.calendar.holidays } : null;

/** The template's rules: its priorities, its maintenance rule and its calendar. */
export const templateRules = (template: SlaSingleTemplateModel): SlaRules => ({
  priorities: template.priorities,
  excludeMaintenance: template.excludeMaintenance,
  calendar: calendarOf(template),
});

/**
 * How problems become downtime over `range` under `rules`: only the included priorities count,
 * open problems last until `now`, unattended time (outside the calendar) is nobody's, and
 * maintenance is a bucket of its own when the rules exclude it (ci-figures.ts).
 */
export const figuresContext = (rules: SlaRules, range: Interval, now: number): CiFiguresContext => ({
  range,
  now,
  included: new Set(rules.priorities),
  excludeMaintenance: rules.excludeMaintenance,
  unattended: unattendedIntervals(rules.calendar, range),
});

/** The template's current period (its `period` in its time zone) at `now`. */
export const templatePeriod = (template: SlaSingleTemplateModel, now: number): Interval => periodRange(template.period, template.timeZone, now);

/** The maintenance a budget reads: that of the whole period (scheduled later counts) and of the burn windows. */
export const budgetReach = (period: Interval, now: number): Interval => ({ start: Math.min(period.start, now - DAY_MS), end: Math.max(period.end, now) });

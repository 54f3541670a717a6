/**
 * Live SLA figures of one CI (issue #18): where it stands now, without ordering a report. Pure:
 * given the CI's problems and maintenance as the API process holds them, and now, it returns
 * - its availability over the rolling windows 24 h, 7 d and 30 d ending now, with the default
 *   rules of DESIGN §9 (priorities 1 and 2 count, maintenance excluded, always attended): the
 *   figures an ordered report of a template with those rules gives over the same range;
 * - for each template with a target that covers the CI, its error budget in the template's
 *   current period, with the template's own rules, and the burn rates over the last 1 h and 6 h
 *   (the SRE multi-window form).
 *
 * The budget is the problem time the CI may still have without its period's availability falling
 * under the target: the period's eligible time (neither unattended nor, when the template
 * excludes it, maintenance; maintenance scheduled later in the period counts as known) times
 * (1 − target), minus the problem time so far. A burn rate is the share of eligible time that was
 * problem time in the window, divided by (1 − target): 1 spends the budget exactly over the
 * period, 14.4 over 1 h spends 2 % of a 30-day budget. A window with no eligible time burns 0.
 */
import { clipIntervals } from '../time/interval-ops.js';
import { ciFigures } from './ci-figures.js';
import type { Interval, ProblemTimes, SlaFigures } from './sla.types.js';
import { figuresContext, type SlaRules } from './template-rules.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const LIVE_WINDOWS = [
  { name: '24h', ms: DAY_MS },
  { name: '7d', ms: 7 * DAY_MS },
  { name: '30d', ms: 30 * DAY_MS },
] as const;
export const BURN_WINDOWS = [
  { name: '1h', ms: HOUR_MS },
  { name: '6h', ms: 6 * HOUR_MS },
] as const;
export type LiveWindowName = (typeof LIVE_WINDOWS)[number]['name'];
export type BurnWindowName = (typeof BURN_WINDOWS)[number]['name'];

/** The rules of the live windows: a template's defaults (DESIGN §9). */
export const DEFAULT_RULES: SlaRules = { priorities: [1, 2], excludeMaintenance: true, calendar: null };

/** One CI as the live figures read it. */
export interface LiveCi {
  /** Its problems, of any priority, in any order; those outside a range are skipped. */
  problems: readonly ProblemTimes[];
  /** Its maintenance, merged (sorted, disjoint); clipped here to each range. */
  maintenance: readonly Interval[];
}

export interface LiveWindowFigures {
  window: LiveWindowName;
  /** ok / (ok + problem) × 100; 100 when neither. */
  availability: number;
  okMs: number;
  problemMs: number;
  maintenanceMs: number;
  maxDowntimeMs: number;
}

export interface LiveBudget {
  target: number;
  period: Interval;
  /** Problem time the period allows at the target. */
  allowedMs: number;
  /** Problem time so far in the period. */
  usedMs: number;
  /** allowedMs − usedMs: negative once the target is missed. */
  remainingMs: number;
  /** remainingMs / allowedMs (1 when the period allows nothing and nothing was used). */
  remaining: number;
  burnRates: Record<BurnWindowName, number>;
}

/** The CI's figures over `range` under `rules` (open problems last until `now`). */
export function rangeFigures(ci: LiveCi, rules: SlaRules, range: Interval, now: number): SlaFigures {
  const maintenance = ci.maintenance.length > 0 ? clipIntervals(ci.maintenance, range) : [];
  return ciFigures(figuresContext(rules, range, now), maintenance, ci.problems);
}

/** Availability over the rolling windows ending now, with the default rules. */
export function liveWindows(ci: LiveCi, now: number): LiveWindowFigures[] {
  return LIVE_WINDOWS.map(({ name, ms }) => {
    const f = rangeFigures(ci, DEFAULT_RULES, { start: now - ms, end: now }, now);
    return { window: name, availability: f.serviceAvailability, okMs: f.okMs, problemMs: f.problemMs, maintenanceMs: f.maintenanceMs, maxDowntimeMs: f.maxDowntimeMs };
  });
}

/** Problem share of eligible time over (1 − target); 0 without eligible time. */
function burnRate(f: SlaFigures, target: number): number {
  const eligible = f.okMs + f.problemMs;
  return eligible > 0 ? f.problemMs / eligible / (1 - target / 100) : 0;
}

/** The error budget of a CI in `period` against `target` (percent), with burn rates. */
export function liveBudget(ci: LiveCi, rules: SlaRules, target: number, period: Interval, now: number): LiveBudget {
  const allowance = 1 - target / 100;
  // Eligible time of the whole period: its figures with no problem at all are all ok time.
  const eligibleMs = rangeFigures({ problems: [], maintenance: ci.maintenance }, rules, period, now).okMs;
  const soFar = { start: period.start, end: Math.max(period.start, Math.min(period.end, now)) };
  const usedMs = rangeFigures(ci, rules, soFar, now).problemMs;
  const allowedMs = allowance * eligibleMs;
  const remainingMs = allowedMs - usedMs;
  const burnRates = Object.fromEntries(BURN_WINDOWS.map(({ name, ms }) => [name, burnRate(rangeFigures(ci, rules, { start: now - ms, end: now }, now), target)])) as Record<
    BurnWindowName,
    number
  >;
  return { target, period, allowedMs, usedMs, remainingMs, remaining: allowedMs > 0 ? remainingMs / allowedMs : 1, burnRates };
}

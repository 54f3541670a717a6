/**
 * Live SLA figures of a whole Single template (issue #33: the console's SLA screen): where its
 * CIs stand now in the template's current period, with its rules. Pure, like live-figures.ts.
 *
 * - availability: the weighted mean of the CIs' availability so far in the period, as an ordered
 *   report's template figure is (single-template.ts `templateFigures`);
 * - budget (templates with a target): the weighted means of the CIs' allowed and used problem
 *   time, so `remaining` is the share of the template's budget left; the burn rates are the
 *   weighted problem time over the weighted eligible time of the window, over (1 − target);
 * - worst: the CIs with the least budget left (those that used some), for a drill-down.
 *
 * A CI with neither a problem nor maintenance has the figures its calendar alone gives, the same
 * for every such CI: computed once, so 10 000 quiet CIs cost what one does.
 */
import { BURN_WINDOWS, type BurnWindowName, type LiveCi, rangeFigures } from './live-figures.js';
import type { Interval } from './sla.types.js';
import type { SlaRules } from './template-rules.js';

export interface LiveTemplateCi {
  ciId: number;
  weight: number;
  ci: LiveCi;
}

export interface LiveCiStanding {
  ciId: number;
  availability: number;
  allowedMs: number;
  usedMs: number;
  remaining: number;
  burnRates: Record<BurnWindowName, number>;
}

export interface LiveTemplateBudget {
  target: number;
  allowedMs: number;
  usedMs: number;
  remainingMs: number;
  remaining: number;
  burnRates: Record<BurnWindowName, number>;
}

export interface LiveTemplateFigures {
  period: Interval;
  configItems: number;
  availability: number;
  budget: LiveTemplateBudget | null;
  worst: LiveCiStanding[];
}

/** One CI's figures, with the eligible and problem time of each burn window (for the weighted rates). */
interface Standing extends LiveCiStanding {
  windows: Record<BurnWindowName, { eligibleMs: number; problemMs: number }>;
}

function standing(ciId: number, ci: LiveCi, rules: SlaRules, target: number | null, period: Interval, now: number): Standing {
  const soFar = { start: period.start, end: Math.max(period.start, Math.min(period.end, now)) };
  const f = rangeFigures(ci, rules, soFar, now);
  const allowance = target === null ? 0 : 1 - target / 100;
  const allowedMs = target === null ? 0 : allowance * rangeFigures({ problems: [], maintenance: ci.maintenance }, rules, period, now).okMs;
  const windows = {} as Standing['windows'];
  const burnRates = {} as Record<BurnWindowName, number>;
  for (const { name, ms } of BURN_WINDOWS) {
    const w = target === null ? { okMs: 0, problemMs: 0 } : rangeFigures(ci, rules, { start: now - ms, end: now }, now);
    windows[name] = { eligibleMs: w.okMs + w.problemMs, problemMs: w.problemMs };
    burnRates[name] = allowance > 0 && windows[name].eligibleMs > 0 ? w.problemMs / windows[name].eligibleMs / allowance : 0;
  }
  const usedMs = f.problemMs;
  return { ciId, availability: f.serviceAvailability, allowedMs, usedMs, remaining: allowedMs > 0 ? (allowedMs - usedMs) / allowedMs : 1, burnRates, windows };
}

/** The template's live figures over its CIs (weights as the template gives them); `worst` at most `worstCount`. */
export function liveTemplate(cis: Iterable<LiveTemplateCi>, rules: SlaRules, target: number | null, period: Interval, now: number, worstCount: number): LiveTemplateFigures {
  let quiet: Standing | undefined;
  let weights = 0;
  let availability = 0;
  let allowed = 0;
  let used = 0;
  let count = 0;
  const burn = Object.fromEntries(BURN_WINDOWS.map(({ name }) => [name, { eligibleMs: 0, problemMs: 0 }])) as Standing['windows'];
  const touched: Standing[] = [];
  for (const { ciId, weight, ci } of cis) {
    count++;
    const isQuiet = ci.problems.length === 0 && ci.maintenance.length === 0;
    const s = isQuiet ? (quiet ??= standing(ciId, ci, rules, target, period, now)) : standing(ciId, ci, rules, target, period, now);
    weights += weight;
    availability += weight * s.availability;
    allowed += weight * s.allowedMs;
    used += weight * s.usedMs;
    for (const { name } of BURN_WINDOWS) {
      burn[name].eligibleMs += weight * s.windows[name].eligibleMs;
      burn[name].problemMs += weight * s.windows[name].problemMs;
    }
    if (!isQuiet && s.usedMs > 0) touched.push({ ...s, ciId });
  }
  const mean = (x: number): number => (weights > 0 ? x / weights : 0);
  let budget: LiveTemplateBudget | null = null;
  if (target !== null) {
    const allowance = 1 - target / 100;
    const allowedMs = mean(allowed);
    const usedMs = mean(used);
    const burnRates = Object.fromEntries(
      BURN_WINDOWS.map(({ name }) => [name, allowance > 0 && burn[name].eligibleMs > 0 ? burn[name].problemMs / burn[name].eligibleMs / allowance : 0]),
    ) as Record<BurnWindowName, number>;
    budget = { target, allowedMs, usedMs, remainingMs: allowedMs - usedMs, remaining: allowedMs > 0 ? (allowedMs - usedMs) / allowedMs : 1, burnRates };
  }
  touched.sort((a, b) => a.remaining - b.remaining || b.usedMs - a.usedMs || a.ciId - b.ciId);
  const worst = touched.slice(0, worstCount).map(({ windows: _w, ...s }) => s);
  return { period, configItems: count, availability: weights > 0 ? availability / weights : 100, budget, worst };
}

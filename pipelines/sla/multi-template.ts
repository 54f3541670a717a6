/**
 * A Multi template's report (spec 2.16): one row per Single template, times in whole
 * milliseconds. `influence` = weight / Σ weights (a fraction, as DESIGN §9 states it; 0 when
 * Σ weights is 0); the whole availability = Σ weight × availability / Σ weights (100 when there
 * is no weight). The four time figures are rounded together so that they still add up to the
 * rounded total (largest remainder), and attendedTime = total − unattendedTime.
 */
import type { SlaTemplateRowModel } from '../../schemas/sla-export.schema.js';
import type { MultiTemplateResult, SlaFigures } from './sla.types.js';

export interface MultiTemplateItem {
  name: string;
  weight: number;
  figures: SlaFigures;
}

/** Non-negative parts rounded to integers that sum to the rounded sum; leftovers go to the largest fractions, earlier parts first on a tie. */
export function roundParts(parts: readonly number[]): number[] {
  const total = Math.round(parts.reduce((a, b) => a + b, 0));
  const floors = parts.map(Math.floor);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = parts.map((p, i) => ({ i, frac: p - Math.floor(p) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return floors;
}

export function templateRow(item: MultiTemplateItem, totalWeight: number): SlaTemplateRowModel {
  const f = item.figures;
  const [okTime, problemTime, unattendedTime, maintenanceTime] = roundParts([f.okMs, f.problemMs, f.unattendedMs, f.maintenanceMs]) as [number, number, number, number];
  const totalMs = f.okMs + f.problemMs + f.unattendedMs + f.maintenanceMs;
  return {
    name: item.name,
    weight: item.weight,
    influence: totalWeight > 0 ? item.weight / totalWeight : 0,
    serviceAvailability: f.serviceAvailability,
    okTime,
    problemTimePercent: totalMs > 0 ? (f.problemMs / totalMs) * 100 : 0,
    problemTime,
    attendedTime: okTime + problemTime + maintenanceTime,
    unattendedTime,
    maintenanceTime,
    eventsCount: f.eventsCount,
    problem1EventsCount: f.counts[0],
    problem2EventsCount: f.counts[1],
    problem3EventsCount: f.counts[2],
    problem4EventsCount: f.counts[3],
    maxDownTime: Math.round(f.maxDowntimeMs),
  };
}

export function calculateMulti(templates: readonly MultiTemplateItem[]): MultiTemplateResult {
  let totalWeight = 0;
  let weighted = 0;
  for (const t of templates) {
    totalWeight += t.weight;
    weighted += t.weight * t.figures.serviceAvailability;
  }
  return {
    serviceAvailability: totalWeight > 0 ? weighted / totalWeight : 100,
    templateRows: templates.map((t) => templateRow(t, totalWeight)),
  };
}

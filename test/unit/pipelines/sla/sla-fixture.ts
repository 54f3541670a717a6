/** Builders for the SLA calculation's pure tests. T0 is Monday 2024-01-01T00:00Z. */

import type { CiFiguresContext } from '../../../../pipelines/sla/ci-figures.js';
import type { Interval, ProblemInput, SlaCiInput } from '../../../../pipelines/sla/sla.types.js';

export const M = 60_000;
export const H = 3_600_000;
export const D = 24 * H;
export const T0 = Date.parse('2024-01-01T00:00:00.000Z');
/** T0 + h hours. */
export const at = (h: number): number => T0 + h * H;
export const utc = (iso: string): number => Date.parse(iso);

export function problem(id: string, startH: number, endH: number | null, over: Partial<ProblemInput> = {}): ProblemInput {
  return {
    id,
    trigger: { id: 7, name: `trigger of ${id}` },
    ciId: 1,
    start: at(startH),
    end: endH === null ? null : at(endH),
    priority: 1,
    influence: { value: 100, maxInfluence: false },
    tags: [],
    incidents: [],
    ...over,
  };
}

export const pct = (value: number) => ({ value, maxInfluence: false });

export function ci(id: number, problems: ProblemInput[], over: Partial<SlaCiInput> = {}): SlaCiInput {
  return {
    id,
    name: `ci-${id}`,
    type: { id: 3, name: 'Server', description: 'A server' },
    weight: 1,
    maintenance: [],
    problems: problems.map((p) => ({ ...p, ciId: id })),
    ...over,
  };
}

/** A day [T0, T0 + 24 h), now well after it, priorities 1 and 2, always attended. */
export function context(over: Partial<CiFiguresContext> = {}): CiFiguresContext {
  return { range: { start: at(0), end: at(24) }, now: at(48), included: new Set([1, 2]), excludeMaintenance: false, unattended: [], ...over };
}

export const hours = (startH: number, endH: number): Interval => ({ start: at(startH), end: at(endH) });

/**
 * The live SLA of a CI (issue #18), shown by GET config-items/{id} and POST config-items/filter
 * with `includeSla=true`: availability over rolling windows ending now, and, per SLA template
 * with a target that covers the CI, the error budget of the template's current period and the
 * burn rates (pipelines/sla/live-figures.ts says how each figure is computed).
 */
import Type, { type Static } from 'typebox';

const Ms = (description: string) => Type.Number({ description: `${description} (milliseconds)` });

export const LiveSlaWindow = Type.Object(
  {
    window: Type.Union([Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d')], { description: 'The rolling window ending now' }),
    availability: Type.Number({ description: 'ok / (ok + problem) × 100, with the default rules (priorities 1 and 2, maintenance excluded, always attended); 100 when neither' }),
    okMs: Ms('Time without an included problem, outside maintenance'),
    problemMs: Ms('Problem time, weighted by the largest influence of the problems open'),
    maintenanceMs: Ms('Time under maintenance'),
    maxDowntimeMs: Ms('Longest unbroken stretch with an included problem open'),
  },
  { additionalProperties: false },
);

export const LiveSlaBudget = Type.Object(
  {
    template: Type.Object({ id: Type.Integer(), name: Type.String() }, { description: 'A Single template with a target that covers the CI' }),
    target: Type.Number({ description: 'The template’s availability objective, percent' }),
    period: Type.Object(
      { start: Type.String({ format: 'date-time' }), end: Type.String({ format: 'date-time' }) },
      { description: 'The template’s period as of now (e.g. ThisMonth), in its time zone' },
    ),
    allowedMs: Ms('Problem time the period allows at the target: (1 − target) × its eligible time (neither unattended nor, when excluded, maintenance)'),
    usedMs: Ms('Problem time so far in the period, with the template’s rules'),
    remainingMs: Ms('allowedMs − usedMs; negative once the target is missed'),
    remaining: Type.Number({ description: 'remainingMs / allowedMs: 1 untouched, 0 spent, below 0 overspent' }),
    burnRate: Type.Object(
      { '1h': Type.Number(), '6h': Type.Number() },
      { description: 'Share of eligible time that was problem time over the last 1 h and 6 h, divided by (1 − target): 1 spends the budget exactly over the period' },
    ),
  },
  { additionalProperties: false },
);

export const CiLiveSla = Type.Object(
  {
    asOf: Type.String({ format: 'date-time', description: 'The problems are those known at this instant (read about every second)' }),
    windows: Type.Array(LiveSlaWindow),
    budgets: Type.Array(LiveSlaBudget, { description: 'One per template with a target that covers the CI, by template id; empty when none' }),
  },
  { additionalProperties: false, description: 'Live SLA figures (includeSla=true)' },
);

export type CiLiveSlaModel = Static<typeof CiLiveSla>;

export const ciLiveSlaExample = {
  asOf: '2026-03-02T08:33:15.250Z',
  windows: [
    { window: '24h', availability: 97.5, okMs: 84_240_000, problemMs: 2_160_000, maintenanceMs: 0, maxDowntimeMs: 2_160_000 },
    { window: '7d', availability: 99.64, okMs: 602_640_000, problemMs: 2_160_000, maintenanceMs: 0, maxDowntimeMs: 2_160_000 },
    { window: '30d', availability: 99.88, okMs: 2_578_140_000, problemMs: 3_060_000, maintenanceMs: 10_800_000, maxDowntimeMs: 2_160_000 },
  ],
  budgets: [
    {
      template: { id: 1, name: 'Billing availability' },
      target: 99.9,
      period: { start: '2026-03-01T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z' },
      allowedMs: 2_667_600,
      usedMs: 2_160_000,
      remainingMs: 507_600,
      remaining: 0.19,
      burnRate: { '1h': 0, '6h': 6 },
    },
  ],
} satisfies CiLiveSlaModel;

/**
 * Issue #33: where a whole template stands now (GET …/sla/templates/{id}/live), from the same
 * live problems (pipelines/sla/live-template.ts says how the CIs are combined).
 */
const Period = Type.Object(
  { start: Type.String({ format: 'date-time' }), end: Type.String({ format: 'date-time' }) },
  { description: 'The template’s period as of now, in its time zone' },
);
const BurnRate = Type.Object(
  { '1h': Type.Number(), '6h': Type.Number() },
  { description: 'Weighted problem time over weighted eligible time in the last 1 h and 6 h, divided by (1 − target)' },
);

export const TemplateLiveBudget = Type.Object(
  {
    target: Type.Number({ description: 'The template’s availability objective, percent' }),
    allowedMs: Ms('Weighted mean over the CIs of the problem time the period allows at the target'),
    usedMs: Ms('Weighted mean over the CIs of the problem time so far in the period'),
    remainingMs: Ms('allowedMs − usedMs; negative once the target is missed'),
    remaining: Type.Number({ description: 'remainingMs / allowedMs: 1 untouched, 0 spent, below 0 overspent' }),
    burnRate: BurnRate,
  },
  { additionalProperties: false },
);

const TemplatePart = Type.Object(
  {
    template: Type.Object({ id: Type.Integer(), name: Type.String() }),
    weight: Type.Number(),
    influence: Type.Number({ description: 'weight / Σ weights' }),
    period: Period,
    configItems: Type.Integer({ description: 'CIs the part covers now' }),
    availability: Type.Number({ description: 'Weighted mean of its CIs’ availability so far in its period, with its rules' }),
    budget: Type.Union([TemplateLiveBudget, Type.Null()], { description: 'Null when the part has no target' }),
  },
  { additionalProperties: false },
);

export const TemplateLiveSla = Type.Object(
  {
    asOf: Type.String({ format: 'date-time', description: 'The problems are those known at this instant (read about every second)' }),
    template: Type.Object({ id: Type.Integer(), name: Type.String(), type: Type.Union([Type.Literal('Single'), Type.Literal('Multi')]) }),
    period: Type.Union([Period, Type.Null()], { description: 'A Single template’s period; null for a Multi (each part has its own)' }),
    configItems: Type.Integer({ description: 'CIs covered now (a Multi: summed over its parts)' }),
    availability: Type.Number({
      description: 'Single: the weighted mean of its CIs’ availability so far in the period, with its rules; Multi: Σ weight × part availability / Σ weights (100 with no weight)',
    }),
    budget: Type.Union([TemplateLiveBudget, Type.Null()], { description: 'A Single template with a target: its error budget; otherwise null' }),
    worst: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          name: Type.String(),
          availability: Type.Number(),
          allowedMs: Ms('Problem time the period allows the CI'),
          usedMs: Ms('The CI’s problem time so far'),
          remaining: Type.Number(),
          burnRate: BurnRate,
        },
        { additionalProperties: false },
      ),
      { description: 'The CIs with the least budget left, of those with problem time in the period (at most 10); empty for a Multi' },
    ),
    parts: Type.Array(TemplatePart, { description: 'A Multi template’s Single templates, in its order; empty for a Single' }),
  },
  { additionalProperties: false },
);

export type TemplateLiveSlaModel = Static<typeof TemplateLiveSla>;

export const templateLiveSlaExample = {
  asOf: '2026-03-10T08:33:15.250Z',
  template: { id: 1, name: 'Billing availability', type: 'Single' },
  period: { start: '2026-03-01T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z' },
  configItems: 3,
  availability: 99.93,
  budget: { target: 99.9, allowedMs: 2_678_400, usedMs: 720_000, remainingMs: 1_958_400, remaining: 0.73, burnRate: { '1h': 0, '6h': 2 } },
  worst: [{ id: 2, name: 'billing-db', availability: 99.72, allowedMs: 2_678_400, usedMs: 2_160_000, remaining: 0.19, burnRate: { '1h': 0, '6h': 6 } }],
  parts: [],
} satisfies TemplateLiveSlaModel;

/**
 * Issue #18, not in the spec: the timeline of one CI of a finished custom SLA report — the range
 * cut into contiguous segments, each in one bucket (unattended ▸ maintenance ▸ problem ▸ ok, as
 * DESIGN §9), with what put it there: the calendar, the maintenance modes, the open problems and
 * the influence applied. The segments add up exactly to the report's figures for the CI.
 */
import Type, { type Static } from 'typebox';

const UtcDateTime = Type.String({ description: 'ISO 8601 date-time in UTC' });
const IdName = Type.Object({ id: Type.Integer(), name: Type.String() });

export const SlaTimelineQuery = Type.Object({
  configItemId: Type.Integer({ minimum: 1, description: 'A CI of the report’s template' }),
});

export const TimelineProblem = Type.Object({
  id: Type.String({ description: 'Problem id (GUID form), as in the event export' }),
  trigger: IdName,
  priority: Type.String({ description: 'Problem1..Problem4' }),
  isIncluded: Type.Boolean({ description: 'Its priority counts against the template' }),
  influence: Type.Object({ value: Type.Number(), maxInfluence: Type.Boolean() }),
  dateStart: UtcDateTime,
  dateEnd: Type.Union([UtcDateTime, Type.Null()], { description: 'null: open when the report was calculated (it lasted until then)' }),
});

export const TimelineSegment = Type.Object({
  dateStart: UtcDateTime,
  dateEnd: UtcDateTime,
  bucket: Type.Union([Type.Literal('unattended'), Type.Literal('maintenance'), Type.Literal('problem'), Type.Literal('ok')]),
  durationMs: Type.Integer(),
  weightPercent: Type.Number({ description: 'problem bucket: the largest influence of the included open problems; that share of the segment is problem time, the rest ok time' }),
  problemMs: Type.Number({ description: 'durationMs × weightPercent / 100 (the report rounds the CI’s sum once)' }),
  problems: Type.Array(Type.String(), {
    description: 'Ids of the included problems open during the segment, whatever its bucket (so a problem hidden by maintenance or unattended time shows)',
  }),
  maintenanceModes: Type.Array(Type.Object({ id: Type.Integer(), title: Type.Union([Type.String(), Type.Null()]) }), {
    description: 'maintenance bucket: the modes covering the CI during the segment',
  }),
  calendar: Type.Union([Type.Object({ timeZone: Type.String(), holidays: Type.Array(Type.String({ description: 'Local date YYYY-MM-DD' })) }), Type.Null()], {
    description: 'unattended bucket: outside the template’s working hours (in its zone); `holidays`: the template’s holidays the segment reaches into',
  }),
});

export const SlaTimeline = Type.Object({
  reportId: Type.String(),
  configItem: IdName,
  range: Type.Object({ start: UtcDateTime, end: UtcDateTime }),
  calculatedAt: UtcDateTime,
  excludeMaintenance: Type.Boolean(),
  priorities: Type.Array(Type.Integer(), { description: 'The priorities that count (1..4)' }),
  problems: Type.Array(TimelineProblem),
  segments: Type.Array(TimelineSegment),
  totals: Type.Object(
    {
      okMs: Type.Integer(),
      problemMs: Type.Integer(),
      unattendedMs: Type.Integer(),
      maintenanceMs: Type.Integer(),
      maxDowntimeSeconds: Type.Integer(),
    },
    { description: 'Summed from the segments; equal to the report’s okTime, problemTime, unattendedTime, maintenanceTime and maxDowntime for the CI' },
  ),
});

export type SlaTimelineModel = Static<typeof SlaTimeline>;
export type TimelineSegmentModel = Static<typeof TimelineSegment>;
export type TimelineProblemModel = Static<typeof TimelineProblem>;

/** A CI with a 30 % problem overnight, half of it in a maintenance window (examples checked against the schema). */
export const slaTimelineExample = {
  reportId: '5f1c2b7e-3a4d-4e8f-9b0a-1c2d3e4f5a6b',
  configItem: { id: 2, name: 'billing-db' },
  range: { start: '2026-03-01T00:00:00.000Z', end: '2026-03-02T00:00:00.000Z' },
  calculatedAt: '2026-03-02T06:00:00.000Z',
  excludeMaintenance: true,
  priorities: [1, 2],
  problems: [
    {
      id: '128ad179-a225-80d1-62ce-beb60ab0c8d9',
      trigger: { id: 3, name: 'cpu high' },
      priority: 'Problem2',
      isIncluded: true,
      influence: { value: 30, maxInfluence: false },
      dateStart: '2026-03-01T01:00:00.000Z',
      dateEnd: '2026-03-01T03:00:00.000Z',
    },
  ],
  segments: [
    {
      dateStart: '2026-03-01T00:00:00.000Z',
      dateEnd: '2026-03-01T01:00:00.000Z',
      bucket: 'ok',
      durationMs: 3_600_000,
      weightPercent: 0,
      problemMs: 0,
      problems: [],
      maintenanceModes: [],
      calendar: null,
    },
    {
      dateStart: '2026-03-01T01:00:00.000Z',
      dateEnd: '2026-03-01T02:00:00.000Z',
      bucket: 'maintenance',
      durationMs: 3_600_000,
      weightPercent: 0,
      problemMs: 0,
      problems: ['128ad179-a225-80d1-62ce-beb60ab0c8d9'],
      maintenanceModes: [{ id: 1, title: 'PostgreSQL 17 upgrade' }],
      calendar: null,
    },
    {
      dateStart: '2026-03-01T02:00:00.000Z',
      dateEnd: '2026-03-01T03:00:00.000Z',
      bucket: 'problem',
      durationMs: 3_600_000,
      weightPercent: 30,
      problemMs: 1_080_000,
      problems: ['128ad179-a225-80d1-62ce-beb60ab0c8d9'],
      maintenanceModes: [],
      calendar: null,
    },
    {
      dateStart: '2026-03-01T03:00:00.000Z',
      dateEnd: '2026-03-02T00:00:00.000Z',
      bucket: 'ok',
      durationMs: 75_600_000,
      weightPercent: 0,
      problemMs: 0,
      problems: [],
      maintenanceModes: [],
      calendar: null,
    },
  ],
  totals: { okMs: 81_720_000, problemMs: 1_080_000, unattendedMs: 0, maintenanceMs: 3_600_000, maxDowntimeSeconds: 3600 },
} satisfies SlaTimelineModel;

/**
 * One CI's figures and problems ▸ the JSON export rows of spec 2.13 and 2.14. Times are
 * milliseconds except the CI row's `maxDowntime`, which spec 2.14 gives in seconds (rounded to
 * the nearest second). Percents are of end − start (0 for an empty range).
 */
import type { SlaCiRowModel, SlaEventRowModel } from '../../schemas/sla-export.schema.js';
import { USERSPACE_ID } from '../../schemas/sla-template.schema.js';
import { isoUtc } from './iso-time.js';
import type { ProblemInput, SlaCiInput, SlaCiMeta, SlaFigures } from './sla.types.js';

export type CiTypeModel = SlaCiRowModel['configItem']['configItemType'];
export type InfluenceModel = SlaCiRowModel['configItem']['influence'];

/**
 * The CI type as the export shows it: the platform's one userspace (as for workgroups,
 * docs/decisions.md), and its icon object, or null when the type has none.
 */
export function ciTypeModel(type: SlaCiInput['type']): CiTypeModel {
  return { id: type.id, name: type.name, description: type.description, icon: type.icon ?? null, userspaceId: type.userspaceId ?? USERSPACE_ID };
}

/** A CI's influence in its template: its share of the weights, in percent. */
export const ciInfluence = (weight: number, totalWeight: number): InfluenceModel => ({
  value: totalWeight > 0 ? (weight / totalWeight) * 100 : 0,
  maxInfluence: false,
});

const share = (value: number, totalMs: number) => ({ percent: totalMs > 0 ? (value / totalMs) * 100 : 0, value });

/** Spec 2.14: one CI row. `withMaintenance`: the CI had maintenance time in the range. */
export function ciRow(ci: SlaCiMeta, type: CiTypeModel, figures: SlaFigures, totalMs: number, influence: InfluenceModel, withMaintenance: boolean): SlaCiRowModel {
  return {
    configItem: {
      id: ci.id,
      name: ci.name,
      configItemType: type,
      isIncluded: true,
      withMaintenance,
      influence,
      serviceAvailability: figures.serviceAvailability,
    },
    okTime: share(figures.okMs, totalMs),
    problemTime: share(figures.problemMs, totalMs),
    unattendedTime: share(figures.unattendedMs, totalMs),
    maintenanceTime: share(figures.maintenanceMs, totalMs),
    serviceAvailability: figures.serviceAvailability,
    maxDowntime: Math.round(figures.maxDowntimeMs / 1000),
    problem1EventsCount: figures.counts[0],
    problem2EventsCount: figures.counts[1],
    problem3EventsCount: figures.counts[2],
    problem4EventsCount: figures.counts[3],
    eventsCount: figures.eventsCount,
  };
}

const PRIORITY_NAMES = ['Problem0', 'Problem1', 'Problem2', 'Problem3', 'Problem4'];

/** A CI's entry in its event rows; one per CI and withMaintenance value, shared by the rows. */
export type EventCiModel = SlaEventRowModel['configItems'][number];

export function eventCi(ci: SlaCiMeta, type: CiTypeModel, influence: InfluenceModel, withMaintenance: boolean): EventCiModel {
  return { id: ci.id, name: ci.name, configItemType: type, withMaintenance, influence, isIncluded: true };
}

/**
 * Spec 2.13: one problem of any priority overlapping the range. `duration` is the problem's own
 * length, not clipped to the range (an open one: until now, 0 if now is before its start). The
 * CI entry carries the CI's influence in the template (as in its CI row) and whether the problem
 * overlapped the CI's maintenance in the range. Nested objects (trigger, tags, influence,
 * incidents, configItems) are shared with the input and between rows: rows are read-only.
 */
export function eventRow(p: ProblemInput, isIncluded: boolean, configItems: EventCiModel[], now: number): SlaEventRowModel {
  return {
    id: p.id,
    isIncluded,
    trigger: p.trigger,
    dateStart: isoUtc(p.start),
    dateEnd: p.end === null ? null : isoUtc(p.end),
    duration: Math.max(0, (p.end ?? now) - p.start),
    priority: PRIORITY_NAMES[p.priority] ?? `Problem${p.priority}`,
    tags: p.tags,
    configItems,
    influence: p.influence,
    incidents: p.incidents,
  };
}

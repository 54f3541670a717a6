/**
 * The two questions the event pipeline and the SLA ask of maintenance (DESIGN §8): which modes
 * cover a CI at an instant, and over which intervals a CI was under maintenance. `CiAndChildren`
 * is resolved against the hierarchy as it is when asked: the CI's own entries count, and so do
 * the `CiAndChildren` entries of each ancestor whose depth reaches down to the CI. The walk
 * touches the CI's ancestors and the entries indexed on them, never the whole set of modes.
 */
import { mergeIntervals } from '../../../pipelines/sla/interval-ops.js';
import type { Interval } from '../../../pipelines/sla/sla.types.js';
import type { PlatformModel } from '../slices.js';
import type { EntryRef } from './maintenance.slice.js';
import type { ScopeEntryRecord } from './maintenance.types.js';

export type { Interval };
export { mergeIntervals };

const reaches = (entry: ScopeEntryRecord, distance: number): boolean => distance === 0 || (entry.scope === 'CiAndChildren' && (entry.depth === -1 || entry.depth >= distance));

/** Calls `visit` with every live entry that covers `ciId` through the CI itself or an ancestor. */
function eachCoveringEntry(model: PlatformModel, ciId: number, visit: (ref: EntryRef) => void): void {
  const maintenance = model.slices.maintenance;
  const visitAt = (id: number, distance: number): void => {
    for (const ref of maintenance.entriesOn(id)) {
      if (ref.mode.canceledAt === null && reaches(ref.entry, distance)) visit(ref);
    }
  };
  visitAt(ciId, 0);
  let distance = 0;
  for (const ancestorId of model.slices.cmdb.ancestors(ciId)) visitAt(ancestorId, ++distance);
}

/** Ids of the modes covering the CI at `at` (epoch ms), ascending. */
export function modesCovering(model: PlatformModel, ciId: number, at: number): number[] {
  const ids = new Set<number>();
  eachCoveringEntry(model, ciId, ({ mode, entry }) => {
    if (entry.start <= at && at < entry.end) ids.add(mode.id);
  });
  return [...ids].sort((a, b) => a - b);
}

/** The CI's maintenance within [from, to): sorted, disjoint intervals, touching ones merged. */
export function maintenanceIntervals(model: PlatformModel, ciId: number, from: number, to: number): Interval[] {
  const raw: Interval[] = [];
  eachCoveringEntry(model, ciId, ({ entry }) => {
    const start = Math.max(entry.start, from);
    const end = Math.min(entry.end, to);
    if (start < end) raw.push({ start, end });
  });
  return mergeIntervals(raw);
}

/**
 * The two questions the event pipeline and the SLA ask of maintenance (DESIGN §8): which modes
 * cover a CI at an instant, and over which intervals a CI was under maintenance. `CiAndChildren`
 * is resolved against the hierarchy as it is when asked: the CI's own entries count, and so do
 * the `CiAndChildren` entries of each ancestor whose depth reaches down to the CI. The walk
 * touches the CI's ancestors and the entries indexed on them, never the whole set of modes.
 * A recurring mode (issue #17) covers within its entries only during its occurrences, which
 * pipelines/maintenance/recurrence.ts computes in the mode's time zone and keeps per mode.
 */
import { type Interval, mergeIntervals } from '../../../pipelines/time/interval-ops.js';
import type { PlatformModel } from '../model.js';
import { compileRecurrence, type Recurring } from '../../../pipelines/maintenance/recurrence.js';
import type { EntryRef } from './maintenance.slice.js';
import type { MaintenanceRecord, ScopeEntryRecord } from './maintenance.types.js';

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

/** Compiled once per stored mode: an edit stores a new record, which compiles afresh. */
const compiled = new WeakMap<MaintenanceRecord, Recurring>();

export function recurringOf(mode: MaintenanceRecord): Recurring | undefined {
  if (!mode.recurrence) return undefined;
  let recurring = compiled.get(mode);
  if (!recurring) compiled.set(mode, (recurring = compileRecurrence(mode.recurrence, mode.start, mode.end)));
  return recurring;
}

/** The parts of [from, to) the entry covers: all of it for a one-off mode, its occurrences for a recurring one. */
function coveredBy(ref: EntryRef, from: number, to: number, out: Interval[]): void {
  const start = Math.max(ref.entry.start, from);
  const end = Math.min(ref.entry.end, to);
  if (start >= end) return;
  const recurring = recurringOf(ref.mode);
  if (!recurring) {
    out.push({ start, end });
    return;
  }
  for (const o of recurring.occurrences(start, end)) {
    const s = Math.max(o.start, start);
    const e = Math.min(o.end, end);
    if (s < e) out.push({ start: s, end: e });
  }
}

/** Ids of the modes covering the CI at `at` (epoch ms), ascending. */
export const modesCovering = (model: PlatformModel, ciId: number, at: number): number[] => modesOverlapping(model, ciId, at, at + 1);

/** Ids of the modes covering the CI at some time within [from, to), ascending. */
export function modesOverlapping(model: PlatformModel, ciId: number, from: number, to: number): number[] {
  const ids = new Set<number>();
  const found: Interval[] = [];
  eachCoveringEntry(model, ciId, (ref) => {
    found.length = 0;
    coveredBy(ref, from, to, found);
    if (found.length > 0) ids.add(ref.mode.id);
  });
  return [...ids].sort((a, b) => a - b);
}

/** The CI's maintenance within [from, to): sorted, disjoint intervals, touching ones merged. */
export function maintenanceIntervals(model: PlatformModel, ciId: number, from: number, to: number): Interval[] {
  const raw: Interval[] = [];
  eachCoveringEntry(model, ciId, (ref) => coveredBy(ref, from, to, raw));
  return mergeIntervals(raw);
}

/**
 * The maintenance windows active at an instant, with the CIs they cover (issue #31), for
 * pipelines/notifications/maintenance-transitions.ts. Read from the control plane's model, by the
 * rules of services/control-plane/maintenance/: a mode that is `Active` (modeState), during its
 * window — a one-off mode's [start, end), or the occurrence of a recurring mode running now
 * (recurringOf, its end cut at the series' end as the mode's view shows it) — covers the CIs its
 * scope entries live now name, with their descendants for `CiAndChildren` to the entry's depth,
 * resolved against the hierarchy as it is now. Each CI listed is then checked with
 * `modesCovering`, the question the problem stage, the problems API and the live SLA ask, so a CI
 * is listed exactly when they count it under this mode. CIs no longer in the CMDB are left out,
 * and so is a window left with no CI.
 *
 * Bounded: a mode on the root of a large tree covers every CI below it, and each window's list
 * travels in every maintenance event and in the dispatcher's saved state. A window lists its
 * first MAX_WINDOW_CIS CIs by id; problems on the CIs past them are not held by the maintenance
 * gate (they are still counted as maintenance by the SLA and shown so by the problems API).
 * The list of a mode is computed again only when the mode, the CMDB or the scope entries live
 * now change, so a tick costs in proportion to the modes, not to the CIs they cover.
 */
import type { ActiveWindow } from '../../pipelines/notifications/maintenance-transitions.js';
import { modesCovering, recurringOf } from '../control-plane/maintenance/maintenance-coverage.js';
import { type MaintenanceRecord, modeState, type ScopeEntryRecord } from '../control-plane/maintenance/maintenance.types.js';
import type { PlatformModel } from '../control-plane/model.js';

/** The most CIs one window names (by id ascending). */
export const MAX_WINDOW_CIS = 1000;

/** The window of the mode running at `now`, or undefined between occurrences / outside the mode. */
function windowAt(mode: MaintenanceRecord, now: number): { start: number; end: number } | undefined {
  if (modeState(mode, now) !== 'Active') return undefined;
  const recurring = recurringOf(mode);
  if (!recurring || !mode.recurrence) return now < mode.end ? { start: mode.start, end: mode.end } : undefined;
  const occurrence = recurring.occurrences(now, now + 1).find((o) => o.start <= now && now < o.end);
  return occurrence && { start: occurrence.start, end: Math.min(occurrence.end, mode.recurrence.seriesEnd) };
}

const liveAt = (entry: ScopeEntryRecord, now: number): boolean => entry.start <= now && now < entry.end;

interface CachedCis {
  cmdbChanges: number;
  limit: number;
  /** Which entries were live (their indexes), the other input of the list. */
  live: string;
  configItems: ActiveWindow['configItems'];
}
/** By stored mode record: an edit stores a new record, which is computed afresh. */
const cache = new WeakMap<MaintenanceRecord, CachedCis>();

/** The CIs the mode covers at `now`, by id, at most `limit`. */
function coveredCis(model: PlatformModel, mode: MaintenanceRecord, now: number, limit: number): ActiveWindow['configItems'] {
  const cmdb = model.slices.cmdb;
  const entries = mode.entries.filter((entry) => liveAt(entry, now));
  const live = entries.map((entry) => mode.entries.indexOf(entry)).join(',');
  const cached = cache.get(mode);
  if (cached && cached.cmdbChanges === cmdb.changes && cached.live === live && cached.limit === limit) return cached.configItems;

  const ids = new Set<number>();
  for (const entry of entries) {
    ids.add(entry.ciId);
    if (entry.scope === 'CiAndChildren') for (const id of cmdb.descendants(entry.ciId, entry.depth)) ids.add(id);
  }
  const configItems: ActiveWindow['configItems'] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    if (configItems.length >= limit) break;
    const ci = cmdb.cis.get(id);
    if (ci && modesCovering(model, id, now).includes(mode.id)) configItems.push({ id, name: ci.name });
  }
  cache.set(mode, { cmdbChanges: cmdb.changes, limit, live, configItems });
  return configItems;
}

/** The maintenance windows active at `now`, by maintenance id; each with at most `maxCis` CIs. */
export function activeWindows(model: PlatformModel, now: number, maxCis = MAX_WINDOW_CIS): ActiveWindow[] {
  const out: ActiveWindow[] = [];
  for (const mode of model.slices.maintenance.modes.values()) {
    const window = windowAt(mode, now);
    if (!window) continue;
    const configItems = coveredCis(model, mode, now, maxCis);
    if (configItems.length === 0) continue;
    out.push({ maintenanceId: mode.id, title: mode.title ?? `Maintenance ${mode.id}`, windowStart: window.start, windowEnd: window.end, configItems });
  }
  return out.sort((a, b) => a.maintenanceId - b.maintenanceId);
}

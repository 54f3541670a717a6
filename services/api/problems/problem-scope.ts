/**
 * Which CIs a problem query may return, decided once per request from the control plane: the
 * CIs asked for (with their descendants), those the caller may see with at least basic-read
 * (a filter, never a 403), those under maintenance now, and those whose name holds the search.
 * The SQL read and the in-memory filter then test a problem's CI against these sets.
 */
import { modesCovering } from '../../control-plane/maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../../control-plane/model.js';
import type { ProblemFilter } from './problem-filter.js';

export interface ProblemScope {
  /** The CIs asked for (with their descendants, among those the caller may see); undefined: any. */
  cis?: ReadonlySet<number>;
  /** The caller's sight, when not an admin's: a problem's CI must pass it. */
  visible?: (ciId: number) => boolean;
  /** The same as a list, for a SQL filter (computed once per caller and model revision). */
  visibleIds?: () => ReadonlySet<number>;
  /** CIs whose problems are left out (inMaintenance=false: those covered now). */
  excluded?: ReadonlySet<number>;
  /** CIs whose name holds the search text (a problem matches by its trigger's name or these). */
  searchCis?: ReadonlySet<number>;
  now: number;
}

/** What the caller may see, when it is not an admin: a test per CI and the list of them. */
export interface Sight {
  visible: (ciId: number) => boolean;
  ids: () => ReadonlySet<number>;
}

/** `sight`: undefined for an admin. */
export function resolveScope(model: PlatformModel, filter: ProblemFilter, sight: Sight | undefined, now: number): ProblemScope {
  const { cmdb } = model.slices;
  let cis: Set<number> | undefined;
  if (filter.configItemIds) {
    cis = new Set<number>();
    for (const id of filter.configItemIds) {
      if (sight && !sight.visible(id)) continue;
      cis.add(id);
      if (filter.withDescendants && cmdb.cis.has(id)) for (const d of cmdb.descendants(id)) if (!sight || sight.visible(d)) cis.add(d);
    }
  }
  const scope: ProblemScope = { now };
  if (sight) {
    scope.visible = sight.visible;
    scope.visibleIds = sight.ids;
  }
  if (filter.inMaintenance !== undefined) {
    const covered = new Set<number>();
    for (const id of cis ?? sight?.ids() ?? cmdb.cis.keys()) if (modesCovering(model, id, now).length > 0) covered.add(id);
    if (filter.inMaintenance) cis = covered;
    else scope.excluded = covered;
  }
  if (cis) scope.cis = cis;
  if (filter.search !== undefined) {
    const searchCis = new Set<number>();
    for (const ci of cis ? [...cis].map((id) => cmdb.cis.get(id)).filter((c) => c !== undefined) : cmdb.cis.values()) {
      if (ci.name.toLowerCase().includes(filter.search)) searchCis.add(ci.id);
    }
    scope.searchCis = searchCis;
  }
  return scope;
}

/**
 * CI state and health (DESIGN §7), read from the open problems the control plane holds, so a
 * GET shows them as of the last committed change:
 * - state: `Problem` with an open problem, `Ok` once the CI has had a trigger hit and has none
 *   open, `Unknown` before; `valueUnderMaintenance` repeats the value while a maintenance mode
 *   covers the CI, and is `Unknown` otherwise (docs/decisions.md).
 * - health: 100 − the largest influence of the CI's open problems (maxInfluence counts 100);
 *   a dependent CI's health is the minimum of its own and of each influential CI's health,
 *   following influence links (acyclic, DESIGN §4a).
 */
import { modesCovering } from '../maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../model.js';
import { type KeySummaryRecord, pendingCloseKey } from './problems.types.js';

export interface CiStateView {
  value: 'Ok' | 'Problem' | 'Unknown';
  valueUnderMaintenance: 'Ok' | 'Problem' | 'Unknown';
  /** Epoch ms of the last change of state, null before any. */
  changedAt: number | null;
}

export interface CiHealthView {
  value: number;
  direct: number;
  changedAt: number | null;
}

const lastChange = (keys: readonly KeySummaryRecord[]): number | null => (keys.length === 0 ? null : Math.max(...keys.map((k) => k.changedAt)));

/** Open, and not about to close because its trigger was deleted (the close is already decided). */
const isOpen = (model: PlatformModel, key: KeySummaryRecord): boolean => key.open && !model.slices.problems.pendingCloses.has(pendingCloseKey(key.triggerId, key.ciId));

export function ciState(model: PlatformModel, ciId: number, now: number): CiStateView {
  const keys = model.slices.problems.ofCi(ciId);
  const value = keys.length === 0 ? 'Unknown' : keys.some((k) => isOpen(model, k)) ? 'Problem' : 'Ok';
  const covered = modesCovering(model, ciId, now).length > 0;
  return { value, valueUnderMaintenance: covered ? value : 'Unknown', changedAt: lastChange(keys) };
}

/** 100 − the largest influence of the CI's own open problems. */
export function directHealth(model: PlatformModel, ciId: number): number {
  let worst = 0;
  for (const key of model.slices.problems.ofCi(ciId)) {
    if (!isOpen(model, key)) continue;
    const influence = model.slices.triggers.triggers.get(key.triggerId)?.influence ?? key.influence;
    worst = Math.max(worst, influence.maxInfluence ? 100 : influence.value);
  }
  return 100 - worst;
}

export function ciHealth(model: PlatformModel, ciId: number): CiHealthView {
  const cis = model.slices.cmdb.cis;
  const memo = new Map<number, number>();
  const healthOf = (id: number): number => {
    let value = memo.get(id);
    if (value !== undefined) return value;
    value = directHealth(model, id);
    for (const influential of cis.get(id)?.influentialIds ?? []) value = Math.min(value, healthOf(influential));
    memo.set(id, value);
    return value;
  };
  const value = healthOf(ciId);
  // The health changed when a problem of the CI or of any CI it depends on opened or closed.
  const changes = [...memo.keys()].map((id) => lastChange(model.slices.problems.ofCi(id))).filter((c): c is number => c !== null);
  return { value, direct: directHealth(model, ciId), changedAt: changes.length > 0 ? Math.max(...changes) : null };
}

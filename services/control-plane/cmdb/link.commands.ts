/** Hierarchy (#13, #15) and influence (#14, #16) links; both graphs stay acyclic (DESIGN §4a). */
import { fail, failFields } from '../../../schemas/errors.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import { type Actor, findCi, Level, requireLevel, requireLevelOnNamed, stamp } from './ci-checks.js';

/** True when `target` is reachable from `start` following `next`. */
function reaches(start: number, target: number, next: (id: number) => Iterable<number>): boolean {
  const seen = new Set<number>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const n of next(id)) stack.push(n);
  }
  return false;
}

export function addChild(parentId: number, childId: number, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const parent = findCi(model, parentId, 'Parent CI');
    const child = findCi(model, childId, 'Child CI');
    requireLevel(model, actor, parent, Level.Write, 'ci.parent_forbidden');
    // Moving a CI changes it (and what its new ancestors' grants give on it): the right to change
    // the CI moved as well as its new place.
    requireLevelOnNamed(model, actor, child, Level.Write, 'Child CI', 'ci.move_forbidden');
    if (parent.ownerWorkGroupId !== child.ownerWorkGroupId) {
      throw failFields('ci.link_across_work_groups', [{ path: '/id', message: 'the child must belong to the parent’s workgroup' }], { parentId, childId });
    }
    if (child.parentId === parentId) return { changes: [], result: () => childId };
    if (childId === parentId || [...cmdb.ancestors(parentId)].includes(childId)) {
      throw failFields('ci.hierarchy_cycle', [{ path: '/id', message: `CI ${childId} is CI ${parentId} or one of its ancestors: the link would close a cycle` }]);
    }
    return { changes: [{ key: `ci:${childId}`, value: stamp({ ...child, parentId }, actor, now) }], result: () => childId };
  };
}

export function removeChild(parentId: number, childId: number, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    const parent = findCi(model, parentId, 'Parent CI');
    const child = findCi(model, childId, 'Child CI');
    requireLevel(model, actor, parent, Level.Write, 'ci.parent_forbidden');
    requireLevelOnNamed(model, actor, child, Level.Write, 'Child CI', 'ci.move_forbidden');
    if (child.parentId !== parentId) throw fail('ci.not_a_child', { childId, parentId });
    return { changes: [{ key: `ci:${childId}`, value: stamp({ ...child, parentId: null }, actor, now) }], result: () => childId };
  };
}

function requireInfluenceRights(model: PlatformModel, actor: Actor, dependentId: number, influentialId: number): void {
  requireLevel(model, actor, findCi(model, dependentId, 'Dependent CI'), Level.Write, 'ci.dependent_forbidden');
  requireLevel(model, actor, findCi(model, influentialId, 'Influencing CI'), Level.Read, 'ci.influencing_forbidden');
}

export function addInfluential(dependentId: number, influentialId: number, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const dependent = findCi(model, dependentId, 'Dependent CI');
    findCi(model, influentialId, 'Influencing CI');
    requireInfluenceRights(model, actor, dependentId, influentialId);
    if (dependent.influentialIds.includes(influentialId)) return { changes: [], result: () => dependentId };
    if (dependentId === influentialId || reaches(dependentId, influentialId, (id) => cmdb.dependentIds(id))) {
      throw failFields('ci.influence_cycle', [{ path: '/id', message: `CI ${influentialId} already depends on CI ${dependentId}: the link would close a cycle` }]);
    }
    const next = stamp({ ...dependent, influentialIds: [...dependent.influentialIds, influentialId] }, actor, now);
    return { changes: [{ key: `ci:${dependentId}`, value: next }], result: () => dependentId };
  };
}

export function removeInfluential(dependentId: number, influentialId: number, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    const dependent = findCi(model, dependentId, 'Dependent CI');
    findCi(model, influentialId, 'Influencing CI');
    if (!dependent.influentialIds.includes(influentialId)) throw fail('ci.influence_not_found', { influentialId, dependentId });
    requireInfluenceRights(model, actor, dependentId, influentialId);
    const next = stamp({ ...dependent, influentialIds: dependent.influentialIds.filter((x) => x !== influentialId) }, actor, now);
    return { changes: [{ key: `ci:${dependentId}`, value: next }], result: () => dependentId };
  };
}

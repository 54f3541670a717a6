/** Create, update and delete of CIs (spec 4.1 #6, #7, #8; DESIGN §4a). */
import type { CiCreateBody, CiUpdateBody } from '../../../schemas/cmdb.schema.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { closeProblemsOfCi } from '../problems/problems.commands.js';
import type { PlatformCommand } from '../model.js';
import {
  type Actor,
  ciIdOrThrow,
  findCi,
  Level,
  requireLevel,
  requireName,
  requireOwnerChange,
  requireUniqueName,
  resolveCmdbSystem,
  resolveType,
  resolveWorkGroup,
  stamp,
} from './ci-checks.js';
import type { CiRecord, GrantRecord } from './cmdb.types.js';
import { checkGrantInputs } from './grant.commands.js';

export function createCi(body: CiCreateBody, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const name = requireName(body.name);
    const changes: JournalChange[] = [];
    let id: number;
    if (body.id !== null && body.id !== undefined) {
      id = ciIdOrThrow(body.id);
      if (cmdb.cis.has(id)) throw failFields('ci.id_taken', [{ path: '/id', message: 'already exists' }], { id });
      const bumped = model.sequences.bump('ci', id);
      if (bumped) changes.push(bumped);
    } else {
      const next = model.sequences.next('ci');
      id = next.id;
      changes.push(next.change);
    }
    let parent: CiRecord | undefined;
    if (body.parent && body.parent.id !== 0) {
      const parentId = ciIdOrThrow(body.parent.id, 'parent CI id', '/parent/id');
      parent = cmdb.cis.get(parentId);
      if (!parent) throw failFields('ci.parent_unknown', [{ path: '/parent/id', message: 'no such CI' }], { id: parentId });
    }
    let owner: number;
    if (parent) owner = parent.ownerWorkGroupId;
    else if (!body.ownerWorkGroup) throw failFields('ci.owner_missing', [{ path: '/ownerWorkGroup', message: 'is required without a parent' }]);
    else owner = resolveWorkGroup(model, body.ownerWorkGroup.id, '/ownerWorkGroup/id');
    const typeId = resolveType(model, body.configItemType);
    const cmdbSystemId = resolveCmdbSystem(model, body.cmdbSystemId);
    const grantInputs = body.sharedToWorkGroups ?? [];
    checkGrantInputs(model, grantInputs, '/sharedToWorkGroups');

    if (parent) requireLevel(model, actor, parent, Level.Write, 'ci.add_under_forbidden');
    else if (!actor.subject.admin && !actor.subject.workGroupIds.has(owner)) throw fail('ci.add_forbidden', { id: owner });
    requireUniqueName(model, actor, name, typeId);

    let grantSeq = model.sequences.current('grant');
    const grants: GrantRecord[] = grantInputs.map((g) => ({ id: ++grantSeq, workGroupId: g.workGroupId, shareType: g.shareType, grants: [...new Set(g.grants)] }));
    if (grants.length > 0) changes.push({ key: 'seq:grant', value: grantSeq });
    const ci: CiRecord = {
      id,
      name,
      description: body.description ?? '',
      parentId: parent?.id ?? null,
      ownerWorkGroupId: owner,
      typeId,
      labels: body.labels ?? null,
      cmdbSystemId,
      cmdbLinks: body.cmdbLinks ?? [],
      grants,
      influentialIds: [],
      createdAt: now,
      createdBy: actor.userId,
      createdByName: actor.userName,
      updatedAt: now,
      updatedBy: actor.userId,
      updatedByName: actor.userName,
    };
    changes.push({ key: `ci:${id}`, value: ci });
    return { changes, result: () => id };
  };
}

export function updateCi(id: number, body: CiUpdateBody, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const name = requireName(body.name);
    const ci = findCi(model, id);
    let owner = ci.ownerWorkGroupId;
    const parent = ci.parentId === null ? undefined : cmdb.cis.get(ci.parentId);
    if (body.ownerWorkGroup) owner = resolveWorkGroup(model, body.ownerWorkGroup.id, '/ownerWorkGroup/id');
    else if (!parent) throw failFields('ci.owner_missing', [{ path: '/ownerWorkGroup', message: 'is required for a CI without a parent' }]);
    if (parent && owner !== parent.ownerWorkGroupId) {
      throw failFields('ci.owner_not_parents', [{ path: '/ownerWorkGroup/id', message: 'must be the parent CI’s workgroup' }], { id, parentId: parent.id });
    }
    const typeId = resolveType(model, body.configItemType);
    const cmdbSystemId = body.cmdbSystemId === undefined ? ci.cmdbSystemId : resolveCmdbSystem(model, body.cmdbSystemId);
    requireLevel(model, actor, ci, Level.Write, 'ci.update_forbidden');
    requireOwnerChange(actor, ci, owner);
    requireUniqueName(model, actor, name, typeId, id);
    const changes: JournalChange[] = [];
    const next: CiRecord = stamp(
      { ...ci, name, description: body.description ?? '', ownerWorkGroupId: owner, typeId, labels: body.labels ?? null, cmdbSystemId, cmdbLinks: body.cmdbLinks ?? ci.cmdbLinks },
      actor,
      now,
    );
    changes.push({ key: `ci:${id}`, value: next });
    // The subtree follows its root to the new owner: children share their parent's workgroup (#13).
    if (owner !== ci.ownerWorkGroupId) {
      for (const descendant of cmdb.descendants(id)) {
        const d = cmdb.cis.get(descendant)!;
        if (d.ownerWorkGroupId === ci.ownerWorkGroupId) changes.push({ key: `ci:${descendant}`, value: stamp({ ...d, ownerWorkGroupId: owner }, actor, now) });
      }
    }
    return { changes, result: () => id };
  };
}

/**
 * Deletes a CI: its children move to its parent (or become roots) and its influence links go.
 * With `applyGrants` the rights the children held through it — its owner workgroup and its
 * Tree / ChildrenTree grants — become `Tree` grants of their own (DESIGN §4a).
 */
export function deleteCi(id: number, applyGrants: boolean, actor: Actor, now: string): PlatformCommand<void> {
  return (model) => {
    const cmdb = model.slices.cmdb;
    const ci = findCi(model, id);
    requireLevel(model, actor, ci, Level.Write, 'ci.delete_forbidden');
    const changes: JournalChange[] = [{ key: `ci:${id}`, value: null }];
    let grantSeq = model.sequences.current('grant');
    const inherited: Array<Omit<GrantRecord, 'id'>> = applyGrants
      ? [
          { workGroupId: ci.ownerWorkGroupId, shareType: 'Tree', grants: ['base-system.rsm.write'] },
          ...ci.grants.filter((g) => g.shareType !== 'ConfigItem').map((g) => ({ workGroupId: g.workGroupId, shareType: 'Tree' as const, grants: g.grants })),
        ]
      : [];
    for (const childId of cmdb.childrenIds(id)) {
      const child = cmdb.cis.get(childId)!;
      const grants = child.grants.map((g) => ({ ...g }));
      for (const grant of inherited) {
        if (grant.workGroupId === child.ownerWorkGroupId) continue;
        const same = grants.find((g) => g.workGroupId === grant.workGroupId && g.shareType === 'Tree');
        if (same) same.grants = [...new Set([...same.grants, ...grant.grants])];
        else grants.push({ id: ++grantSeq, ...grant });
      }
      changes.push({ key: `ci:${childId}`, value: stamp({ ...child, parentId: ci.parentId, grants }, actor, now) });
    }
    for (const dependentId of cmdb.dependentIds(id)) {
      const dependent = cmdb.cis.get(dependentId)!;
      changes.push({ key: `ci:${dependentId}`, value: stamp({ ...dependent, influentialIds: dependent.influentialIds.filter((x) => x !== id) }, actor, now) });
    }
    if (grantSeq !== model.sequences.current('grant')) changes.push({ key: 'seq:grant', value: grantSeq });
    // Its open problems end at the delete (DESIGN §7); the event workers write their rows.
    changes.push(...closeProblemsOfCi(model, id, Date.parse(now)));
    return { changes, result: () => undefined };
  };
}

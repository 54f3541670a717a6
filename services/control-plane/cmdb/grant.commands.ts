/** Access grants on a CI (spec 2.8, 4.1 #9–#11). */
import type { GrantCreateBody, GrantUpdateBody } from '../../../schemas/cmdb.schema.js';
import { fail, failFields } from '../../../schemas/errors.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import { type Actor, findCi, isPositiveId, requireOwnerMembership, resolveWorkGroup, stamp } from './ci-checks.js';
import type { CiRight, GrantRecord, ShareType } from './cmdb.types.js';

interface GrantInput {
  workGroupId: number;
  shareType: ShareType;
  grants: CiRight[];
}

/** Grants given with a new CI: known workgroups (or 0), one rule per workgroup and share type. */
export function checkGrantInputs(model: PlatformModel, inputs: readonly GrantInput[], path: string): void {
  const seen = new Set<string>();
  inputs.forEach((g, i) => {
    resolveWorkGroup(model, g.workGroupId, `${path}/${i}/workGroupId`, true);
    const key = `${g.workGroupId}/${g.shareType}`;
    if (seen.has(key)) throw failFields('grant.given_twice', [{ path: `${path}/${i}`, message: 'duplicate access rule' }], { workGroupId: g.workGroupId, shareType: g.shareType });
    seen.add(key);
  });
}

function requireGrants(grants: CiRight[] | null | undefined): CiRight[] {
  if (!grants) throw failFields('grant.list_missing', [{ path: '/grants', message: 'is required' }]);
  return [...new Set(grants)];
}

export function addGrant(ciId: number, body: GrantCreateBody, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    const grants = requireGrants(body.grants);
    const ci = findCi(model, ciId);
    const workGroupId = resolveWorkGroup(model, body.workGroupId, '/workGroupId', true);
    requireOwnerMembership(actor, ci, 'ci.share_forbidden');
    if (ci.grants.some((g) => g.workGroupId === workGroupId && g.shareType === body.shareType)) {
      throw failFields('grant.already_set', [{ path: '/workGroupId', message: 'access rule already set' }], { workGroupId, shareType: body.shareType, ciId });
    }
    const { id, change } = model.sequences.next('grant');
    const grant: GrantRecord = { id, workGroupId, shareType: body.shareType, grants };
    return { changes: [change, { key: `ci:${ciId}`, value: stamp({ ...ci, grants: [...ci.grants, grant] }, actor, now) }], result: () => ciId };
  };
}

export function updateGrant(ciId: number, body: GrantUpdateBody, actor: Actor, now: string): PlatformCommand<number> {
  return (model) => {
    // The spec's body is id, shareType and grants: the workgroup is the access model's own. Given,
    // it must be that one (a rule does not move to another workgroup); given as null, it is missing.
    if (body.workGroupId === null) throw failFields('grant.work_group_missing', [{ path: '/workGroupId', message: 'is required' }]);
    const grants = requireGrants(body.grants);
    if (!isPositiveId(body.id)) throw failFields('grant.id_invalid', [{ path: '/id', message: 'must be a positive integer' }], { value: JSON.stringify(body.id ?? null) });
    const ci = findCi(model, ciId);
    const grantId = body.id;
    const existing = ci.grants.find((g) => g.id === grantId);
    if (!existing) throw fail('grant.not_found', { grantId, ciId });
    const workGroupId = body.workGroupId === undefined ? existing.workGroupId : resolveWorkGroup(model, body.workGroupId, '/workGroupId', true);
    requireOwnerMembership(actor, ci, 'ci.access_change_forbidden');
    if (workGroupId !== existing.workGroupId) {
      throw failFields('grant.work_group_fixed', [{ path: '/workGroupId', message: 'must be the access model’s workgroup' }], {
        grantId,
        from: existing.workGroupId,
        to: workGroupId,
      });
    }
    if (ci.grants.some((g) => g.id !== grantId && g.workGroupId === workGroupId && g.shareType === body.shareType)) {
      throw failFields('grant.already_set', [{ path: '/workGroupId', message: 'access rule already set' }], { workGroupId, shareType: body.shareType, ciId });
    }
    const updated = ci.grants.map((g) => (g.id === grantId ? { id: grantId, workGroupId, shareType: body.shareType, grants } : g));
    return { changes: [{ key: `ci:${ciId}`, value: stamp({ ...ci, grants: updated }, actor, now) }], result: () => ciId };
  };
}

export function removeGrant(ciId: number, grantId: number, actor: Actor, now: string): PlatformCommand<void> {
  return (model) => {
    const ci = findCi(model, ciId);
    if (!ci.grants.some((g) => g.id === grantId)) throw fail('grant.not_found', { grantId, ciId });
    requireOwnerMembership(actor, ci, 'ci.access_change_forbidden');
    return { changes: [{ key: `ci:${ciId}`, value: stamp({ ...ci, grants: ci.grants.filter((g) => g.id !== grantId) }, actor, now) }], result: () => undefined };
  };
}

/** Checks shared by the CI commands, each answering one condition of spec 7.1. */
import { fail, failFields, type IdErrorCode } from '../../../schemas/errors.js';
import { Level, levelOn, type Subject } from '../rights/ci-rights.js';
import type { PlatformModel } from '../model.js';
import type { CiRecord } from './cmdb.types.js';

/** Who runs a command: for rights, and for entityInfo. */
export interface Actor {
  userId: number;
  userName: string;
  subject: Subject;
}

export const isPositiveId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export function ciIdOrThrow(value: unknown, what = 'CI id', path = '/id'): number {
  if (!isPositiveId(value)) throw failFields('ci.id_invalid', [{ path, message: 'must be a positive integer' }], { what, value: JSON.stringify(value ?? null) });
  return value;
}

export function findCi(model: PlatformModel, id: number, what = 'CI'): CiRecord {
  const ci = model.slices.cmdb.cis.get(id);
  if (!ci) throw fail('ci.not_found', { what, id });
  return ci;
}

export function requireLevel(model: PlatformModel, actor: Actor, ci: CiRecord, level: Level, refused: IdErrorCode): void {
  if (levelOn(model.slices.cmdb, actor.subject, ci.id) < level) throw fail(refused, { id: ci.id });
}

/**
 * As requireLevel, for a CI the request names besides the one it acts on (a child to move): one
 * the caller may not even see is answered as if it did not exist, so a 403 tells nothing about
 * the CIs of other workgroups.
 */
export function requireLevelOnNamed(model: PlatformModel, actor: Actor, ci: CiRecord, level: Level, what: string, refused: IdErrorCode): void {
  const has = levelOn(model.slices.cmdb, actor.subject, ci.id);
  if (has < Level.BasicRead) throw fail('ci.not_found', { what, id: ci.id });
  if (has < level) throw fail(refused, { id: ci.id });
}

/**
 * Giving a CI to another workgroup is the owner's act (DESIGN §4, docs/decisions.md "Rights"):
 * the caller must be a member of both the CI's owner workgroup and the new one. A grantee's write
 * changes the CI, never who owns it.
 */
export function requireOwnerChange(actor: Actor, ci: CiRecord, owner: number): void {
  if (owner === ci.ownerWorkGroupId || actor.subject.admin) return;
  if (!actor.subject.workGroupIds.has(ci.ownerWorkGroupId)) throw fail('ci.give_away_not_owner', { id: ci.id });
  if (!actor.subject.workGroupIds.has(owner)) throw fail('ci.give_away_forbidden', { id: ci.id, owner });
}

/**
 * Who may use a CI is, like who owns it, the owner's say (issue #15, docs/decisions.md "Rights
 * matrix"): adding, changing or removing an access grant needs membership of the CI's owner
 * workgroup. A grantee's write changes the CI; it does not share it on, and a `ConfigItem` write
 * grant cannot be turned into a `Tree` one that reaches the CIs below.
 */
export function requireOwnerMembership(actor: Actor, ci: CiRecord, refused: IdErrorCode): void {
  if (actor.subject.admin || actor.subject.workGroupIds.has(ci.ownerWorkGroupId)) return;
  throw fail(refused, { id: ci.id });
}

/** The CI type a body names, or the default one for null. */
export function resolveType(model: PlatformModel, ref: { id: number } | null | undefined): number {
  const cmdb = model.slices.cmdb;
  if (ref === null || ref === undefined) {
    const fallback = cmdb.defaultType();
    if (!fallback) throw failFields('ci_type.no_default', [{ path: '/configItemType', message: 'no default type' }]);
    return fallback.id;
  }
  if (!cmdb.types.has(ref.id)) throw failFields('ci_type.unknown', [{ path: '/configItemType/id', message: 'no such CI type' }], { id: ref.id });
  return ref.id;
}

/** A workgroup id from a body: 400 when malformed, 404 when unknown. */
export function resolveWorkGroup(model: PlatformModel, id: unknown, path: string, allowAll = false): number {
  if (allowAll && id === 0) return 0;
  if (!isPositiveId(id))
    throw failFields('work_group.id_invalid', [{ path, message: allowAll ? 'must be 0 or a positive integer' : 'must be a positive integer' }], {
      value: JSON.stringify(id ?? null),
    });
  if (!model.slices.identity.workGroups.has(id)) throw fail('work_group.not_found', { id });
  return id;
}

export function resolveCmdbSystem(model: PlatformModel, id: number | null | undefined): number {
  if (id === null || id === undefined || id === -1) return -1;
  if (!model.slices.cmdb.systems.has(id)) throw failFields('cmdb_system.unknown', [{ path: '/cmdbSystemId', message: 'no such CMDB system (-1 is the default CMDB)' }], { id });
  return id;
}

/**
 * Names are unique per type across the platform, so a clash must be told; the clashing CI's id
 * only to a caller who may see it (issue #15: nothing about other workgroups' CIs beyond that).
 */
export function requireUniqueName(model: PlatformModel, actor: Actor, name: string, typeId: number, except?: number): void {
  const existing = model.slices.cmdb.idByNameAndType(name, typeId);
  if (existing !== undefined && existing !== except) {
    const seen = levelOn(model.slices.cmdb, actor.subject, existing) >= Level.BasicRead ? ` (CI ${existing})` : '';
    throw failFields('ci.name_taken', [{ path: '/name', message: 'already used by a CI of this type' }], { name: JSON.stringify(name), seen });
  }
}

export function requireName(name: string | null | undefined): string {
  if (typeof name !== 'string' || name.trim() === '') throw failFields('ci.name_missing', [{ path: '/name', message: 'is required' }]);
  return name;
}

export const stamp = (ci: CiRecord, actor: Actor, now: string): CiRecord => ({ ...ci, updatedAt: now, updatedBy: actor.userId, updatedByName: actor.userName });

export { Level };

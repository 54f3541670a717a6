/** Checks shared by the CI commands, each answering one condition of spec 7.1. */
import { errors } from '../../runtime/errors.js';
import { Level, levelOn, type Subject } from '../rights/ci-rights.js';
import type { PlatformModel } from '../slices.js';
import type { CiRecord } from './cmdb.types.js';

/** Who runs a command: for rights, and for entityInfo. */
export interface Actor {
  userId: number;
  userName: string;
  subject: Subject;
}

export const isPositiveId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export function ciIdOrThrow(value: unknown, what = 'CI id', path = '/id'): number {
  if (!isPositiveId(value)) throw errors.badRequest(`Invalid ${what}: ${JSON.stringify(value ?? null)}`, [{ path, message: 'must be a positive integer' }]);
  return value;
}

export function findCi(model: PlatformModel, id: number, what = 'CI'): CiRecord {
  const ci = model.slices.cmdb.cis.get(id);
  if (!ci) throw errors.notFound(`${what} ${id} not found`);
  return ci;
}

export function requireLevel(model: PlatformModel, actor: Actor, ci: CiRecord, level: Level, detail: string): void {
  if (levelOn(model.slices.cmdb, actor.subject, ci.id) < level) throw errors.forbidden(detail);
}

/**
 * As requireLevel, for a CI the request names besides the one it acts on (a child to move): one
 * the caller may not even see is answered as if it did not exist, so a 403 tells nothing about
 * the CIs of other workgroups.
 */
export function requireLevelOnNamed(model: PlatformModel, actor: Actor, ci: CiRecord, level: Level, what: string, detail: string): void {
  const has = levelOn(model.slices.cmdb, actor.subject, ci.id);
  if (has < Level.BasicRead) throw errors.notFound(`${what} ${ci.id} not found`);
  if (has < level) throw errors.forbidden(detail);
}

/**
 * Giving a CI to another workgroup is the owner's act (DESIGN §4, docs/decisions.md "Rights"):
 * the caller must be a member of both the CI's owner workgroup and the new one. A grantee's write
 * changes the CI, never who owns it.
 */
export function requireOwnerChange(actor: Actor, ci: CiRecord, owner: number): void {
  if (owner === ci.ownerWorkGroupId || actor.subject.admin) return;
  if (!actor.subject.workGroupIds.has(ci.ownerWorkGroupId)) throw errors.forbidden(`Only members of the workgroup that owns CI ${ci.id} may give it to another workgroup`);
  if (!actor.subject.workGroupIds.has(owner)) throw errors.forbidden(`No permission to give CI ${ci.id} to workgroup ${owner}`);
}

/** The CI type a body names, or the default one for null. */
export function resolveType(model: PlatformModel, ref: { id: number } | null | undefined): number {
  const cmdb = model.slices.cmdb;
  if (ref === null || ref === undefined) {
    const fallback = cmdb.defaultType();
    if (!fallback) throw errors.badRequest('CI type not found: no default CI type is defined', [{ path: '/configItemType', message: 'no default type' }]);
    return fallback.id;
  }
  if (!cmdb.types.has(ref.id)) throw errors.badRequest(`CI type not found: ${ref.id}`, [{ path: '/configItemType/id', message: 'no such CI type' }]);
  return ref.id;
}

/** A workgroup id from a body: 400 when malformed, 404 when unknown. */
export function resolveWorkGroup(model: PlatformModel, id: unknown, path: string, allowAll = false): number {
  if (allowAll && id === 0) return 0;
  if (!isPositiveId(id)) throw errors.badRequest(`Invalid workgroup id: ${JSON.stringify(id ?? null)}`, [{ path, message: allowAll ? 'must be 0 or a positive integer' : 'must be a positive integer' }]);
  if (!model.slices.identity.workGroups.has(id)) throw errors.notFound(`Workgroup ${id} not found`);
  return id;
}

export function resolveCmdbSystem(model: PlatformModel, id: number | null | undefined): number {
  if (id === null || id === undefined || id === -1) return -1;
  if (!model.slices.cmdb.systems.has(id)) throw errors.badRequest(`CMDB system not found: ${id}`, [{ path: '/cmdbSystemId', message: 'no such CMDB system (-1 is the default CMDB)' }]);
  return id;
}

/**
 * Names are unique per type across the platform, so a clash must be told; the clashing CI's id
 * only to a caller who may see it (issue #15: nothing about other workgroups' CIs beyond that).
 */
export function requireUniqueName(model: PlatformModel, actor: Actor, name: string, typeId: number, except?: number): void {
  const existing = model.slices.cmdb.idByNameAndType(name, typeId);
  if (existing !== undefined && existing !== except) {
    const which = levelOn(model.slices.cmdb, actor.subject, existing) >= Level.BasicRead ? ` (CI ${existing})` : '';
    throw errors.badRequest(`A CI named ${JSON.stringify(name)} already exists with the same type${which}`, [{ path: '/name', message: 'already used by a CI of this type' }]);
  }
}

export function requireName(name: string | null | undefined): string {
  if (typeof name !== 'string' || name.trim() === '') throw errors.badRequest('The CI name is missing', [{ path: '/name', message: 'is required' }]);
  return name;
}

export const stamp = (ci: CiRecord, actor: Actor, now: string): CiRecord => ({ ...ci, updatedAt: now, updatedBy: actor.userId, updatedByName: actor.userName });

export { Level };

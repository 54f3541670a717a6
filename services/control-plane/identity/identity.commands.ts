/** Admin commands on users, workgroups, roles and tokens: validate on the model, return changes. */
import type { RolePutBody, TokenCreateBody, UserCreateBody, UserPatchBody, WorkGroupCreateBody } from '../../../schemas/identity.schema.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { refuseIfOwnsNotifications } from '../notifications/notifications.commands.js';
import { refuseIfOwnsSlaTemplate } from '../sla/sla-templates.commands.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import { BUILT_IN_ROLES } from './bootstrap.command.js';
import type { PlatformRight, TokenRecord, UserRecord, WorkGroupRecord } from './identity.types.js';
import { sha256Hex } from './tokens.js';

const done = <R>(changes: JournalChange[], result: (m: PlatformModel) => R) => ({ changes, result });

export const findUser = (model: PlatformModel, id: number): UserRecord => {
  const user = model.slices.identity.users.get(id);
  if (!user) throw fail('user.not_found', { id });
  return user;
};

export const findWorkGroup = (model: PlatformModel, id: number): WorkGroupRecord => {
  const group = model.slices.identity.workGroups.get(id);
  if (!group) throw fail('work_group.not_found', { id });
  return group;
};

function checkRoles(model: PlatformModel, roles: readonly string[]): void {
  const unknown = roles.filter((r) => !model.slices.identity.roles.has(r));
  if (unknown.length > 0)
    throw failFields(
      'role.unknown',
      unknown.map((r) => ({ path: '/roles', message: `role ${r} does not exist` })),
      { names: unknown.join(', ') },
    );
}

function checkUserName(model: PlatformModel, name: string, except?: number): void {
  for (const user of model.slices.identity.users.values()) {
    if (user.name === name && user.id !== except) throw fail('user.name_taken', { name });
  }
}

export function createUser(body: UserCreateBody, now: string): PlatformCommand<UserRecord> {
  return (model) => {
    checkUserName(model, body.name);
    checkRoles(model, body.roles ?? []);
    const groups = (body.workGroupIds ?? []).map((id) => findWorkGroup(model, id));
    const { id, change } = model.sequences.next('user');
    const user: UserRecord = { id, name: body.name, roles: body.roles ?? [], disabled: false, createdAt: now };
    const changes: JournalChange[] = [change, { key: `user:${id}`, value: user }];
    for (const group of groups) changes.push({ key: `workgroup:${group.id}`, value: { ...group, memberIds: [...group.memberIds, id] } });
    return done(changes, (m) => m.slices.identity.users.get(id)!);
  };
}

export function patchUser(id: number, body: UserPatchBody): PlatformCommand<UserRecord> {
  return (model) => {
    const user = findUser(model, id);
    if (body.name !== undefined) checkUserName(model, body.name, id);
    if (body.roles) checkRoles(model, body.roles);
    const next: UserRecord = { ...user, ...body };
    return done([{ key: `user:${id}`, value: next }], (m) => m.slices.identity.users.get(id)!);
  };
}

/** Removes the user, its tokens and its memberships. */
export function deleteUser(id: number): PlatformCommand<void> {
  return (model) => {
    findUser(model, id);
    refuseIfOwnsSlaTemplate(model, 'User', id);
    const identity = model.slices.identity;
    const changes: JournalChange[] = [{ key: `user:${id}`, value: null }];
    for (const token of identity.tokens.values()) if (token.userId === id) changes.push({ key: `token:${token.id}`, value: null });
    for (const groupId of identity.workGroupsOf(id)) {
      const group = identity.workGroups.get(groupId)!;
      changes.push({ key: `workgroup:${groupId}`, value: { ...group, memberIds: group.memberIds.filter((m) => m !== id) } });
    }
    return done(changes, () => undefined);
  };
}

export function createWorkGroup(body: WorkGroupCreateBody): PlatformCommand<WorkGroupRecord> {
  return (model) => {
    const identity = model.slices.identity;
    for (const group of identity.workGroups.values()) if (group.name === body.name) throw fail('work_group.name_taken', { name: body.name });
    if (body.id !== undefined && identity.workGroups.has(body.id)) throw fail('work_group.id_taken', { id: body.id });
    const memberIds = [...new Set(body.memberIds ?? [])];
    for (const member of memberIds) findUser(model, member);
    const changes: JournalChange[] = [];
    let id = body.id;
    if (id === undefined) {
      const next = model.sequences.next('workgroup');
      id = next.id;
      changes.push(next.change);
    } else {
      const bumped = model.sequences.bump('workgroup', id);
      if (bumped) changes.push(bumped);
    }
    changes.push({ key: `workgroup:${id}`, value: { id, name: body.name, memberIds } satisfies WorkGroupRecord });
    const created = id;
    return done(changes, (m) => m.slices.identity.workGroups.get(created)!);
  };
}

export function renameWorkGroup(id: number, name: string): PlatformCommand<WorkGroupRecord> {
  return (model) => {
    const group = findWorkGroup(model, id);
    for (const other of model.slices.identity.workGroups.values()) {
      if (other.name === name && other.id !== id) throw fail('work_group.name_taken', { name });
    }
    return done([{ key: `workgroup:${id}`, value: { ...group, name } }], (m) => m.slices.identity.workGroups.get(id)!);
  };
}

/** A workgroup that owns CIs or is named in grants cannot go: the CIs would lose their owner. */
export function deleteWorkGroup(id: number): PlatformCommand<void> {
  return (model) => {
    findWorkGroup(model, id);
    for (const ci of model.slices.cmdb.cis.values()) {
      if (ci.ownerWorkGroupId === id) throw fail('work_group.owns_ci', { id, ciId: ci.id });
      if (ci.grants.some((g) => g.workGroupId === id)) throw fail('work_group.holds_grant', { id, ciId: ci.id });
    }
    refuseIfOwnsSlaTemplate(model, 'WorkGroup', id);
    refuseIfOwnsNotifications(model, id);
    return done([{ key: `workgroup:${id}`, value: null }], () => undefined);
  };
}

export function setMembership(groupId: number, userId: number, member: boolean): PlatformCommand<WorkGroupRecord> {
  return (model) => {
    const group = findWorkGroup(model, groupId);
    findUser(model, userId);
    const has = group.memberIds.includes(userId);
    if (has === member) return done([], (m) => m.slices.identity.workGroups.get(groupId)!);
    const memberIds = member ? [...group.memberIds, userId] : group.memberIds.filter((m) => m !== userId);
    return done([{ key: `workgroup:${groupId}`, value: { ...group, memberIds } }], (m) => m.slices.identity.workGroups.get(groupId)!);
  };
}

const builtIn = new Set(BUILT_IN_ROLES.map((r) => r.name));

export function putRole(name: string, body: RolePutBody): PlatformCommand<{ created: boolean }> {
  return (model) => {
    if (builtIn.has(name)) throw fail('role.built_in_change', { name });
    const created = !model.slices.identity.roles.has(name);
    const rights = [...new Set(body.rights)] as PlatformRight[];
    return done([{ key: `role:${name}`, value: { name, description: body.description ?? '', rights } }], () => ({ created }));
  };
}

export function deleteRole(name: string): PlatformCommand<void> {
  return (model) => {
    if (builtIn.has(name)) throw fail('role.built_in_delete', { name });
    if (!model.slices.identity.roles.has(name)) throw fail('role.not_found', { name });
    for (const user of model.slices.identity.users.values()) {
      if (user.roles.includes(name)) throw fail('role.in_use', { userId: user.id, name });
    }
    return done([{ key: `role:${name}`, value: null }], () => undefined);
  };
}

export function issueToken(userId: number, body: TokenCreateBody, secret: string, now: string): PlatformCommand<TokenRecord> {
  return (model) => {
    findUser(model, userId);
    const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
    if (expiresAt && expiresAt <= now) throw failFields('token.expiry_past', [{ path: '/expiresAt', message: 'must be in the future' }]);
    const { id, change } = model.sequences.next('token');
    const token: TokenRecord = { id, userId, name: body.name ?? 'personal', sha256: sha256Hex(secret), createdAt: now, expiresAt, revokedAt: null, lastUsedAt: null };
    return done([change, { key: `token:${id}`, value: token }], (m) => m.slices.identity.tokens.get(id)!);
  };
}

export function revokeToken(userId: number, tokenId: number, now: string): PlatformCommand<TokenRecord> {
  return (model) => {
    const token = model.slices.identity.tokens.get(tokenId);
    if (!token || token.userId !== userId) throw fail('token.not_found', { tokenId, userId });
    if (token.revokedAt) return done([], (m) => m.slices.identity.tokens.get(tokenId)!);
    return done([{ key: `token:${tokenId}`, value: { ...token, revokedAt: now } }], (m) => m.slices.identity.tokens.get(tokenId)!);
  };
}

/** Records when tokens were last used (batched: the hot path only notes it in memory). */
export function recordTokenUse(uses: ReadonlyMap<number, string>): PlatformCommand<void> {
  return (model) => {
    const changes: JournalChange[] = [];
    for (const [id, at] of uses) {
      const token = model.slices.identity.tokens.get(id);
      if (token && (token.lastUsedAt ?? '') < at) changes.push({ key: `token:${id}`, value: { ...token, lastUsedAt: at } });
    }
    return done(changes, () => undefined);
  };
}

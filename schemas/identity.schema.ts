/** Admin API wire models for users, workgroups, roles and tokens (DESIGN §4). */
import Type, { type Static } from 'typebox';
import { DateTime, Id, Name } from './common.schema.js';

export const PlatformRight = Type.Union([
  Type.Literal('base-system.admin'),
  Type.Literal('base-system.notifications.write'),
  Type.Literal('base-system.rsm-maintenance.read'),
  Type.Literal('base-system.rsm-maintenance.write'),
  Type.Literal('base-system.sla.read'),
  Type.Literal('base-system.streams.read'),
]);

export const User = Type.Object({
  id: Id,
  name: Name,
  roles: Type.Array(Type.String()),
  disabled: Type.Boolean(),
  createdAt: Type.String(),
  workGroupIds: Type.Array(Id),
  rights: Type.Array(Type.String()),
});
export const UserCreate = Type.Object({ name: Name, roles: Type.Optional(Type.Array(Name)), workGroupIds: Type.Optional(Type.Array(Id)) }, { additionalProperties: false });
export const UserPatch = Type.Object(
  { name: Type.Optional(Name), roles: Type.Optional(Type.Array(Name)), disabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const WorkGroup = Type.Object({ id: Id, name: Name });
export const WorkGroupDetail = Type.Object({ id: Id, name: Name, memberIds: Type.Array(Id) });
export const WorkGroupCreate = Type.Object({ id: Type.Optional(Id), name: Name, memberIds: Type.Optional(Type.Array(Id)) }, { additionalProperties: false });
export const WorkGroupPatch = Type.Object({ name: Name }, { additionalProperties: false });

export const Role = Type.Object({ name: Name, description: Type.String(), rights: Type.Array(PlatformRight) });
export const RolePut = Type.Object({ description: Type.Optional(Type.String({ maxLength: 1000 })), rights: Type.Array(PlatformRight) }, { additionalProperties: false });

export const Token = Type.Object({
  id: Id,
  userId: Id,
  name: Type.String(),
  createdAt: Type.String(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});
export const TokenIssued = Type.Intersect([Token, Type.Object({ token: Type.String({ description: 'The secret; shown only in this answer' }) })]);
export const TokenCreate = Type.Object({ name: Type.Optional(Name), expiresAt: Type.Optional(Type.Union([DateTime, Type.Null()])) }, { additionalProperties: false });

export const Me = Type.Object({ user: User, token: Token });

export type UserCreateBody = Static<typeof UserCreate>;
export type UserPatchBody = Static<typeof UserPatch>;
export type WorkGroupCreateBody = Static<typeof WorkGroupCreate>;
export type RolePutBody = Static<typeof RolePut>;
export type TokenCreateBody = Static<typeof TokenCreate>;

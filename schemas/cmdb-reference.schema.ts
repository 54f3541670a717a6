/** CI types and CMDB systems (spec 2.1, 2.2) and their admin bodies. */
import Type, { type Static } from 'typebox';
import { Id, Name } from './common.schema.js';

export const CiType = Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String() }, { $id: 'ConfigItemType' });
export const CiTypeAdmin = Type.Object({ id: Id, name: Name, description: Type.String(), isDefault: Type.Boolean() });
export const CiTypeCreate = Type.Object(
  { id: Type.Optional(Id), name: Name, description: Type.Optional(Type.String({ maxLength: 4000 })), isDefault: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const CiTypePatch = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Type.String({ maxLength: 4000 })), isDefault: Type.Optional(Type.Literal(true)) },
  { additionalProperties: false, minProperties: 1 },
);

export const NamedEntity = Type.Object({ id: Type.Integer(), name: Type.String() });
export const CmdbSystemCreate = Type.Object({ id: Type.Optional(Id), name: Name }, { additionalProperties: false });
export const CmdbSystemPatch = Type.Object({ name: Name }, { additionalProperties: false });

export type CiTypeCreateBody = Static<typeof CiTypeCreate>;
export type CiTypePatchBody = Static<typeof CiTypePatch>;
export type CmdbSystemCreateBody = Static<typeof CmdbSystemCreate>;

// Examples for the OpenAPI document (checked against these schemas by openapi-lint.test.ts).
export const ciTypesExample = [
  { id: 1, name: 'Default', description: 'Default CI type' },
  { id: 2, name: 'Database', description: 'A database server or cluster' },
] satisfies Static<typeof CiType>[];
export const cmdbSystemsExample = [{ id: 1, name: 'Asset register' }] satisfies Static<typeof NamedEntity>[];
export const workGroupsExample = [
  { id: 1, name: 'Database team' },
  { id: 2, name: 'Operations' },
] satisfies Static<typeof NamedEntity>[];

/** CI types and CMDB systems (spec 2.1, 2.2), their icons (spec 2.13) and their admin bodies. */
import Type, { type Static } from 'typebox';
import { Id, Name, Nullable } from './common.schema.js';

/** Where an icon's image is served (public, no token: docs/decisions.md "CI type icons"). */
export const ICON_PATH = '/api/public/sm/v2/rsm/config-item-type-icons';
export const iconUrlOf = (id: number): string => `${ICON_PATH}/${id}`;

/** Spec 2.13: "Icon object: id, name, fileName (string or null), userspaceId, iconUrl (string path)". */
export const CiTypeIcon = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  fileName: Nullable(Type.String({ description: 'The uploaded file’s name; null for a built-in icon' })),
  userspaceId: Type.Integer(),
  iconUrl: Type.String({ description: 'Path of the image (image/svg+xml or image/png), served without a token' }),
});

export const CiType = Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String() }, { $id: 'ConfigItemType' });
/** #1 with `includeIcon=true`: each type with its icon (null when it has none). */
export const CiTypeWithIcon = Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String(), icon: Type.Optional(Nullable(CiTypeIcon)) });
export const CiTypesQuery = Type.Object({
  includeIcon: Type.Optional(Type.Boolean({ default: false, description: 'Adds `icon` to each type: its icon object (spec 2.13), or null' })),
});
export const CiTypeAdmin = Type.Object({ id: Id, name: Name, description: Type.String(), isDefault: Type.Boolean(), icon: Nullable(CiTypeIcon) });
const IconId = Nullable(
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A built-in or uploaded icon (GET /api/admin/v1/config-item-type-icons); null: none' }),
);
export const CiTypeCreate = Type.Object(
  { id: Type.Optional(Id), name: Name, description: Type.Optional(Type.String({ maxLength: 4000 })), isDefault: Type.Optional(Type.Boolean()), iconId: Type.Optional(IconId) },
  { additionalProperties: false },
);
export const CiTypePatch = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Type.String({ maxLength: 4000 })), isDefault: Type.Optional(Type.Literal(true)), iconId: Type.Optional(IconId) },
  { additionalProperties: false, minProperties: 1 },
);

/** An icon as the admin API lists it: the icon object and what the image is. */
export const CiTypeIconAdmin = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  fileName: Nullable(Type.String()),
  userspaceId: Type.Integer(),
  iconUrl: Type.String(),
  builtIn: Type.Boolean({ description: 'Shipped with the platform: cannot be deleted' }),
  contentType: Type.Union([Type.Literal('image/svg+xml'), Type.Literal('image/png')]),
  bytes: Type.Integer({ description: 'Size of the image' }),
});
export const IconUploadQuery = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f]+$', description: 'The icon’s name' }),
  fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f\\u007f/\\\\]+$', description: 'The uploaded file’s name, kept as `fileName`' })),
});

export const NamedEntity = Type.Object({ id: Type.Integer(), name: Type.String() });
export const CmdbSystemCreate = Type.Object({ id: Type.Optional(Id), name: Name }, { additionalProperties: false });
export const CmdbSystemPatch = Type.Object({ name: Name }, { additionalProperties: false });

export type CiTypeIconModel = Static<typeof CiTypeIcon>;
export type CiTypeIconAdminModel = Static<typeof CiTypeIconAdmin>;
export type CiTypeCreateBody = Static<typeof CiTypeCreate>;
export type CiTypePatchBody = Static<typeof CiTypePatch>;
export type CmdbSystemCreateBody = Static<typeof CmdbSystemCreate>;

// Examples for the OpenAPI document (checked against these schemas by openapi-lint.test.ts).
export const databaseIconExample = { id: 3, name: 'Database', fileName: null, userspaceId: 1, iconUrl: iconUrlOf(3) } satisfies CiTypeIconModel;
export const ciTypesExample = [
  { id: 1, name: 'Default', description: 'Default CI type' },
  { id: 2, name: 'Database', description: 'A database server or cluster' },
] satisfies Static<typeof CiType>[];
export const ciTypeAdminExample = { id: 2, name: 'Database', description: 'A database server or cluster', isDefault: false, icon: databaseIconExample } satisfies Static<
  typeof CiTypeAdmin
>;
export const ciTypeCreateExample = { name: 'Database', description: 'A database server or cluster', iconId: 3 } satisfies CiTypeCreateBody;
export const ciTypeIconsExample = [
  { ...databaseIconExample, builtIn: true, contentType: 'image/svg+xml', bytes: 402 },
  { id: 1000, name: 'Mainframe', fileName: 'mainframe.png', userspaceId: 1, iconUrl: iconUrlOf(1000), builtIn: false, contentType: 'image/png', bytes: 1832 },
] satisfies CiTypeIconAdminModel[];
export const cmdbSystemsExample = [{ id: 1, name: 'Asset register' }] satisfies Static<typeof NamedEntity>[];
export const workGroupsExample = [
  { id: 1, name: 'Database team' },
  { id: 2, name: 'Operations' },
] satisfies Static<typeof NamedEntity>[];

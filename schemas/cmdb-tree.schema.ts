/**
 * The CI hierarchy a page at a time (issue #32, the console's CMDB tree): the children of one CI,
 * or the caller's top level, ordered by name, paged by a keyset cursor; with `search` or `label`,
 * the matching CIs anywhere below instead, each with its path.
 */
import Type, { type Static } from 'typebox';
import { Nullable } from './common.schema.js';
import { Labels } from './cmdb.schema.js';

const IdName = Type.Object({ id: Type.Integer(), name: Type.String() });

export const CiChildrenQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200, description: 'CIs per page, 1–1000 (default 200)' })),
  cursor: Type.Optional(Type.String({ maxLength: 2048, description: 'The nextCursor of the page before' })),
  includeState: Type.Optional(Type.Boolean({ default: false, description: 'Adds `state` to each CI' })),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: 'Case-insensitive substring of the name: the matching CIs anywhere below, not only the children' }),
  ),
  label: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1200,
      description: 'A label name (any value), or name=value: the CIs carrying it anywhere below, not only the children; with search, both must match',
    }),
  ),
});

export const TreeCi = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    configItemType: IdName,
    labels: Nullable(Labels),
    childCount: Type.Integer({ description: 'Children the caller may see' }),
    state: Type.Optional(Type.Object({ value: Type.String(), valueUnderMaintenance: Type.String() })),
    path: Type.Optional(Type.Array(IdName, { description: 'With search or label: the ancestors the caller may see, top first' })),
  },
  { additionalProperties: false },
);

export const TreePage = Type.Object(
  {
    items: Type.Array(TreeCi),
    nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
    total: Type.Integer({ description: 'Every CI of the listing, over all pages' }),
  },
  { additionalProperties: false },
);

export const treePageExample = {
  items: [
    { id: 2, name: 'billing-db', configItemType: { id: 2, name: 'Database' }, labels: { env: 'prod' }, childCount: 1, state: { value: 'Ok', valueUnderMaintenance: 'Unknown' } },
    { id: 4, name: 'billing-web', configItemType: { id: 1, name: 'Default' }, labels: null, childCount: 0, state: { value: 'Problem', valueUnderMaintenance: 'Unknown' } },
  ],
  nextCursor: null,
  total: 2,
};

export type TreeCiModel = Static<typeof TreeCi>;
export type TreePageModel = Static<typeof TreePage>;

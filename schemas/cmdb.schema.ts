/**
 * CI wire models (spec 2.3–2.9) and the request bodies of spec 4.1. Bodies are permissive about
 * what the domain checks itself (ids, names), so each spec condition — "name missing", "invalid
 * CI id", "owner workgroup missing" — is answered by its own message rather than a schema error.
 */
import Type, { type Static } from 'typebox';
import { CiTypeIcon, databaseIconExample } from './cmdb-reference.schema.js';
import { LabelValue, LIMITS, LongText, labelRecord, NameText, Nullable } from './common.schema.js';
import { CiLiveSla, ciLiveSlaExample } from './live-sla.schema.js';

const IdRef = Type.Object({ id: Type.Number() });
const IdName = Type.Object({ id: Type.Integer(), name: Type.String() });

export const ShareType = Type.Union([Type.Literal('ConfigItem'), Type.Literal('Tree'), Type.Literal('ChildrenTree')]);
export const CiRight = Type.Union([
  Type.Literal('base-system.rsm.basic-read'),
  Type.Literal('base-system.rsm.monitoring-read'),
  Type.Literal('base-system.rsm.read'),
  Type.Literal('base-system.rsm.write'),
]);
export const Labels = labelRecord(
  Type.Union([LabelValue, Type.Array(LabelValue, { maxItems: LIMITS.labels }), Type.Null()]),
  'Label name (1–128 characters, no control characters; at most 100 labels) to a string, an array of strings, or null (a label without value); values of at most 1 024 characters',
);

export const Grant = Type.Object({ id: Type.Integer(), workGroupId: Type.Integer(), shareType: ShareType, grants: Type.Array(CiRight) });
export const Edge = Type.Object({ type: Type.Union([Type.Literal('Hierarchy'), Type.Literal('Influence')]), configItem: IdName });
export const CmdbLink = Type.Object({ instanceId: Type.Integer(), entityId: Type.String(), labels: Type.Array(Type.String()) });

export const EntityInfo = Type.Object({
  createdAt: Type.String(),
  createdBy: Type.Integer(),
  createdByName: Type.String(),
  updatedAt: Type.String(),
  updatedBy: Type.Integer(),
  updatedByName: Type.String(),
});

export const CiState = Type.Object({ value: Type.String(), valueUnderMaintenance: Type.String(), Timestamp: Type.String() });
export const HealthStatus = Type.Object({
  value: Type.Number(),
  timestamp: Type.String(),
  calculation: Type.Object({ resultBy: Type.String(), direct: Type.Number(), weight: Type.Number() }),
});
export const HealthInfluence = Type.Object({ value: Type.Number(), maxInfluence: Type.Boolean() });

export const ConfigItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  parent: Nullable(IdName),
  ownerWorkGroup: IdName,
  configItemType: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    icon: Type.Optional(Type.Union([CiTypeIcon, Type.Null()], { description: 'With includeIcon=true (#12): the type’s icon (spec 2.13 icon object), or null' })),
  }),
  labels: Nullable(Labels),
  entityInfo: EntityInfo,
  state: Type.Optional(Nullable(CiState)),
  healthStatus: Type.Optional(Nullable(HealthStatus)),
  healthInfluence: Type.Optional(Nullable(HealthInfluence)),
  cmdbSystem: Type.Optional(Nullable(IdName)),
  incomingEdges: Type.Array(Edge),
  outgoingEdges: Type.Array(Edge),
  cmdbLinks: Type.Array(CmdbLink),
  sharedToWorkGroups: Type.Array(Grant),
  sla: Type.Optional(CiLiveSla),
});

export const ShortCi = IdName;
export const FilteredCi = Type.Object({ id: Type.Integer(), name: Type.String(), labels: Nullable(Labels), sla: Type.Optional(CiLiveSla) });

export const CiFilter = Type.Object({
  ids: Type.Optional(Nullable(Type.Array(Type.Number(), { maxItems: LIMITS.listItems }))),
  names: Type.Optional(Nullable(Type.Array(NameText, { maxItems: LIMITS.listItems }))),
  labels: Type.Optional(Nullable(Labels)),
});

const GrantInput = Type.Object({ workGroupId: Type.Number(), shareType: ShareType, grants: Type.Array(CiRight) });

export const CiCreate = Type.Object({
  id: Type.Optional(Nullable(Type.Number())),
  name: Type.Optional(Nullable(NameText)),
  description: Type.Optional(Nullable(LongText)),
  parent: Type.Optional(Nullable(IdRef)),
  configItemType: Type.Optional(Nullable(IdRef)),
  ownerWorkGroup: Type.Optional(Nullable(IdRef)),
  labels: Type.Optional(Nullable(Labels)),
  cmdbSystemId: Type.Optional(Nullable(Type.Number())),
  cmdbLinks: Type.Optional(Nullable(Type.Array(CmdbLink))),
  sharedToWorkGroups: Type.Optional(Nullable(Type.Array(GrantInput))),
});

export const CiUpdate = Type.Object({
  name: Type.Optional(Nullable(NameText)),
  description: Type.Optional(Nullable(LongText)),
  configItemType: Type.Optional(Nullable(IdRef)),
  ownerWorkGroup: Type.Optional(Nullable(IdRef)),
  labels: Type.Optional(Nullable(Labels)),
  cmdbSystemId: Type.Optional(Nullable(Type.Number())),
  cmdbLinks: Type.Optional(Nullable(Type.Array(CmdbLink))),
});

export const GrantCreate = Type.Object({
  workGroupId: Type.Optional(Nullable(Type.Number())),
  shareType: ShareType,
  grants: Type.Optional(Nullable(Type.Array(CiRight))),
});

export const GrantUpdate = Type.Object({
  id: Type.Optional(Nullable(Type.Number())),
  workGroupId: Type.Optional(Nullable(Type.Number({ description: 'Optional: the access model’s own workgroup (it cannot move to another: 400)' }))),
  shareType: ShareType,
  grants: Type.Optional(Nullable(Type.Array(CiRight))),
});

export const LinkBody = Type.Object({ id: Type.Optional(Nullable(Type.Number())) });

export const GetCiQuery = Type.Object({
  includeState: Type.Optional(Type.Boolean({ default: false })),
  includeHealth: Type.Optional(Type.Boolean({ default: false })),
  includeSla: Type.Optional(Type.Boolean({ default: false, description: 'Adds `sla`: live availability, error budgets and burn rates' })),
  includeIcon: Type.Optional(Type.Boolean({ default: false, description: 'Adds `configItemType.icon`: the type’s icon object (spec 2.13), or null' })),
});
export const FilterCiQuery = Type.Object({
  includeSla: Type.Optional(Type.Boolean({ default: false, description: 'Adds `sla` to each CI: live availability, error budgets and burn rates' })),
});
export const DeleteCiQuery = Type.Object({ applyGrants: Type.Optional(Type.Boolean({ default: false })) });

export type ConfigItemModel = Static<typeof ConfigItem>;
export type CiFilterBody = Static<typeof CiFilter>;
export type CiCreateBody = Static<typeof CiCreate>;
export type CiUpdateBody = Static<typeof CiUpdate>;
export type GrantCreateBody = Static<typeof GrantCreate>;
export type GrantUpdateBody = Static<typeof GrantUpdate>;
export type LinkBodyModel = Static<typeof LinkBody>;
export type ShortCiModel = Static<typeof ShortCi>;
export type FilteredCiModel = Static<typeof FilteredCi>;

// Examples for the OpenAPI document, as a session answered them (checked against these schemas
// by openapi-lint.test.ts): billing-db, a child of billing, shared with Operations.
const entityInfoExample = {
  createdAt: '2026-03-02T08:31:15.250Z',
  createdBy: 1,
  createdByName: 'admin',
  updatedAt: '2026-03-02T08:33:15.250Z',
  updatedBy: 1,
  updatedByName: 'admin',
};
const databaseType = { id: 2, name: 'Database', description: 'A database server or cluster' };

export const ciCreateExample = {
  name: 'billing-db',
  description: 'Primary database of the billing service',
  parent: { id: 1 },
  configItemType: { id: 2 },
  labels: { env: 'prod', tier: ['db', 'critical'], legacy: null },
  cmdbSystemId: -1,
  sharedToWorkGroups: [{ workGroupId: 2, shareType: 'Tree', grants: ['base-system.rsm.read'] }],
} satisfies CiCreateBody;

/** The answer to ciCreateExample: the owner workgroup comes from the parent. */
export const ciCreatedExample = {
  id: 2,
  name: 'billing-db',
  description: 'Primary database of the billing service',
  parent: { id: 1, name: 'billing' },
  ownerWorkGroup: { id: 1, name: 'Database team' },
  configItemType: databaseType,
  labels: { env: 'prod', tier: ['db', 'critical'], legacy: null },
  entityInfo: { ...entityInfoExample, updatedAt: entityInfoExample.createdAt },
  incomingEdges: [{ type: 'Hierarchy', configItem: { id: 1, name: 'billing' } }],
  outgoingEdges: [],
  cmdbLinks: [],
  sharedToWorkGroups: [{ id: 1, workGroupId: 2, shareType: 'Tree', grants: ['base-system.rsm.read'] }],
} satisfies ConfigItemModel;

export const ciUpdateExample = {
  name: 'billing-db',
  description: 'Primary PostgreSQL database of the billing service',
  configItemType: { id: 2 },
  ownerWorkGroup: { id: 1 },
  labels: { env: 'prod', tier: ['db', 'critical'] },
  cmdbSystemId: -1,
} satisfies CiUpdateBody;

/** billing-db later: updated, with a child, influencing billing, readable by every workgroup. */
export const configItemExample = {
  ...ciCreatedExample,
  description: 'Primary PostgreSQL database of the billing service',
  labels: { env: 'prod', tier: ['db', 'critical'] },
  entityInfo: entityInfoExample,
  outgoingEdges: [
    { type: 'Hierarchy', configItem: { id: 3, name: 'billing-db-replica' } },
    { type: 'Influence', configItem: { id: 1, name: 'billing' } },
  ],
  sharedToWorkGroups: [
    { id: 1, workGroupId: 2, shareType: 'Tree', grants: ['base-system.rsm.read'] },
    { id: 2, workGroupId: 0, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read'] },
  ],
} satisfies ConfigItemModel;

/** configItemExample asked for with includeState, includeHealth and includeSla. */
export const configItemWithStateExample = {
  ...configItemExample,
  configItemType: { ...databaseType, icon: databaseIconExample },
  sla: ciLiveSlaExample,
  state: { value: 'Unknown', valueUnderMaintenance: 'Unknown', Timestamp: '2026-03-02T08:33:15.250Z' },
  healthStatus: { value: 100, timestamp: '2026-03-02T08:33:15.250Z', calculation: { resultBy: 'Direct', direct: 100, weight: 100 } },
  healthInfluence: { value: 100, maxInfluence: true },
} satisfies ConfigItemModel;

export const grantCreateExample = { workGroupId: 0, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read'] } satisfies GrantCreateBody;
export const grantUpdateExample = { id: 2, shareType: 'ConfigItem', grants: ['base-system.rsm.basic-read', 'base-system.rsm.monitoring-read'] } satisfies GrantUpdateBody;

/** billing-db-replica, made a child of billing-db (#13). */
export const childCiExample = {
  id: 3,
  name: 'billing-db-replica',
  description: '',
  parent: { id: 2, name: 'billing-db' },
  ownerWorkGroup: { id: 1, name: 'Database team' },
  configItemType: databaseType,
  labels: null,
  entityInfo: { ...entityInfoExample, createdAt: '2026-03-02T08:32:15.250Z', updatedAt: '2026-03-02T08:32:15.250Z' },
  incomingEdges: [{ type: 'Hierarchy', configItem: { id: 2, name: 'billing-db' } }],
  outgoingEdges: [],
  cmdbLinks: [],
  sharedToWorkGroups: [],
} satisfies ConfigItemModel;

export const shortCisExample = [
  { id: 1, name: 'billing' },
  { id: 2, name: 'billing-db' },
  { id: 3, name: 'billing-db-replica' },
] satisfies ShortCiModel[];
export const ciFilterExample = { labels: { env: 'prod', tier: ['critical'] } } satisfies CiFilterBody;
export const filteredCisExample = [{ id: 2, name: 'billing-db', labels: { env: 'prod', tier: ['db', 'critical'] } }] satisfies FilteredCiModel[];

/** #13: billing-db-replica (3) becomes a child of billing-db (2). */
export const childLinkExample = { id: 3 } satisfies LinkBodyModel;
/** #15: the former child, a root now. */
export const formerChildCiExample = { ...childCiExample, parent: null, incomingEdges: [] } satisfies ConfigItemModel;
/** #14: billing-db (2) influences billing (1). */
export const influentialLinkExample = { id: 2 } satisfies LinkBodyModel;
export const influentialsExample = [{ id: 2, name: 'billing-db' }] satisfies ShortCiModel[];

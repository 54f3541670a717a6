/**
 * A synthetic trigger (DESIGN §7): which records of which streams open and resolve problems on
 * which CI, with what priority, tags, incidents and influence. Managed through the admin API.
 * Field paths are dot-separated (`host.name`) and read from the record after its stream's
 * parser and preprocessor.
 */
import Type, { type Static } from 'typebox';
import { Id, Name } from './common.schema.js';

export const FieldPath = Type.String({ minLength: 1, maxLength: 512, pattern: '^[^.]+(\\.[^.]+)*$', description: 'Dot-separated path of a record field' });
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const Priority = Type.Integer({ minimum: 1, maximum: 4, description: '1 (highest) to 4' });

export const Condition = Type.Union([
  Type.Object({ field: FieldPath, op: Type.Literal('equals'), value: Scalar }, { additionalProperties: false }),
  Type.Object({ field: FieldPath, op: Type.Literal('in'), values: Type.Array(Scalar, { minItems: 1 }) }, { additionalProperties: false }),
  Type.Object(
    {
      field: FieldPath,
      op: Type.Literal('regex'),
      pattern: Type.String({
        minLength: 1,
        description:
          'RE2 regular expression (no backreferences or lookaround), matched in linear time on the field as text, on its first 262 144 ÷ (compiled size) characters (at most 65 536); at most 1 000 characters and 512 compiled instructions',
      }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ field: FieldPath, op: Type.Literal('exists') }, { additionalProperties: false }),
]);

export const CiLocator = Type.Union([
  Type.Object({ by: Type.Literal('idField'), field: FieldPath }, { additionalProperties: false }),
  Type.Object(
    { by: Type.Literal('nameField'), field: FieldPath, ciTypeId: Type.Optional(Id) },
    { additionalProperties: false, description: 'CI names are unique per type; without ciTypeId the name must be unique among all CIs' },
  ),
  Type.Object({ by: Type.Literal('fixed'), id: Id }, { additionalProperties: false }),
]);

export const PriorityRule = Type.Union([
  Type.Object({ value: Priority }, { additionalProperties: false }),
  Type.Object(
    { field: FieldPath, map: Type.Record(Type.String(), Priority), default: Priority },
    { additionalProperties: false, description: 'The field value (as text) looked up in map; default when absent or unmapped' },
  ),
]);

export const ResolveRule = Type.Object(
  { field: FieldPath, values: Type.Array(Scalar, { minItems: 1 }) },
  { additionalProperties: false, description: 'A matching record whose field holds one of values resolves the problem' },
);

export const Tag = Type.Object({ id: Id, name: Name, colorName: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export const IncidentRule = Type.Object(
  {
    connector: Type.Object({ id: Id, name: Name }, { additionalProperties: false }),
    field: FieldPath,
    type: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false, description: 'Takes an incident id from a record field' },
);

export const Influence = Type.Object(
  { value: Type.Number({ minimum: 0, maximum: 100 }), maxInfluence: Type.Boolean({ description: 'true: the problem takes the CI health to 0' }) },
  { additionalProperties: false },
);

const triggerFields = {
  name: Name,
  description: Type.Optional(Type.String({ maxLength: 4000 })),
  enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
  streamIds: Type.Array(Id, { minItems: 1, uniqueItems: true }),
  match: Type.Array(Condition, { description: 'Every condition must hold; empty matches every record' }),
  ci: CiLocator,
  priority: PriorityRule,
  resolve: ResolveRule,
  tags: Type.Optional(Type.Array(Tag)),
  incidents: Type.Optional(Type.Array(IncidentRule)),
  influence: Influence,
  lateWindowMinutes: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10_080,
      description:
        'How far behind its newest record (in event time) a late record still takes its place in a (trigger, CI) key’s problems; default 60. Older ones are dead-lettered.',
    }),
  ),
};

export const TriggerCreate = Type.Object(triggerFields, { additionalProperties: false });
export const TriggerPatch = Type.Partial(TriggerCreate, { additionalProperties: false });

export const Trigger = Type.Object(
  {
    id: Id,
    ...triggerFields,
    description: Type.String(),
    enabled: Type.Boolean(),
    tags: Type.Array(Tag),
    incidents: Type.Array(IncidentRule),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { $id: 'Trigger' },
);

export const TriggerListQuery = Type.Object({
  streamId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only the triggers listening to this stream' })),
});

export type TriggerCreateBody = Static<typeof TriggerCreate>;
export type TriggerPatchBody = Static<typeof TriggerPatch>;
export type TriggerModel = Static<typeof Trigger>;
export type ConditionModel = Static<typeof Condition>;
export type CiLocatorModel = Static<typeof CiLocator>;

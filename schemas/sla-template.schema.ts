/**
 * SLA templates (spec 2.11, DESIGN §9). Admins manage the full template — the CIs it covers with
 * their weights, the priorities that count, the working calendar and whether maintenance is
 * excluded — through the admin API; the public API shows the spec 2.11 form only.
 *
 * The bodies are one object for both types, so each misplaced or missing field is answered with
 * its own path (sla-template-input.ts checks what a schema cannot: references, times, dates).
 */
import Type, { type Static } from 'typebox';
import { Id, Name, Nullable } from './common.schema.js';

export const SlaPeriod = Type.Union(
  [
    Type.Literal('ThisYear'),
    Type.Literal('ThisQuarter'),
    Type.Literal('ThisMonth'),
    Type.Literal('ThisWeek'),
    Type.Literal('Today'),
    Type.Literal('PreviousYear'),
    Type.Literal('PreviousQuarter'),
    Type.Literal('PreviousMonth'),
    Type.Literal('PreviousWeek'),
    Type.Literal('Yesterday'),
  ],
  { description: 'Default calculation interval (spec 2.11)' },
);
export const SlaTemplateType = Type.Union([Type.Literal('Single'), Type.Literal('Multi')], { description: 'Single: a regular template; Multi: a multi-template' });
export const SlaOwnerType = Type.Union([Type.Literal('User'), Type.Literal('WorkGroup')]);

const Weight = (options: { default?: number } = {}) => Type.Number({ exclusiveMinimum: 0, description: 'Weight in the combined figure (> 0)', ...options });
const Priority = Type.Integer({ minimum: 1, maximum: 4, description: 'Problem priority 1..4' });
const LocalTime = Type.String({ pattern: '^\\d{2}:\\d{2}$', description: "Local time HH:mm; '24:00' ends the day (only as `to`)" });
const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Local date YYYY-MM-DD' });
const TimeZone = (options: { default?: string } = {}) => Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin', ...options });
const Target = Type.Number({
  exclusiveMinimum: 0,
  exclusiveMaximum: 100,
  description:
    'Single only: the availability objective in percent (e.g. 99.9). Its CIs then show the error budget left in the current period and the burn rate (live SLA); null: none',
});
const BurnRateAlert = Type.Number({
  exclusiveMinimum: 0,
  description:
    'Single only, with a target: alert (notification event sla.budget_burning) when the burn rate over the last hour reaches this value, e.g. 14.4 spends 2 % of a 30-day budget in an hour. Null or absent: no alert',
});
const Description = (options: { default?: string } = {}) => Type.String({ maxLength: 4000, ...options });

export const SlaWorkingHours = Type.Object(
  {
    day: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday .. 7 Sunday' }),
    from: LocalTime,
    to: LocalTime,
  },
  { additionalProperties: false },
);

/** Working calendar as stored: week sorted by day then `from`, hours of a day disjoint; holidays sorted, unique. */
export const SlaCalendar = Type.Object({ week: Type.Array(SlaWorkingHours, { minItems: 1 }), holidays: Type.Array(LocalDate) }, { additionalProperties: false });
const SlaCalendarInput = Type.Object(
  { week: Type.Array(SlaWorkingHours, { minItems: 1 }), holidays: Type.Optional(Type.Array(LocalDate, { default: [] })) },
  { additionalProperties: false, description: 'Weekly working hours and holidays in the template time zone; null = always attended' },
);

export const SlaTemplateCi = Type.Object(
  { id: Id, weight: Weight(), withDescendants: Type.Boolean({ description: 'The CI and every CI below it count' }) },
  { additionalProperties: false },
);
const SlaTemplateCiInput = Type.Object(
  { id: Id, weight: Type.Optional(Weight({ default: 1 })), withDescendants: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);

export const SlaTemplateMember = Type.Object({ id: Id, weight: Weight() }, { additionalProperties: false });
const SlaTemplateMemberInput = Type.Object(
  { id: Type.Integer({ minimum: 1, description: 'A Single template' }), weight: Type.Optional(Weight({ default: 1 })) },
  { additionalProperties: false },
);

const bodyFields = {
  name: Name,
  description: Type.Optional(Description({ default: '' })),
  period: SlaPeriod,
  ownerType: SlaOwnerType,
  userId: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'Owner user, with ownerType User' }))),
  workGroupId: Type.Optional(Nullable(Type.Integer({ minimum: 1, description: 'Owner workgroup, with ownerType WorkGroup' }))),
  timeZone: Type.Optional(TimeZone({ default: 'UTC' })),
  configItems: Type.Optional(Type.Array(SlaTemplateCiInput, { minItems: 1, description: 'Single only' })),
  priorities: Type.Optional(Type.Array(Priority, { minItems: 1, maxItems: 4, default: [1, 2], description: 'Single only: priorities that count against the SLA' })),
  calendar: Type.Optional(Nullable(SlaCalendarInput)),
  excludeMaintenance: Type.Optional(Type.Boolean({ default: true, description: 'Single only' })),
  target: Type.Optional(Nullable(Target)),
  burnRateAlert: Type.Optional(Nullable(BurnRateAlert)),
  templates: Type.Optional(Type.Array(SlaTemplateMemberInput, { minItems: 1, description: 'Multi only: Single templates with weights' })),
};

/** POST body of the admin API. Fields of the other type are refused by the domain, each with its path. */
export const SlaTemplateCreate = Type.Object({ type: SlaTemplateType, ...bodyFields }, { additionalProperties: false });

/**
 * PATCH body: the fields to change. Lists and the calendar are replaced whole; the owner is
 * replaced whole when any of ownerType, userId, workGroupId is given. `type` cannot change.
 */
export const SlaTemplatePatch = Type.Object(
  {
    type: Type.Optional(SlaTemplateType),
    name: Type.Optional(Name),
    description: Type.Optional(Description()),
    period: Type.Optional(SlaPeriod),
    ownerType: Type.Optional(SlaOwnerType),
    userId: bodyFields.userId,
    workGroupId: bodyFields.workGroupId,
    timeZone: Type.Optional(TimeZone()),
    configItems: bodyFields.configItems,
    priorities: Type.Optional(Type.Array(Priority, { minItems: 1, maxItems: 4 })),
    calendar: bodyFields.calendar,
    excludeMaintenance: Type.Optional(Type.Boolean()),
    target: Type.Optional(Nullable(Target)),
    burnRateAlert: bodyFields.burnRateAlert,
    templates: bodyFields.templates,
  },
  { additionalProperties: false, minProperties: 1 },
);

const commonFields = {
  id: Id,
  name: Name,
  description: Type.String(),
  period: SlaPeriod,
  ownerType: SlaOwnerType,
  /** Set exactly when ownerType is User. */
  userId: Nullable(Id),
  /** Set exactly when ownerType is WorkGroup. */
  workGroupId: Nullable(Id),
  timeZone: Type.String({ description: 'IANA time zone of the period and the calendar' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
};

/** A regular template as stored and shown by the admin API. */
export const SlaSingleTemplateAdmin = Type.Object({
  ...commonFields,
  type: Type.Literal('Single'),
  configItems: Type.Array(SlaTemplateCi),
  /** Sorted ascending, unique. */
  priorities: Type.Array(Priority),
  calendar: Nullable(SlaCalendar),
  excludeMaintenance: Type.Boolean(),
  target: Nullable(Target),
  /** Absent when none was set (templates stored before it existed, or cleared with null). */
  burnRateAlert: Type.Optional(BurnRateAlert),
});

/** A multi-template as stored and shown by the admin API: Single templates with weights. */
export const SlaMultiTemplateAdmin = Type.Object({
  ...commonFields,
  type: Type.Literal('Multi'),
  templates: Type.Array(SlaTemplateMember),
});

export const SlaTemplateAdmin = Type.Union([SlaSingleTemplateAdmin, SlaMultiTemplateAdmin]);

/** Spec 2.11 workgroup of an owner. */
export const SlaWorkGroup = Type.Object({ id: Type.Integer(), userspaceId: Type.Integer(), name: Type.String(), managerId: Nullable(Type.Integer()) });

/** Spec 2.11: the template as the public API shows it. */
export const SlaTemplate = Type.Object({
  id: Type.Integer(),
  type: SlaTemplateType,
  name: Type.String(),
  description: Type.String(),
  period: SlaPeriod,
  ownerType: SlaOwnerType,
  userId: Nullable(Type.Integer()),
  workGroup: Nullable(SlaWorkGroup),
});

export type SlaPeriodName = Static<typeof SlaPeriod>;
/** The spec 2.11 period values, in the spec's order. */
export const SLA_PERIODS = [
  'ThisYear',
  'ThisQuarter',
  'ThisMonth',
  'ThisWeek',
  'Today',
  'PreviousYear',
  'PreviousQuarter',
  'PreviousMonth',
  'PreviousWeek',
  'Yesterday',
] as const satisfies readonly SlaPeriodName[];
export type SlaCalendarModel = Static<typeof SlaCalendar>;
export type SlaTemplateCreateBody = Static<typeof SlaTemplateCreate>;
export type SlaTemplatePatchBody = Static<typeof SlaTemplatePatch>;
export type SlaSingleTemplateModel = Static<typeof SlaSingleTemplateAdmin>;
export type SlaMultiTemplateModel = Static<typeof SlaMultiTemplateAdmin>;
/** The stored template (record `sla-template:<id>`), discriminated by `type`. */
export type SlaTemplateAdminModel = Static<typeof SlaTemplateAdmin>;
export type SlaTemplateModel = Static<typeof SlaTemplate>;
export type SlaWorkGroupModel = Static<typeof SlaWorkGroup>;

/** Every workgroup lives in the platform's one userspace (the platform has no userspaces). */
export const USERSPACE_ID = 1;

/** What publicTemplate reads of the control model (structurally, so schemas import nothing of services). */
export interface WorkGroupDirectory {
  slices: { identity: { workGroups: ReadonlyMap<number, { id: number; name: string; managerId?: number | null }> } };
}

/** Spec 2.11 form of a stored template. A workgroup that no longer exists shows with an empty name. */
export function publicTemplate(model: WorkGroupDirectory, template: SlaTemplateAdminModel): SlaTemplateModel {
  let workGroup: SlaWorkGroupModel | null = null;
  if (template.ownerType === 'WorkGroup' && template.workGroupId !== null) {
    const group = model.slices.identity.workGroups.get(template.workGroupId);
    workGroup = { id: template.workGroupId, userspaceId: USERSPACE_ID, name: group?.name ?? '', managerId: group?.managerId ?? null };
  }
  return {
    id: template.id,
    type: template.type,
    name: template.name,
    description: template.description,
    period: template.period,
    ownerType: template.ownerType,
    userId: template.ownerType === 'User' ? template.userId : null,
    workGroup,
  };
}

// Example for the OpenAPI document (checked against the schema by openapi-lint.test.ts).
export const slaTemplatesExample = [
  { id: 1, type: 'Single', name: 'Billing availability', description: '', period: 'ThisMonth', ownerType: 'User', userId: 1, workGroup: null },
  {
    id: 2,
    type: 'Multi',
    name: 'Customer-facing services',
    description: 'Billing and payments, weighted by revenue',
    period: 'PreviousQuarter',
    ownerType: 'WorkGroup',
    userId: null,
    workGroup: { id: 2, userspaceId: USERSPACE_ID, name: 'Operations', managerId: null },
  },
] satisfies SlaTemplateModel[];

// Example of the admin form (checked against the schema by openapi-lint.test.ts).
export const slaTemplateAdminExample = {
  id: 1,
  name: 'Billing availability',
  description: '',
  period: 'ThisMonth',
  ownerType: 'WorkGroup',
  userId: null,
  workGroupId: 2,
  timeZone: 'Europe/Berlin',
  createdAt: '2026-03-02T08:30:15.250Z',
  updatedAt: '2026-03-02T08:30:15.250Z',
  type: 'Single',
  configItems: [{ id: 17, weight: 1, withDescendants: true }],
  priorities: [1, 2],
  calendar: null,
  excludeMaintenance: true,
  target: 99.9,
  burnRateAlert: 14.4,
} satisfies SlaSingleTemplateModel;
export const slaTemplateCreateExample = {
  type: 'Single',
  name: 'Billing availability',
  period: 'ThisMonth',
  ownerType: 'WorkGroup',
  workGroupId: 2,
  timeZone: 'Europe/Berlin',
  configItems: [{ id: 17, withDescendants: true }],
  target: 99.9,
  burnRateAlert: 14.4,
} satisfies SlaTemplateCreateBody;
export const slaTemplatePatchExample = { target: 99.5, burnRateAlert: 6 } satisfies SlaTemplatePatchBody;

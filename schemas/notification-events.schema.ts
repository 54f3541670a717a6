/**
 * What a notification is about (issue #31): one schema per event kind, documented in the OpenAPI
 * document and docs/notifications.md. The dispatcher makes these from the problem change feed,
 * maintenance windows and the live SLA; the channel formats (pipelines/notifications/formats/)
 * turn one event, or a group of them, into what each receiver type takes.
 */
import Type, { type Static } from 'typebox';
import { Nullable } from './common.schema.js';
import { ProblemPriority } from './problems.schema.js';

const Iso = (description: string) => Type.String({ format: 'date-time', description });

export const NOTIFICATION_EVENT_KINDS = [
  'problem.opened',
  'problem.acknowledged',
  'problem.resolved',
  'problem.flapping',
  'maintenance.started',
  'maintenance.ended',
  'sla.budget_burning',
] as const;
export type NotificationEventKind = (typeof NOTIFICATION_EVENT_KINDS)[number];
export const NotificationEventKind = Type.Union([
  Type.Literal('problem.opened'),
  Type.Literal('problem.acknowledged'),
  Type.Literal('problem.resolved'),
  Type.Literal('problem.flapping'),
  Type.Literal('maintenance.started'),
  Type.Literal('maintenance.ended'),
  Type.Literal('sla.budget_burning'),
]);

const CiRef = Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false });

/** A problem as a notification tells it. */
export const NotifiedProblem = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    trigger: Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false }),
    configItem: CiRef,
    priority: ProblemPriority,
    dateStart: Iso('When its first record was dated'),
    dateEnd: Nullable(Iso('When it closed; null while open')),
    tags: Type.Array(Type.Object({ name: Type.String(), value: Nullable(Type.String()) }, { additionalProperties: false })),
    acknowledged: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type NotifiedProblem = Static<typeof NotifiedProblem>;

const base = {
  /** Stable for the same happening: the same event made twice has the same id. */
  id: Type.String({ description: 'Stable id of the event (the same on every retry and every dispatcher)' }),
  time: Iso('When it happened'),
};

export const ProblemOpenedEvent = Type.Object({ ...base, kind: Type.Literal('problem.opened'), problem: NotifiedProblem }, { additionalProperties: false });
export const ProblemAcknowledgedEvent = Type.Object(
  { ...base, kind: Type.Literal('problem.acknowledged'), problem: NotifiedProblem, by: Type.Object({ id: Type.Integer(), name: Type.String() }), comment: Nullable(Type.String()) },
  { additionalProperties: false },
);
export const ProblemResolvedEvent = Type.Object(
  {
    ...base,
    kind: Type.Literal('problem.resolved'),
    problem: NotifiedProblem,
    resolvedBy: Type.Union([Type.Literal('record'), Type.Literal('hand')], { description: 'A resolving record, or a resolve by hand' }),
    by: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() }, { description: 'Who resolved it by hand' })),
  },
  { additionalProperties: false },
);
export const ProblemFlappingEvent = Type.Object(
  {
    ...base,
    kind: Type.Literal('problem.flapping'),
    trigger: Type.Object({ id: Type.Integer(), name: Type.String() }),
    configItem: CiRef,
    transitions: Type.Integer({ description: 'Opens and closes counted in the window' }),
    windowSeconds: Type.Integer(),
  },
  { additionalProperties: false },
);
const MaintenanceRef = Type.Object(
  { id: Type.Integer(), title: Type.String(), windowStart: Iso('This window’s start'), windowEnd: Iso('This window’s end'), configItems: Type.Array(CiRef) },
  { additionalProperties: false },
);
export const MaintenanceStartedEvent = Type.Object({ ...base, kind: Type.Literal('maintenance.started'), maintenance: MaintenanceRef }, { additionalProperties: false });
export const MaintenanceEndedEvent = Type.Object({ ...base, kind: Type.Literal('maintenance.ended'), maintenance: MaintenanceRef }, { additionalProperties: false });
export const SlaBudgetBurningEvent = Type.Object(
  {
    ...base,
    kind: Type.Literal('sla.budget_burning'),
    template: Type.Object({ id: Type.Integer(), name: Type.String() }),
    configItem: CiRef,
    burnRate: Type.Number({ description: 'Error budget spent per unit of time, 1 = exactly on budget' }),
    threshold: Type.Number({ description: "The template's alert threshold the burn rate crossed" }),
    budgetLeft: Type.Number({ description: 'Fraction of the window’s error budget left (0–1)' }),
  },
  { additionalProperties: false },
);

export const NotificationEvent = Type.Union([
  ProblemOpenedEvent,
  ProblemAcknowledgedEvent,
  ProblemResolvedEvent,
  ProblemFlappingEvent,
  MaintenanceStartedEvent,
  MaintenanceEndedEvent,
  SlaBudgetBurningEvent,
]);
export type NotificationEvent = Static<typeof NotificationEvent>;

/**
 * One message to one receiver: a single event, or the events a policy grouped in its window.
 * `deliveryId` is the Standard Webhooks `webhook-id`: one per (policy, receiver, events), the
 * same on every retry.
 */
export interface NotificationMessage {
  deliveryId: string;
  policyId: number;
  events: NotificationEvent[];
}

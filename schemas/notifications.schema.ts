/**
 * Notification receivers, policies and the delivery log (issue #31, docs/notifications.md "Model"):
 * the admin API's wire models. A receiver is where messages go, a policy chooses what goes where;
 * both are owned by a workgroup.
 *
 * Secrets are write-only: a receiver is sent with its webhook secrets, PagerDuty routing key, SMTP
 * password and URLs as they are, and read back without them — `secretsCount`, `hasPassword`, and
 * URLs with their user info, query values and (Slack) path redacted (receiver.view.ts). The
 * request logger never logs bodies, and the catalogue's messages never quote a secret.
 */
import Type, { type Static, type TLiteral, type TProperties, type TUnion } from 'typebox';
import { Id, LIMITS, Name, Nullable } from './common.schema.js';
import { NotificationEventKind } from './notification-events.schema.js';
import { ProblemPriority } from './problems.schema.js';

export const RECEIVER_TYPES = ['webhook', 'slack', 'teams', 'pagerduty', 'alertmanager', 'email'] as const;
export type ReceiverType = (typeof RECEIVER_TYPES)[number];
const ReceiverTypeName = Type.Union([
  Type.Literal('webhook'),
  Type.Literal('slack'),
  Type.Literal('teams'),
  Type.Literal('pagerduty'),
  Type.Literal('alertmanager'),
  Type.Literal('email'),
]) satisfies TUnion<TLiteral<ReceiverType>[]>;
/** The event kinds' schema, typed: a union built by `map` has no static type of its own. */
const EventKind = NotificationEventKind;

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
/** Defaults a body may leave out (receiver-input.ts, policy-input.ts fill them in). */
export const RECEIVER_DEFAULTS = { rateLimitPerSecond: 10, slackRateLimitPerSecond: 1, maxAgeHours: 24, resendSeconds: 60 } as const;
export const POLICY_DEFAULTS = { groupWindowSeconds: 30 } as const;

const Time = (description: string) => Type.String({ format: 'date-time', description });
const WorkGroupRef = Type.Object({ id: Id }, { additionalProperties: false, description: 'The owning workgroup' });
const Url = (description: string) =>
  Type.String({ format: 'uri', maxLength: 2048, description: `${description}; http: or https:, checked against the outbound address rules when saved` });
const ShownUrl = (description: string) => Type.String({ description: `${description}, with its user info and query values (Slack: its path) shown as ***` });
const WebhookSecret = Type.String({
  pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
  maxLength: 100,
  description: 'whsec_ followed by the base64 of 24 to 64 random bytes (Standard Webhooks); write-only',
});
const RoutingKey = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The Events API v2 integration key of the PagerDuty service; write-only' });
const EmailAddress = Type.String({ format: 'email', maxLength: 254 });
const RateLimit = Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Messages per second at most (default 1 for slack, else 10)' });
const MaxAgeHours = Type.Integer({ minimum: 1, maximum: 168, description: 'A message is retried until it is this many hours old, then dropped (default 24)' });
const ResendSeconds = Type.Integer({ minimum: 10, maximum: 3600, description: 'An open problem is pushed again this often, so Alertmanager keeps the alert firing (default 60)' });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });

const commonInput = {
  name: Name,
  ownerWorkGroup: WorkGroupRef,
  enabled: Type.Optional(Type.Boolean({ default: true })),
  rateLimitPerSecond: Type.Optional(RateLimit),
  maxAgeHours: Type.Optional(MaxAgeHours),
};

export const SmtpInput = Type.Object(
  {
    host: Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: '^[A-Za-z0-9._:-]+$',
      description: 'The SMTP server (a name or an IP address); checked against the outbound address rules when saved',
    }),
    port: Port,
    secure: Type.Boolean({ description: 'TLS from the start (usually port 465); false: STARTTLS when the server offers it' }),
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'write-only' })),
  },
  { additionalProperties: false },
);

const variant = <T extends string, P extends TProperties>(type: T, fields: P, description: string) =>
  Type.Object({ type: Type.Literal(type), ...commonInput, ...fields }, { additionalProperties: false, description });

/** POST body: one object per receiver type, told apart by `type`. */
export const ReceiverCreate = Type.Union([
  variant(
    'webhook',
    {
      url: Url('Where the CloudEvents are POSTed'),
      secrets: Type.Array(WebhookSecret, { minItems: 1, maxItems: 10, description: 'Signing secrets; several while one is rotated' }),
    },
    'Signed CloudEvents (Standard Webhooks)',
  ),
  variant('slack', { url: Url('The incoming-webhook URL') }, 'A Slack incoming webhook'),
  variant('teams', { url: Url('The Workflows webhook URL') }, 'A Microsoft Teams Workflows webhook (Adaptive Card)'),
  variant('pagerduty', { routingKey: RoutingKey, url: Type.Optional(Url(`The Events API v2 endpoint (default ${PAGERDUTY_EVENTS_URL})`)) }, 'PagerDuty Events API v2'),
  variant(
    'alertmanager',
    { url: Url('The base URL of the Alertmanager; alerts go to {url}/api/v2/alerts'), resendSeconds: Type.Optional(ResendSeconds) },
    'Alerts pushed to an Alertmanager',
  ),
  variant(
    'email',
    { smtp: SmtpInput, from: EmailAddress, to: Type.Array(EmailAddress, { minItems: 1, maxItems: 50, description: 'The recipients' }) },
    'Mail through an SMTP server',
  ),
]);

/**
 * PATCH body: the fields to change. The type's own fields go only with that type (a `secrets` for
 * a Slack receiver is refused with its path); `secrets` and `to` are replaced whole; `smtp` is
 * changed field by field, `user` and `password` cleared by null. Setting `enabled` clears
 * `disabledReason`.
 */
export const ReceiverPatch = Type.Object(
  {
    type: Type.Optional(ReceiverTypeName),
    name: Type.Optional(Name),
    ownerWorkGroup: Type.Optional(WorkGroupRef),
    enabled: Type.Optional(Type.Boolean()),
    rateLimitPerSecond: Type.Optional(RateLimit),
    maxAgeHours: Type.Optional(MaxAgeHours),
    url: Type.Optional(Url('The receiver’s URL')),
    secrets: Type.Optional(Type.Array(WebhookSecret, { minItems: 1, maxItems: 10 })),
    routingKey: Type.Optional(RoutingKey),
    resendSeconds: Type.Optional(ResendSeconds),
    smtp: Type.Optional(
      Type.Object(
        {
          host: Type.Optional(SmtpInput.properties.host),
          port: Type.Optional(Port),
          secure: Type.Optional(Type.Boolean()),
          user: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
          password: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1024 }))),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
    ),
    from: Type.Optional(EmailAddress),
    to: Type.Optional(Type.Array(EmailAddress, { minItems: 1, maxItems: 50 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

const commonRead = {
  id: Id,
  name: Type.String(),
  ownerWorkGroup: Type.Object({ id: Id }),
  enabled: Type.Boolean(),
  disabledReason: Nullable(Type.String({ description: "Why the platform disabled it, e.g. 'gone (410)'; null when enabled or disabled by hand" })),
  rateLimitPerSecond: Type.Number(),
  maxAgeHours: Type.Integer(),
  createdAt: Time('When it was created'),
  updatedAt: Time('When it was last changed'),
};
const shown = <T extends string, P extends TProperties>(type: T, fields: P) => Type.Object({ ...commonRead, type: Type.Literal(type), ...fields }, { additionalProperties: false });

/** A receiver as the API shows it: never a secret. */
export const Receiver = Type.Union([
  shown('webhook', { url: ShownUrl('Where the CloudEvents go'), secretsCount: Type.Integer({ description: 'How many signing secrets are set (they are never shown)' }) }),
  shown('slack', { url: ShownUrl('The incoming-webhook URL') }),
  shown('teams', { url: ShownUrl('The Workflows webhook URL') }),
  shown('pagerduty', { url: ShownUrl('The Events API v2 endpoint'), hasRoutingKey: Type.Boolean({ description: 'The routing key is set (it is never shown)' }) }),
  shown('alertmanager', { url: ShownUrl('The base URL of the Alertmanager'), resendSeconds: Type.Integer() }),
  shown('email', {
    smtp: Type.Object(
      {
        host: Type.String(),
        port: Port,
        secure: Type.Boolean(),
        user: Nullable(Type.String()),
        hasPassword: Type.Boolean({ description: 'A password is set (it is never shown)' }),
      },
      { additionalProperties: false },
    ),
    from: Type.String(),
    to: Type.Array(Type.String()),
  }),
]);

// ------------------------------------------------------------------------------------ policies

const Label = Type.String({ minLength: 1, maxLength: LIMITS.labelKey + 1 + LIMITS.labelValue, description: '`name` (has the label) or `name=value`' });
/** The CIs a policy covers: ids (and below them), a label filter, or every CI; only those its workgroup may read count. */
export const PolicyConfigItems = Type.Union(
  [
    Type.Object(
      {
        ids: Type.Array(Id, { minItems: 1, maxItems: 1000, description: 'CIs its workgroup may read' }),
        withDescendants: Type.Optional(Type.Boolean({ default: false, description: 'The CIs below them too' })),
      },
      { additionalProperties: false },
    ),
    Type.Object({ labels: Type.Array(Label, { minItems: 1, maxItems: LIMITS.labels, description: 'CIs carrying every label listed' }) }, { additionalProperties: false }),
    Type.Literal('all', { description: 'Every CI its workgroup may read' }),
  ],
  { description: 'The CIs whose events the policy selects' },
);
const Tag = Type.String({ minLength: 1, maxLength: 512, description: '`name` or `name=value`' });
const GroupWindow = Type.Integer({
  minimum: 0,
  maximum: 3600,
  description: 'Events selected within this many seconds of a group’s first go out as one message (0: each alone; default 30)',
});
const RepeatInterval = Type.Integer({ minimum: 60, maximum: 604_800, description: 'A still-open problem is told again this often; null: never (default)' });

const policyFields = {
  name: Name,
  ownerWorkGroup: WorkGroupRef,
  configItems: PolicyConfigItems,
  priorities: Type.Array(ProblemPriority, { maxItems: 4, description: 'Only problems of these priorities (empty: any)' }),
  triggerIds: Type.Array(Id, { maxItems: 1000, description: 'Only problems of these triggers (empty: any)' }),
  tags: Type.Array(Tag, { maxItems: 50, description: 'Only problems carrying every tag listed (empty: no condition)' }),
  kinds: Type.Array(EventKind, { maxItems: 20, description: 'The event kinds sent (empty: every kind)' }),
  receiverIds: Type.Array(Id, { minItems: 1, maxItems: 50, description: 'Receivers of the policy’s own workgroup' }),
  groupWindowSeconds: GroupWindow,
  repeatIntervalSeconds: Nullable(RepeatInterval),
  enabled: Type.Boolean(),
};

export const PolicyCreate = Type.Object(
  {
    name: policyFields.name,
    ownerWorkGroup: policyFields.ownerWorkGroup,
    configItems: policyFields.configItems,
    priorities: Type.Optional(policyFields.priorities),
    triggerIds: Type.Optional(policyFields.triggerIds),
    tags: Type.Optional(policyFields.tags),
    kinds: Type.Optional(policyFields.kinds),
    receiverIds: policyFields.receiverIds,
    groupWindowSeconds: Type.Optional(policyFields.groupWindowSeconds),
    repeatIntervalSeconds: Type.Optional(policyFields.repeatIntervalSeconds),
    enabled: Type.Optional(policyFields.enabled),
  },
  { additionalProperties: false },
);

/** PATCH body: the fields to change; lists and `configItems` are replaced whole. */
export const PolicyPatch = Type.Object(
  {
    name: Type.Optional(policyFields.name),
    ownerWorkGroup: Type.Optional(policyFields.ownerWorkGroup),
    configItems: Type.Optional(policyFields.configItems),
    priorities: Type.Optional(policyFields.priorities),
    triggerIds: Type.Optional(policyFields.triggerIds),
    tags: Type.Optional(policyFields.tags),
    kinds: Type.Optional(policyFields.kinds),
    receiverIds: Type.Optional(policyFields.receiverIds),
    groupWindowSeconds: Type.Optional(policyFields.groupWindowSeconds),
    repeatIntervalSeconds: Type.Optional(policyFields.repeatIntervalSeconds),
    enabled: Type.Optional(policyFields.enabled),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** A policy as stored and shown (it holds no secret). */
export const Policy = Type.Object(
  {
    id: Id,
    ...policyFields,
    ownerWorkGroup: Type.Object({ id: Id }),
    configItems: Type.Union([
      Type.Object({ ids: Type.Array(Id), withDescendants: Type.Boolean() }, { additionalProperties: false }),
      Type.Object({ labels: Type.Array(Type.String()) }, { additionalProperties: false }),
      Type.Literal('all'),
    ]),
    createdAt: Time('When it was created'),
    updatedAt: Time('When it was last changed'),
  },
  { additionalProperties: false },
);

// ---------------------------------------------------------------------------- the delivery log

export const DELIVERY_STATUSES = ['delivered', 'failed', 'retrying', 'dropped'] as const;
export const DeliveryStatus = Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('retrying'), Type.Literal('dropped')], {
  description: 'delivered: accepted (2xx); retrying: failed, tried again later; failed: refused for good (e.g. 4xx, 410); dropped: too old to retry (maxAgeHours)',
});
/** A delivery id as the path takes it: the Standard Webhooks `webhook-id` of a message. */
export const DELIVERY_ID_PATTERN = '^[A-Za-z0-9_.:-]{1,200}$';

/** One attempt to send one message to one receiver (a row of `notification_deliveries`). */
export const Delivery = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'This attempt' }),
    receiverId: Id,
    policyId: Id,
    deliveryId: Type.String({ description: 'The message: the same on every attempt (the webhook-id)' }),
    eventKinds: Type.Array(EventKind, { description: 'The kinds of the events the message carries' }),
    attempt: Type.Integer({ minimum: 1 }),
    status: DeliveryStatus,
    statusCode: Nullable(Type.Integer({ description: 'The HTTP status (SMTP reply code for email); null when no answer came' })),
    error: Nullable(Type.String({ description: 'Why it failed, without any secret' })),
    latencyMs: Nullable(Type.Integer({ description: 'From the request to the answer' })),
    at: Time('When the attempt ended'),
  },
  { additionalProperties: false },
);

export const DeliveryPage = Type.Object(
  {
    items: Type.Array(Delivery, { description: 'Newest first' }),
    nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
  },
  { additionalProperties: false },
);

export const DELIVERY_PAGE_LIMITS = { default: 100, max: 1000 } as const;
export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DELIVERY_PAGE_LIMITS.max,
        default: DELIVERY_PAGE_LIMITS.default,
        description: `Deliveries per page (default ${DELIVERY_PAGE_LIMITS.default})`,
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 512, description: 'The `nextCursor` of the previous page, as it was given (opaque); absent for the first page' })),
  },
  { additionalProperties: false },
);

/**
 * A replay asked for: a record for the dispatcher to take up (it sends the message again and
 * deletes the record). One per delivery while it waits: asking again answers the same one.
 */
export const ReplayRequest = Type.Object(
  {
    id: Id,
    receiverId: Id,
    policyId: Id,
    deliveryId: Type.String(),
    requestedBy: Type.Object({ id: Id }),
    requestedAt: Time('When it was asked for'),
  },
  { additionalProperties: false },
);

export type ReceiverCreateBody = Static<typeof ReceiverCreate>;
export type ReceiverPatchBody = Static<typeof ReceiverPatch>;
export type ReceiverModel = Static<typeof Receiver>;
export type PolicyCreateBody = Static<typeof PolicyCreate>;
export type PolicyPatchBody = Static<typeof PolicyPatch>;
export type PolicyModel = Static<typeof Policy>;
export type PolicyConfigItemsModel = Static<typeof Policy>['configItems'];
export type DeliveryModel = Static<typeof Delivery>;
export type DeliveryPageModel = Static<typeof DeliveryPage>;
export type ReplayRequestModel = Static<typeof ReplayRequest>;

// Examples for the OpenAPI document (checked against the schemas by openapi-lint.test.ts).
const at = '2026-11-21T10:00:00.000Z';
export const receiverCreateExample = {
  type: 'webhook',
  name: 'On-call bridge',
  ownerWorkGroup: { id: 2 },
  url: 'https://hooks.example.com/ops?token=s3cret',
  secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
} satisfies ReceiverCreateBody;
export const receiverExample = {
  id: 4,
  type: 'webhook',
  name: 'On-call bridge',
  ownerWorkGroup: { id: 2 },
  enabled: true,
  disabledReason: null,
  rateLimitPerSecond: 10,
  maxAgeHours: 24,
  url: 'https://hooks.example.com/ops?token=***',
  secretsCount: 1,
  createdAt: at,
  updatedAt: at,
} satisfies ReceiverModel;
export const receiversExample = [
  receiverExample,
  {
    id: 5,
    type: 'slack',
    name: '#network',
    ownerWorkGroup: { id: 2 },
    enabled: false,
    disabledReason: 'gone (410)',
    rateLimitPerSecond: 1,
    maxAgeHours: 24,
    url: 'https://hooks.slack.com/services/***',
    createdAt: at,
    updatedAt: at,
  },
] satisfies ReceiverModel[];
export const receiverPatchExample = { secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'] } satisfies ReceiverPatchBody;

export const policyCreateExample = {
  name: 'Core network, P1 and P2',
  ownerWorkGroup: { id: 2 },
  configItems: { ids: [1], withDescendants: true },
  priorities: ['Problem1', 'Problem2'],
  kinds: ['problem.opened', 'problem.resolved'],
  receiverIds: [4, 5],
} satisfies PolicyCreateBody;
export const policyExample = {
  id: 3,
  name: 'Core network, P1 and P2',
  ownerWorkGroup: { id: 2 },
  configItems: { ids: [1], withDescendants: true },
  priorities: ['Problem1', 'Problem2'],
  triggerIds: [],
  tags: [],
  kinds: ['problem.opened', 'problem.resolved'],
  receiverIds: [4, 5],
  groupWindowSeconds: 30,
  repeatIntervalSeconds: null,
  enabled: true,
  createdAt: at,
  updatedAt: at,
} satisfies PolicyModel;
export const policyPatchExample = { configItems: { labels: ['env=prod', 'team'] }, repeatIntervalSeconds: 3600 } satisfies PolicyPatchBody;

export const deliveryPageExample = {
  items: [
    {
      id: '0b6f3c1e-9d1e-4b8a-a2c4-5e6f00000002',
      receiverId: 4,
      policyId: 3,
      deliveryId: 'msg_3f0c7a529d1e4b8a',
      eventKinds: ['problem.opened'],
      attempt: 2,
      status: 'delivered',
      statusCode: 204,
      error: null,
      latencyMs: 87,
      at: '2026-11-21T10:00:31.000Z',
    },
    {
      id: '0b6f3c1e-9d1e-4b8a-a2c4-5e6f00000001',
      receiverId: 4,
      policyId: 3,
      deliveryId: 'msg_3f0c7a529d1e4b8a',
      eventKinds: ['problem.opened'],
      attempt: 1,
      status: 'retrying',
      statusCode: 503,
      error: 'HTTP 503',
      latencyMs: 15,
      at: '2026-11-21T10:00:01.000Z',
    },
  ],
  nextCursor: null,
} satisfies DeliveryPageModel;
export const replayExample = { id: 1, receiverId: 4, policyId: 3, deliveryId: 'msg_3f0c7a529d1e4b8a', requestedBy: { id: 2 }, requestedAt: at } satisfies ReplayRequestModel;

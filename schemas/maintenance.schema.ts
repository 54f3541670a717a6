/**
 * Maintenance-mode wire models (spec 2.10) and the bodies and queries of spec 4.2. Bodies are
 * permissive about what the domain checks itself (dates, CI ids, depth), so each condition of
 * spec 7.2 — "start time missing", "invalid CI id", "invalid graph depth", "end not after
 * start" — is answered by its own message rather than a generic schema error.
 */
import Type, { type Static } from 'typebox';
import { LabelValue, LIMITS, labelRecord, NameText, Nullable } from './common.schema.js';

/** Answers carry UTC with milliseconds and a `Z` offset, e.g. `2026-11-21T10:00:00.000Z`. */
const UtcDateTime = Type.String({ description: 'ISO 8601 date-time in UTC, e.g. 2026-11-21T10:00:00.000Z' });
/** Requests may use any offset; a date-time without one is refused (400) by the domain. */
const InputDateTime = Type.String({ description: 'ISO 8601 date-time with an offset (Z or ±hh:mm)' });

export const ScopeName = Type.Union([Type.Literal('Ci'), Type.Literal('CiAndChildren')], {
  description: '`Ci`: only that CI; `CiAndChildren`: that CI and its descendants up to `depth`',
});
export const ModeState = Type.Union([Type.Literal('Scheduled'), Type.Literal('Active'), Type.Literal('Completed'), Type.Literal('Canceled')]);
export const MaintenanceLabels = labelRecord(
  LabelValue,
  'Label name (1–128 characters, no control characters; at most 100 labels) to value (at most 1 024 characters); may be empty',
);

export const ScopeEntry = Type.Object({
  id: Type.Integer({ description: 'CI id' }),
  scope: ScopeName,
  depth: Type.Integer({ description: 'Depth of the successor graph; -1: all successors' }),
  state: Type.Union([Type.Literal('Pending'), Type.Literal('Completed')], { description: '`Pending` until the entry’s own end, `Completed` after' }),
  dateStart: UtcDateTime,
  dateEnd: UtcDateTime,
});

/**
 * Issue #17, not in the spec: a recurring mode. Its dateStart/dateEnd are the first occurrence;
 * the others follow `rule` in local time in `timeZone` (docs/decisions.md, "Recurring modes").
 */
export const RecurrenceInput = Type.Object(
  {
    rule: Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'RFC 5545 RRULE value: FREQ DAILY, WEEKLY or MONTHLY, with INTERVAL, COUNT or UNTIL, BYDAY (ordinals for MONTHLY, e.g. -1FR), BYMONTHDAY, BYSETPOS, WKST; e.g. FREQ=WEEKLY;BYDAY=SU',
    }),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone in which the occurrences keep their wall-clock times, e.g. Europe/Berlin' }),
    exdates: Type.Optional(
      Type.Array(Type.String({ maxLength: 10, description: 'Local date YYYY-MM-DD' }), { maxItems: 1000, description: 'Local dates whose occurrence is skipped' }),
    ),
  },
  { additionalProperties: false },
);

const Occurrence = Type.Object({ dateStart: UtcDateTime, dateEnd: UtcDateTime });

export const RecurrenceView = Type.Object({
  rule: Type.String(),
  timeZone: Type.String(),
  exdates: Type.Array(Type.String()),
  seriesEnd: Type.Union([UtcDateTime, Type.Null()], { description: 'End of the last occurrence (or when the series was completed); null when the rule has no end' }),
  current: Type.Union([Occurrence, Type.Null()], { description: 'The occurrence running now, if any' }),
  next: Type.Array(Occurrence, { description: 'The next occurrences that start after now (at most 5)' }),
});

export const MaintenanceMode = Type.Object({
  id: Type.Integer(),
  title: Nullable(Type.String()),
  dateStart: UtcDateTime,
  dateEnd: UtcDateTime,
  /** Not in spec 2.10: the derived state of DESIGN §8, shown because lists sort by it. */
  state: ModeState,
  configItems: Type.Array(ScopeEntry),
  labels: MaintenanceLabels,
  recurrence: Type.Optional(RecurrenceView),
});

export const ScopeInput = Type.Object({
  id: Type.Optional(Nullable(Type.Number({ description: 'CI id' }))),
  scope: ScopeName,
  depth: Type.Optional(Nullable(Type.Number({ description: 'Default -1 (all successors)' }))),
});

const modeFields = {
  title: Type.Optional(Nullable(NameText)),
  dateStart: Type.Optional(Nullable(InputDateTime)),
  dateEnd: Type.Optional(Nullable(InputDateTime)),
  configItems: Type.Optional(Nullable(Type.Array(ScopeInput, { maxItems: LIMITS.listItems }))),
  labels: Type.Optional(Nullable(MaintenanceLabels)),
  recurrence: Type.Optional(Nullable(RecurrenceInput)),
};

/** #4. dateStart, dateEnd and a non-empty configItems are required (checked by the domain). */
export const MaintenanceCreate = Type.Object(modeFields);

/**
 * #5 and #6. PUT needs dateStart, dateEnd and configItems like #4; PATCH keeps every field that
 * is absent or null. `cancel` cancels a scheduled mode or completes an active one.
 */
export const MaintenanceUpdate = Type.Object({
  ...modeFields,
  cancel: Type.Optional(Nullable(Type.Boolean({ description: 'true: cancel a scheduled mode, or complete an active one (its end becomes now)' }))),
});

export const DateTimeFilter = Type.Object({
  lessThanOrEqual: Type.Optional(Nullable(InputDateTime)),
  moreThanOrEqual: Type.Optional(Nullable(InputDateTime)),
  Equal: Type.Optional(Nullable(InputDateTime)),
});

/** #3. OR inside an array, AND across fields; a filter with no criterion is refused. */
export const MaintenanceFilter = Type.Object({
  ids: Type.Optional(Nullable(Type.Array(Type.Number()))),
  dateStart: Type.Optional(Nullable(DateTimeFilter)),
  dateEnd: Type.Optional(Nullable(DateTimeFilter)),
  configItemIds: Type.Optional(Nullable(Type.Array(Type.Number()))),
});

/** Strings here so a bad value is answered by the route with a message naming the rule. */
export const MaintenanceListQuery = Type.Object({
  sortCol: Type.Optional(Type.String({ description: 'id (default), title, dateStart, dateEnd or state' })),
  sortDir: Type.Optional(Type.String({ description: 'asc (default) or desc' })),
  page: Type.Optional(Type.String({ description: 'Page number from 1 (default 1)' })),
  perPage: Type.Optional(Type.String({ description: 'Results per page, default 1000; -1 returns all' })),
  search: Type.Optional(Type.String({ description: 'Mode id, id of a CI in scope (exact); title, label keys and values (case-insensitive substring)' })),
});

export const BatchValidateQuery = Type.Object({
  batchValidate: Type.Optional(Type.String({ description: 'true: refuse the mode when any CI is unknown or not accessible; false (default): drop those CIs' })),
});

/** Issue #17: POST …/rsm-maintenance/preview answers what the body would do, saving nothing. */
export const PreviewQuery = Type.Object({
  batchValidate: Type.Optional(Type.String({ description: 'As for #4: true refuses the body when a CI is unknown or not accessible' })),
  occurrences: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'How many occurrences to show (default 10)' })),
});

const LocalDateTimeText = Type.String({ description: 'Wall-clock date-time in the mode’s time zone, YYYY-MM-DDTHH:MM:SS' });

export const MaintenancePreview = Type.Object({
  configItems: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      via: Type.Object({ id: Type.Integer({ description: 'The scope entry’s CI' }), scope: ScopeName, depth: Type.Integer() }),
    }),
    { description: 'The CIs the mode would cover now that the caller may see' },
  ),
  dropped: Type.Array(Type.Integer(), { description: 'Scope CIs left out: unknown or not readable by the caller' }),
  hiddenConfigItems: Type.Integer({ description: 'Descendants the mode would cover that the caller may not see (counted, not named)' }),
  timeZone: Type.String({ description: 'The zone of the local times: the recurrence’s, or UTC' }),
  occurrences: Type.Array(Type.Object({ dateStart: UtcDateTime, dateEnd: UtcDateTime, localStart: LocalDateTimeText, localEnd: LocalDateTimeText })),
  overlaps: Type.Array(Type.Object({ id: Type.Integer(), title: Nullable(Type.String()) }), {
    description: 'Modes the caller may see that already cover one of these CIs during one of these occurrences',
  }),
});

export type MaintenanceModeModel = Static<typeof MaintenanceMode>;
export type MaintenancePreviewModel = Static<typeof MaintenancePreview>;
export type RecurrenceInputBody = Static<typeof RecurrenceInput>;
export type RecurrenceViewModel = Static<typeof RecurrenceView>;
export type ScopeEntryModel = Static<typeof ScopeEntry>;
export type ScopeInputBody = Static<typeof ScopeInput>;
export type MaintenanceCreateBody = Static<typeof MaintenanceCreate>;
export type MaintenanceUpdateBody = Static<typeof MaintenanceUpdate>;
export type MaintenanceFilterBody = Static<typeof MaintenanceFilter>;
export type DateTimeFilterBody = Static<typeof DateTimeFilter>;

// Examples for the OpenAPI document, as a session answered them (checked against these schemas
// by openapi-lint.test.ts): a night upgrade of billing (1) and its tree, and of billing-db (2).
export const maintenanceCreateExample = {
  title: 'PostgreSQL 17 upgrade',
  dateStart: '2026-03-07T22:00:00+01:00',
  dateEnd: '2026-03-08T02:00:00+01:00',
  configItems: [
    { id: 1, scope: 'CiAndChildren', depth: -1 },
    { id: 2, scope: 'Ci' },
  ],
  labels: { change: 'CHG-2041' },
} satisfies MaintenanceCreateBody;

/** The answer to maintenanceCreateExample: dates in UTC, every entry with its own interval. */
export const maintenanceModeExample = {
  id: 1,
  title: 'PostgreSQL 17 upgrade',
  dateStart: '2026-03-07T21:00:00.000Z',
  dateEnd: '2026-03-08T01:00:00.000Z',
  state: 'Scheduled',
  configItems: [
    { id: 1, scope: 'CiAndChildren', depth: -1, state: 'Pending', dateStart: '2026-03-07T21:00:00.000Z', dateEnd: '2026-03-08T01:00:00.000Z' },
    { id: 2, scope: 'Ci', depth: -1, state: 'Pending', dateStart: '2026-03-07T21:00:00.000Z', dateEnd: '2026-03-08T01:00:00.000Z' },
  ],
  labels: { change: 'CHG-2041' },
} satisfies MaintenanceModeModel;

/** PUT sends the whole mode: here, an hour longer. */
export const maintenanceReplaceExample = { ...maintenanceCreateExample, dateEnd: '2026-03-08T03:00:00+01:00' } satisfies MaintenanceUpdateBody;
/** PATCH sends only what changes. */
export const maintenancePatchExample = { dateEnd: '2026-03-08T03:00:00+01:00' } satisfies MaintenanceUpdateBody;
/** The mode after either: the entries end with it. */
export const maintenanceEditedExample = {
  ...maintenanceModeExample,
  dateEnd: '2026-03-08T02:00:00.000Z',
  configItems: maintenanceModeExample.configItems.map((entry) => ({ ...entry, dateEnd: '2026-03-08T02:00:00.000Z' })),
} satisfies MaintenanceModeModel;

export const maintenanceFilterExample = { dateStart: { moreThanOrEqual: '2026-03-01T00:00:00Z' }, configItemIds: [2] } satisfies MaintenanceFilterBody;

/** A weekly Sunday-night window in Berlin, previewed across the spring-forward night of 2027-03-28. */
export const maintenancePreviewBodyExample = {
  title: 'Weekly patch window',
  dateStart: '2027-03-21T02:00:00+01:00',
  dateEnd: '2027-03-21T04:00:00+01:00',
  configItems: [{ id: 1, scope: 'CiAndChildren', depth: 1 }],
  recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
} satisfies MaintenanceCreateBody;

/** 02:00 does not exist on 2027-03-28: that night's window is 03:00–04:00 CEST, one hour. */
export const maintenancePreviewExample = {
  configItems: [
    { id: 1, name: 'billing', via: { id: 1, scope: 'CiAndChildren', depth: 1 } },
    { id: 3, name: 'billing-api', via: { id: 1, scope: 'CiAndChildren', depth: 1 } },
  ],
  dropped: [],
  hiddenConfigItems: 0,
  timeZone: 'Europe/Berlin',
  occurrences: [
    { dateStart: '2027-03-21T01:00:00.000Z', dateEnd: '2027-03-21T03:00:00.000Z', localStart: '2027-03-21T02:00:00', localEnd: '2027-03-21T04:00:00' },
    { dateStart: '2027-03-28T01:00:00.000Z', dateEnd: '2027-03-28T02:00:00.000Z', localStart: '2027-03-28T03:00:00', localEnd: '2027-03-28T04:00:00' },
    { dateStart: '2027-04-04T00:00:00.000Z', dateEnd: '2027-04-04T02:00:00.000Z', localStart: '2027-04-04T02:00:00', localEnd: '2027-04-04T04:00:00' },
  ],
  overlaps: [{ id: 1, title: 'PostgreSQL 17 upgrade' }],
} satisfies MaintenancePreviewModel;

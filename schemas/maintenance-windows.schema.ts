/**
 * Issue #33, not in the spec: the windows of the maintenance modes within a range, recurring
 * modes expanded by the server (the console's calendar). A month of 10 000 modes is some 15 000
 * windows; the server keeps each series compiled, so it answers them without every client
 * compiling every rule again.
 */
import Type, { type Static } from 'typebox';
import { Nullable } from './common.schema.js';
import { ModeState, ScopeName } from './maintenance.schema.js';

const UtcDateTime = Type.String({ description: 'ISO 8601 date-time in UTC, e.g. 2026-11-21T10:00:00.000Z' });

export const WINDOWS_LIMITS = { maxDays: 100, defaultLimit: 50_000, maxLimit: 200_000 } as const;

/** Strings, so a bad value is answered with a message naming the rule (as the list's query). */
export const MaintenanceWindowsQuery = Type.Object({
  dateFrom: Type.String({ description: 'Start of the range, ISO 8601 with an offset (required)' }),
  dateTo: Type.String({ description: `End of the range (excluded), after dateFrom and at most ${WINDOWS_LIMITS.maxDays} days after it (required)` }),
  search: Type.Optional(Type.String({ description: 'As for the list (#1): mode id, id of a CI in scope (exact); title, label keys and values (case-insensitive substring)' })),
  limit: Type.Optional(
    Type.String({
      description: `At most this many windows, the earliest (default ${WINDOWS_LIMITS.defaultLimit}, at most ${WINDOWS_LIMITS.maxLimit}); \`truncated\` says when more exist`,
    }),
  ),
});

export const WindowMode = Type.Object(
  {
    id: Type.Integer(),
    title: Nullable(Type.String()),
    state: ModeState,
    configItems: Type.Array(Type.Object({ id: Type.Integer({ description: 'CI id' }), scope: ScopeName, depth: Type.Integer() }, { additionalProperties: false })),
    recurrence: Type.Union([Type.Object({ rule: Type.String(), timeZone: Type.String() }, { additionalProperties: false }), Type.Null()], {
      description: 'The rule and zone of a recurring mode; null for a one-off mode',
    }),
  },
  { additionalProperties: false, description: 'What a calendar shows of a mode; GET …/rsm-maintenance/{id} has the rest' },
);

export const MaintenanceWindows = Type.Object(
  {
    dateFrom: UtcDateTime,
    dateTo: UtcDateTime,
    modes: Type.Array(WindowMode, { description: 'The modes of the windows, by id' }),
    windows: Type.Array(Type.Object({ modeId: Type.Integer(), dateStart: UtcDateTime, dateEnd: UtcDateTime }, { additionalProperties: false }), {
      description:
        'Every window meeting [dateFrom, dateTo) of the modes the caller may see, by start (ties by mode id), whole (a window may begin before dateFrom or end after dateTo); canceled modes included, their state says so',
    }),
    truncated: Type.Boolean({ description: 'True when more windows met the range than `limit`: the latest were left out' }),
  },
  { additionalProperties: false },
);

export type MaintenanceWindowsModel = Static<typeof MaintenanceWindows>;

/** A weekly Sunday-night window in Berlin over the spring-forward night of 2027-03-28, beside a one-off upgrade. */
export const maintenanceWindowsExample = {
  dateFrom: '2027-03-22T00:00:00.000Z',
  dateTo: '2027-04-05T00:00:00.000Z',
  modes: [
    { id: 1, title: 'PostgreSQL 17 upgrade', state: 'Scheduled', configItems: [{ id: 2, scope: 'Ci', depth: -1 }], recurrence: null },
    {
      id: 3,
      title: 'Weekly patch window',
      state: 'Active',
      configItems: [{ id: 1, scope: 'CiAndChildren', depth: 1 }],
      recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
    },
  ],
  windows: [
    { modeId: 3, dateStart: '2027-03-28T01:00:00.000Z', dateEnd: '2027-03-28T02:00:00.000Z' },
    { modeId: 1, dateStart: '2027-03-30T20:00:00.000Z', dateEnd: '2027-03-31T00:00:00.000Z' },
    { modeId: 3, dateStart: '2027-04-04T00:00:00.000Z', dateEnd: '2027-04-04T02:00:00.000Z' },
  ],
  truncated: false,
} satisfies MaintenanceWindowsModel;

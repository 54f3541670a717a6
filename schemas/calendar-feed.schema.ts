/** Calendar feeds of maintenance modes (issue #17, not in the spec): their bodies and answers. */
import Type, { type Static } from 'typebox';
import { Id, LIMITS, Nullable } from './common.schema.js';

const UtcDateTime = Type.String({ description: 'ISO 8601 date-time in UTC, e.g. 2026-11-21T10:00:00.000Z' });
const Search = Type.String({
  maxLength: LIMITS.labelValue,
  description: 'As the list’s `search` (spec 4.2 #1): mode id, id of a CI in scope (exact); title, label keys and values (case-insensitive substring)',
});

export const CalendarFeedCreate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.name, description: 'The calendar’s name in the client (default `Maintenance`)' })),
    search: Type.Optional(Search),
  },
  { additionalProperties: false },
);

export const CalendarFeed = Type.Object({
  id: Id,
  name: Type.String(),
  search: Nullable(Search),
  createdAt: UtcDateTime,
  revokedAt: Nullable(UtcDateTime),
});

export const CalendarFeedIssued = Type.Intersect([
  CalendarFeed,
  Type.Object({
    token: Type.String({ description: 'The feed token; shown only in this answer' }),
    url: Type.String({
      description:
        'The subscription path with the token; prepend the platform’s base URL (e.g. https://ops.example.com) to subscribe. Relative, because only the client knows how it reaches the platform',
    }),
  }),
]);

export const CalendarQuery = Type.Object({
  feedToken: Type.Optional(Type.String({ description: 'The token of the feed, as in the `url` given when it was created' })),
});

export type CalendarFeedCreateBody = Static<typeof CalendarFeedCreate>;
export type CalendarFeedModel = Static<typeof CalendarFeed>;

const exampleToken = 'opscal_Vq3n1xXo0s7eQm2lJc9tPz4bRk6wYh8aFd5gUi1LvE0';

export const calendarFeedCreateExample: CalendarFeedCreateBody = { name: 'Database maintenance', search: 'database' };
export const calendarFeedExample: CalendarFeedModel = { id: 3, name: 'Database maintenance', search: 'database', createdAt: '2026-11-21T10:00:00.000Z', revokedAt: null };
export const calendarFeedIssuedExample = {
  ...calendarFeedExample,
  token: exampleToken,
  url: `/api/public/sm/v1/rsm-maintenance/calendar.ics?feedToken=${exampleToken}`,
};

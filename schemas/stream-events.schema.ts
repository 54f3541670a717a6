/**
 * Reading a stream's events and dead letters (issue #30; DESIGN §11): the queries of the pages
 * and of the live tail, their items, and the data of the tail's `sampled` event.
 */
import Type, { type Static } from 'typebox';
import { DATE_TIME_PATTERN, Id, Nullable } from './common.schema.js';

/** Records per page: the default, and the most a caller may ask for. */
export const PAGE_LIMITS = { default: 100, max: 1000 } as const;
/** The longest span one read covers. */
export const MAX_READ_DAYS = 31;
/** Filters one read takes, and the longest filter. */
export const MAX_FILTERS = 10;
export const MAX_FILTER_LENGTH = 2048;
/** Records the live tail sends per second at most; above it, a sample of them. */
export const TAIL_MAX_PER_SECOND = 100;

const UtcDateTime = Type.String({ description: 'ISO 8601 date-time in UTC, with milliseconds' });
const EventId = Type.String({ format: 'uuid', description: 'The record’s id (stable: the same record always has the same id)' });

const From = (what: string) =>
  Type.String({ pattern: DATE_TIME_PATTERN, description: `Start of the range (inclusive) of ${what}, ISO 8601 with an offset; at most ${MAX_READ_DAYS} days before \`to\`` });
const To = (what: string) => Type.String({ pattern: DATE_TIME_PATTERN, description: `End of the range (exclusive) of ${what}, ISO 8601 with an offset; after \`from\`` });
const Limit = Type.Integer({
  minimum: 1,
  maximum: PAGE_LIMITS.max,
  default: PAGE_LIMITS.default,
  description: `Items per page (an integer, default ${PAGE_LIMITS.default}). A page also ends once its records pass 4 MiB; follow \`nextCursor\``,
});
const Cursor = Type.String({ maxLength: 512, description: 'The `nextCursor` of the previous page, as it was given (opaque); absent for the first page' });
const Filter = Type.Array(
  Type.String({
    maxLength: MAX_FILTER_LENGTH,
    description:
      '`field=value`, `field!=value` or `field~substring`, on the record: `field` is a dotted path into it (`host`, `labels.env`). ' +
      'A string field is compared as its text, a number, boolean or null as its JSON (`code=500`, `up=true`); a missing field reads as empty, so it is unequal to any value but the empty one',
  }),
  { maxItems: MAX_FILTERS, description: `Repeat the parameter for more filters (all must hold; at most ${MAX_FILTERS})` },
);
const Route = Type.String({ maxLength: 1024, description: 'Only records with this route label (exact)' });

export const StreamEventsQuery = Type.Object({
  from: From('event dates (`ts`)'),
  to: To('event dates (`ts`)'),
  filter: Type.Optional(Filter),
  route: Type.Optional(Route),
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
});

export const DeadLettersQuery = Type.Object({
  from: From('receipt dates'),
  to: To('receipt dates'),
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
});

export const StreamTailQuery = Type.Object({ filter: Type.Optional(Filter), route: Type.Optional(Route) });

export const StreamEvent = Type.Object({
  id: EventId,
  streamId: Id,
  ts: UtcDateTime,
  receivedAt: UtcDateTime,
  route: Type.String({ description: 'The post-routing label (empty when the stream has none)' }),
  labels: Type.Record(Type.String(), Type.String(), { description: 'Static labels the preprocessor added' }),
  record: Type.Unknown({ description: 'The record as stored: parsed, preprocessed JSON' }),
});

export const StreamEventPage = Type.Object({
  items: Type.Array(StreamEvent, { description: 'Newest first (by `ts`, then `id`)' }),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
});

export const DeadLetter = Type.Object({
  id: EventId,
  streamId: Id,
  receivedAt: UtcDateTime,
  reason: Type.String({ description: 'Why the record could not become an event' }),
  payload: Type.String({ description: 'The record as it was received' }),
});

export const DeadLetterPage = Type.Object({
  items: Type.Array(DeadLetter, { description: 'Newest first (by `receivedAt`, then `id`)' }),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page' })),
});

/** The data of the tail's `sampled` event: what one second (one poll) held and what was sent of it. */
export const TailSampled = Type.Object({
  rate: Type.Number({ minimum: 0, maximum: 1, description: 'sent / seen' }),
  seen: Type.Integer({ minimum: 1, description: 'New records that matched in that second' }),
  sent: Type.Integer({ minimum: 0, description: 'How many of them were sent' }),
});

export type StreamEventModel = Static<typeof StreamEvent>;
export type StreamEventPageModel = Static<typeof StreamEventPage>;
export type DeadLetterModel = Static<typeof DeadLetter>;
export type DeadLetterPageModel = Static<typeof DeadLetterPage>;
export type TailSampledModel = Static<typeof TailSampled>;

export const streamEventExample: StreamEventModel = {
  id: '3f0c7a52-9d1e-4b8a-a2c4-5e6f00000002',
  streamId: 1,
  ts: '2026-11-21T10:00:00.000Z',
  receivedAt: '2026-11-21T10:00:00.412Z',
  route: 'syslog',
  labels: { env: 'prod' },
  record: { host: 'core-router', status: 'down', '@timestamp': '2026-11-21T10:00:00Z' },
};

export const streamEventPageExample: StreamEventPageModel = {
  items: [streamEventExample],
  nextCursor: 'eyJ0cyI6IjIwMjYtMTEtMjFUMTA6MDA6MDAuMDAwWiIsImlkIjoiM2YwYzdhNTItOWQxZS00YjhhLWEyYzQtNWU2ZjAwMDAwMDAyIn0',
};

export const deadLetterPageExample: DeadLetterPageModel = {
  items: [
    {
      id: '3f0c7a52-9d1e-4b8a-a2c4-5e6f00000001',
      streamId: 1,
      receivedAt: '2026-11-21T10:00:00.412Z',
      reason: "the text does not match the stream's pattern",
      payload: 'lowercase does not match',
    },
  ],
  nextCursor: null,
};

export const tailSampledExample: TailSampledModel = { rate: 0.25, seen: 400, sent: 100 };

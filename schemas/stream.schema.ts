/**
 * A data stream (DESIGN §6): its key, status and processing configuration — parser,
 * preprocessor and post-routing label. Managed through the admin API.
 */
import Type, { type Static } from 'typebox';
import { Id, Name } from './common.schema.js';

export const StreamStatus = Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('pendingDeletion')]);

export const Parser = Type.Union([
  Type.Object({ type: Type.Literal('xml') }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal('text'),
      pattern: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            'An RE2 regular expression with named groups (?<name>…); each group becomes a field. Matched in linear time; a text record longer than 262 144 ÷ (compiled size) characters (at most 65 536) is dead-lettered',
        }),
      ),
    },
    { additionalProperties: false },
  ),
]);

export const Preprocessor = Type.Object(
  {
    timestampField: Type.Optional(Type.String({ minLength: 1, description: 'Field holding the event date; wins over @timestamp' })),
    timestampFormat: Type.Optional(Type.Union([Type.Literal('iso8601'), Type.Literal('epoch-ms'), Type.Literal('epoch-s')], { description: 'Default iso8601' })),
    renames: Type.Optional(Type.Record(Type.String(), Type.String({ minLength: 1 }))),
    drops: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    labels: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

export const Framing = Type.Union([Type.Literal('body'), Type.Literal('elements'), Type.Literal('lines')], {
  description:
    'Where records begin (default body): body = a JSON body, XML or text is one record; elements = a top-level JSON array is one record per element; lines = plain text is one record per line (each through the parser) and a JSON body is read as NDJSON',
});

export const StreamConfig = Type.Object(
  {
    framing: Type.Optional(Framing),
    parser: Type.Optional(Type.Union([Parser, Type.Null()])),
    preprocessor: Type.Optional(Type.Union([Preprocessor, Type.Null()])),
    routeLabel: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    retentionDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        description: "Days this stream's events are kept after they were received (default OPS_EVENTS_RETENTION_DAYS); a change applies to the records stored after it",
      }),
    ),
  },
  { additionalProperties: false },
);

export const Stream = Type.Object({
  id: Id,
  name: Name,
  key: Type.String(),
  status: StreamStatus,
  config: StreamConfig,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const StreamCreate = Type.Object(
  { name: Name, status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])), config: Type.Optional(StreamConfig) },
  { additionalProperties: false },
);
export const StreamPatch = Type.Object({ name: Type.Optional(Name), config: Type.Optional(StreamConfig) }, { additionalProperties: false, minProperties: 1 });

export type StreamModel = Static<typeof Stream>;
export type StreamConfigModel = Static<typeof StreamConfig>;
export type StreamCreateBody = Static<typeof StreamCreate>;
export type StreamPatchBody = Static<typeof StreamPatch>;

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
  // Presets: the formats agents speak, parsed without a pattern (pipelines/records/presets/, docs/parser-presets.md).
  Type.Object(
    { type: Type.Literal('collectd') },
    {
      additionalProperties: false,
      description:
        'collectd write_http: Format "Command" (one PUTVAL per line) or Format "JSON" (an array of value lists); one record per value list, its values named by the data sources of collectd\'s types.db',
    },
  ),
  Type.Object(
    {
      type: Type.Literal('influx'),
      precision: Type.Optional(
        Type.Union([Type.Literal('ns'), Type.Literal('us'), Type.Literal('ms'), Type.Literal('s')], { description: 'Unit of the timestamps (default ns, as Telegraf sends them)' }),
      ),
    },
    { additionalProperties: false, description: "InfluxDB line protocol (Telegraf's http output): one record per line {name, tags, fields}" },
  ),
  Type.Object({ type: Type.Literal('graphite') }, { additionalProperties: false, description: 'Graphite plaintext: one record per `path value timestamp` line' }),
  Type.Object(
    {
      type: Type.Literal('syslog'),
      timeZone: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of timestamps written without an offset (RFC 3164 `Mmm dd hh:mm:ss`); default UTC' }),
      ),
    },
    { additionalProperties: false, description: 'Syslog lines, RFC 5424 or RFC 3164: PRI as facility and severity, timestamp, host, app, procid, msgid, structured data, message' },
  ),
  Type.Object({ type: Type.Literal('logfmt') }, { additionalProperties: false, description: 'logfmt lines (key=value key2="quoted value"): one record per line' }),
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
    'Where records begin (default body; with a preset parser, text is read by lines and, for collectd, a JSON array by elements): body = a JSON body, XML or text is one record; elements = a top-level JSON array is one record per element; lines = plain text is one record per line (each through the parser) and a JSON body is read as NDJSON',
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

/** Issue #33: a stream as its readers (`base-system.streams.read`) see it: all but its key. */
export const StreamRead = Type.Object(
  {
    id: Id,
    name: Name,
    status: StreamStatus,
    config: StreamConfig,
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
);

export const streamReadExample = {
  id: 3,
  name: 'syslog-edge',
  status: 'active',
  config: { framing: 'lines', parser: { type: 'syslog' }, routeLabel: 'edge' },
  createdAt: '2026-11-20T09:12:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
} satisfies Static<typeof StreamRead>;

export const StreamCreate = Type.Object(
  { name: Name, status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])), config: Type.Optional(StreamConfig) },
  { additionalProperties: false },
);
export const StreamPatch = Type.Object({ name: Type.Optional(Name), config: Type.Optional(StreamConfig) }, { additionalProperties: false, minProperties: 1 });

export type ParserModel = Static<typeof Parser>;
export type StreamModel = Static<typeof Stream>;
export type StreamConfigModel = Static<typeof StreamConfig>;
export type StreamCreateBody = Static<typeof StreamCreate>;
export type StreamPatchBody = Static<typeof StreamPatch>;

/**
 * The environment, parsed once at start (STYLE habit 4). Every variable is documented in the
 * README's configuration table; keep the two in step.
 */
import Type, { type Static } from 'typebox';

const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const PositiveInt = Type.Integer({ minimum: 1 });
const RetentionDays = Type.Integer({ minimum: 1, maximum: 3650 });
/** A size (`2GiB`, `500MB`, bytes) or a share of the filesystem (`5%`); several, comma-separated, mean the largest. */
const ONE_DISK_AMOUNT = '\\s*\\d+(?:\\.\\d+)?\\s*(?:%|[bB]|[kKmMgGtT](?:[iI]?[bB])?)?\\s*';
export const DiskAmounts = Type.String({ pattern: `^${ONE_DISK_AMOUNT}(?:,${ONE_DISK_AMOUNT})*$` });

export const EnvSchema = Type.Object({
  OPS_PORT: Type.Optional(Port),
  OPS_HOST: Type.Optional(Type.String({ minLength: 1 })),
  OPS_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  OPS_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16, pattern: '^[A-Za-z0-9._~+/=-]+$' })),
  OPS_MAX_BODY_BYTES: Type.Optional(PositiveInt),
  OPS_SHUTDOWN_TIMEOUT_MS: Type.Optional(PositiveInt),
  OPS_BATCH_MAX_RECORDS: Type.Optional(PositiveInt),
  OPS_BATCH_MAX_BYTES: Type.Optional(PositiveInt),
  OPS_BATCH_MAX_WAIT_MS: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  OPS_INGRESS_MAX_PENDING_BATCHES: Type.Optional(PositiveInt),
  OPS_PUBLISH_TIMEOUT_MS: Type.Optional(PositiveInt),
  OPS_SLA_THREADS: Type.Optional(Type.Integer({ minimum: 1, maximum: 256 })),
  OPS_NOTIFY_SEND_THREADS: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 })),
  OPS_PROBLEM_PARTITIONS: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
  OPS_MAX_DELIVERIES: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  OPS_HELPER_THREAD_NICENESS: Type.Optional(Type.Integer({ minimum: 0, maximum: 19 })),
  OPS_MIN_FREE_DISK: Type.Optional(DiskAmounts),
  OPS_EVENTS_RETENTION_DAYS: Type.Optional(RetentionDays),
  OPS_PROBLEMS_RETENTION_DAYS: Type.Optional(RetentionDays),
  OPS_DEAD_LETTERS_RETENTION_DAYS: Type.Optional(RetentionDays),
  OPS_SESSION_IDLE_MINUTES: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  OPS_SESSION_MAX_HOURS: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
  OPS_COOKIE_SECURE: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('always'), Type.Literal('never')])),
  OPS_NOTIFY_ALLOW_NETWORKS: Type.Optional(Type.String({ pattern: '^[0-9A-Fa-f:./,\\s]*$' })),
  OPS_CONSOLE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  NATS_URL: Type.Optional(Type.String({ pattern: '^(nats|tls)://[^\\s]+$' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://[^\\s]+$' })),
  REDIS_KEY_PREFIX: Type.Optional(Type.String({ minLength: 1 })),
  CLICKHOUSE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  CLICKHOUSE_USER: Type.Optional(Type.String({ minLength: 1 })),
  CLICKHOUSE_PASSWORD: Type.Optional(Type.String()),
  CLICKHOUSE_DATABASE: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
  LOG_LEVEL: Type.Optional(
    Type.Union([Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')]),
  ),
});

export type Env = Static<typeof EnvSchema>;

/** What each variable must look like, for the one-line start-up error. */
export const envExpectations: Record<keyof Env, string> = {
  OPS_PORT: 'an integer port from 1 to 65535',
  OPS_HOST: 'a host name or address to listen on',
  OPS_DATA_DIR: 'a directory path',
  OPS_ADMIN_TOKEN: 'at least 16 characters of A-Z a-z 0-9 . _ ~ + / = -',
  OPS_MAX_BODY_BYTES: 'a positive integer (bytes)',
  OPS_SHUTDOWN_TIMEOUT_MS: 'a positive integer (milliseconds)',
  OPS_BATCH_MAX_RECORDS: 'a positive integer (records per bus message)',
  OPS_BATCH_MAX_BYTES: 'a positive integer (bytes per bus message)',
  OPS_BATCH_MAX_WAIT_MS: 'an integer from 0 to 10000 (milliseconds)',
  OPS_INGRESS_MAX_PENDING_BATCHES: 'a positive integer (batches awaiting the bus)',
  OPS_PUBLISH_TIMEOUT_MS: 'a positive integer (milliseconds)',
  OPS_SLA_THREADS: 'an integer from 1 to 256 (SLA calculation threads)',
  OPS_NOTIFY_SEND_THREADS: 'an integer from 0 to 64 (notification send threads; 0: the main thread)',
  OPS_PROBLEM_PARTITIONS: 'an integer from 1 to 4096 (partitions of the problem stage, fixed per installation)',
  OPS_MAX_DELIVERIES: 'an integer from 1 to 1000 (deliveries after which a bus message that still fails is dead-lettered)',
  OPS_HELPER_THREAD_NICENESS: 'an integer from 0 to 19 (nice value of the threads besides the event loop; 0 leaves them)',
  OPS_MIN_FREE_DISK: 'a size (2GiB, 500MB, bytes) or a percent of the disk (5%), or several separated by commas (the largest applies)',
  OPS_EVENTS_RETENTION_DAYS: 'an integer from 1 to 3650 (days an event is kept after it was received)',
  OPS_PROBLEMS_RETENTION_DAYS: 'an integer from 1 to 3650 (days a problem is kept after its end)',
  OPS_DEAD_LETTERS_RETENTION_DAYS: 'an integer from 1 to 3650 (days a dead letter is kept after it was received)',
  OPS_SESSION_IDLE_MINUTES: 'an integer from 1 to 1440 (minutes a console session lasts without use)',
  OPS_SESSION_MAX_HOURS: 'an integer from 1 to 720 (hours a console session lasts at most)',
  OPS_COOKIE_SECURE: 'one of auto, always, never (when the session cookie is marked Secure)',
  OPS_NOTIFY_ALLOW_NETWORKS: 'networks in CIDR notation or single addresses, separated by commas (10.20.0.0/16,fd00:1::/64,192.168.1.5)',
  OPS_CONSOLE_URL: 'an http:// or https:// URL (where users reach the console, for links in notifications)',
  NATS_URL: 'a nats:// or tls:// URL',
  REDIS_URL: 'a redis:// or rediss:// URL',
  REDIS_KEY_PREFIX: 'a non-empty key prefix',
  CLICKHOUSE_URL: 'an http:// or https:// URL',
  CLICKHOUSE_USER: 'a non-empty user name',
  CLICKHOUSE_PASSWORD: 'a password',
  CLICKHOUSE_DATABASE: 'a database name (letters, digits, underscore)',
  LOG_LEVEL: 'one of fatal, error, warn, info, debug, trace, silent',
};

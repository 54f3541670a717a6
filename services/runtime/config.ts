import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Compile } from 'typebox/compile';
import { type Env, EnvSchema, envExpectations } from '../../schemas/env.schema.js';
import { type DiskAmount, parseDiskAmounts } from './disk-amount.js';
import { type AllowedNetwork, parseAllowNetworks } from './outbound/address-policy.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminToken: string | undefined;
  maxBodyBytes: number;
  shutdownTimeoutMs: number;
  logLevel: NonNullable<Env['LOG_LEVEL']>;
  /** Micro-batching of stream records into bus messages (DESIGN §6). */
  batching: { maxRecords: number; maxBytes: number; maxWaitMs: number; maxPendingBatches: number; publishTimeoutMs: number };
  /** Piscina threads of an SLA worker (DESIGN §9). */
  slaThreads: number;
  analytics: { kind: 'chdb'; dataDir: string } | { kind: 'clickhouse'; url: string; username: string; password: string; database: string };
  bus: { kind: 'memory'; logPath: string } | { kind: 'jetstream'; url: string };
  journal: { kind: 'lmdb'; path: string } | { kind: 'redis'; url: string; keyPrefix: string };
  /** Problem state, keyed by (trigger, CI) (DESIGN §7a): beside the journal, in the same engine. */
  keyedStore: { kind: 'lmdb'; path: string } | { kind: 'redis'; url: string; keyPrefix: string };
  /** Partitions of the keyed problem stage: fixed per installation (changing it moves keys). */
  problemPartitions: number;
  /** Deliveries after which a bus message that still fails is dead-lettered (consumer-edge.ts). */
  maxDeliveries: number;
  /** Nice value of the process's threads besides the event loop's (0: left as they are). */
  helperThreadNiceness: number;
  /** Free space kept on the data directory: under it ingestion pauses (disk-watch.ts). */
  minFreeDisk: DiskAmount[];
  /** Days the analytics tables keep their rows (adapters/analytics/retention.ts). */
  retention: { eventsDays: number; problemsDays: number; deadLettersDays: number };
  /**
   * The console's sessions (services/api/sessions.ts): kept beside the journal, in the
   * same engine, so every API replica sees each one; how long one lasts unused and at most; when
   * the cookie is marked Secure (`auto`: when the request came over HTTPS, as X-Forwarded-Proto says).
   */
  sessions: {
    store: { kind: 'lmdb'; path: string } | { kind: 'redis'; url: string; keyPrefix: string };
    idleMs: number;
    maxMs: number;
    cookieSecure: 'auto' | 'always' | 'never';
  };
  /**
   * Networks outbound notification requests may reach although a rule of
   * outbound/address-policy.ts refuses them (loopback, private, link-local…); none by default.
   */
  notifyAllowNetworks: AllowedNetwork[];
  /** Threads the notification dispatcher formats and sends on (0: its main thread). */
  notifySendThreads: number;
  /** Where users reach the console, for the links notifications carry (ends with `/`). */
  consoleUrl: string;
}

/** A start-up configuration error: one line naming the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const integerVariables = new Set<string>([
  'OPS_PORT',
  'OPS_MAX_BODY_BYTES',
  'OPS_SHUTDOWN_TIMEOUT_MS',
  'OPS_BATCH_MAX_RECORDS',
  'OPS_BATCH_MAX_BYTES',
  'OPS_BATCH_MAX_WAIT_MS',
  'OPS_INGRESS_MAX_PENDING_BATCHES',
  'OPS_PUBLISH_TIMEOUT_MS',
  'OPS_SLA_THREADS',
  'OPS_NOTIFY_SEND_THREADS',
  'OPS_PROBLEM_PARTITIONS',
  'OPS_MAX_DELIVERIES',
  'OPS_HELPER_THREAD_NICENESS',
  'OPS_EVENTS_RETENTION_DAYS',
  'OPS_PROBLEMS_RETENTION_DAYS',
  'OPS_DEAD_LETTERS_RETENTION_DAYS',
  'OPS_SESSION_IDLE_MINUTES',
  'OPS_SESSION_MAX_HOURS',
]);
const checkEnv = Compile(EnvSchema);

/** Parses the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(envExpectations)) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    raw[name] = integerVariables.has(name) && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  }
  if (!checkEnv.Check(raw)) {
    const first = checkEnv.Errors(raw)[0];
    const name = (first?.instancePath ?? '').replace(/^\//, '').split('/')[0] as keyof Env;
    const shown = name && name !== 'CLICKHOUSE_PASSWORD' && name !== 'OPS_ADMIN_TOKEN' ? ` (got "${String(source[name])}")` : '';
    throw new ConfigError(`${name || 'environment'} must be ${envExpectations[name] ?? 'valid'}${shown}`);
  }
  const env = raw as Env;
  const dataDir = resolve(env.OPS_DATA_DIR ?? './data');
  return {
    port: env.OPS_PORT ?? 8080,
    host: env.OPS_HOST ?? '0.0.0.0',
    dataDir,
    adminToken: env.OPS_ADMIN_TOKEN,
    maxBodyBytes: env.OPS_MAX_BODY_BYTES ?? 16 * 1024 * 1024,
    shutdownTimeoutMs: env.OPS_SHUTDOWN_TIMEOUT_MS ?? 10_000,
    logLevel: env.LOG_LEVEL ?? 'info',
    batching: {
      maxRecords: env.OPS_BATCH_MAX_RECORDS ?? 5000,
      maxBytes: env.OPS_BATCH_MAX_BYTES ?? 4 * 1024 * 1024,
      maxWaitMs: env.OPS_BATCH_MAX_WAIT_MS ?? 0,
      maxPendingBatches: env.OPS_INGRESS_MAX_PENDING_BATCHES ?? 256,
      publishTimeoutMs: env.OPS_PUBLISH_TIMEOUT_MS ?? 10_000,
    },
    slaThreads: env.OPS_SLA_THREADS ?? availableParallelism(),
    analytics: env.CLICKHOUSE_URL
      ? {
          kind: 'clickhouse',
          url: env.CLICKHOUSE_URL,
          username: env.CLICKHOUSE_USER ?? 'default',
          password: env.CLICKHOUSE_PASSWORD ?? '',
          database: env.CLICKHOUSE_DATABASE ?? 'ops',
        }
      : { kind: 'chdb', dataDir: resolve(dataDir, 'clickhouse') },
    bus: env.NATS_URL ? { kind: 'jetstream', url: env.NATS_URL } : { kind: 'memory', logPath: resolve(dataDir, 'bus') },
    journal: env.REDIS_URL ? { kind: 'redis', url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX ?? 'ops:' } : { kind: 'lmdb', path: resolve(dataDir, 'control') },
    keyedStore: env.REDIS_URL ? { kind: 'redis', url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX ?? 'ops:' } : { kind: 'lmdb', path: resolve(dataDir, 'problems') },
    problemPartitions: env.OPS_PROBLEM_PARTITIONS ?? 16,
    maxDeliveries: env.OPS_MAX_DELIVERIES ?? 5,
    helperThreadNiceness: env.OPS_HELPER_THREAD_NICENESS ?? 10,
    minFreeDisk: minFreeDisk(env.OPS_MIN_FREE_DISK),
    retention: {
      eventsDays: env.OPS_EVENTS_RETENTION_DAYS ?? 30,
      problemsDays: env.OPS_PROBLEMS_RETENTION_DAYS ?? 400,
      deadLettersDays: env.OPS_DEAD_LETTERS_RETENTION_DAYS ?? 7,
    },
    sessions: {
      store: env.REDIS_URL ? { kind: 'redis', url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX ?? 'ops:' } : { kind: 'lmdb', path: resolve(dataDir, 'sessions') },
      idleMs: (env.OPS_SESSION_IDLE_MINUTES ?? 30) * 60_000,
      maxMs: (env.OPS_SESSION_MAX_HOURS ?? 12) * 3_600_000,
      cookieSecure: env.OPS_COOKIE_SECURE ?? 'auto',
    },
    notifyAllowNetworks: allowNetworks(env.OPS_NOTIFY_ALLOW_NETWORKS),
    notifySendThreads: env.OPS_NOTIFY_SEND_THREADS ?? 1,
    consoleUrl: (env.OPS_CONSOLE_URL ?? `http://localhost:${env.OPS_PORT ?? 8080}/`).replace(/\/*$/, '/'),
  };
}

/** OPS_NOTIFY_ALLOW_NETWORKS, by default none. */
function allowNetworks(text: string | undefined): AllowedNetwork[] {
  if (text === undefined) return [];
  try {
    return parseAllowNetworks(text);
  } catch (error) {
    throw new ConfigError(`OPS_NOTIFY_ALLOW_NETWORKS must be ${envExpectations.OPS_NOTIFY_ALLOW_NETWORKS} (got "${text}": ${(error as Error).message})`);
  }
}

/** OPS_MIN_FREE_DISK, by default the larger of 5 % and 1 GiB. */
function minFreeDisk(text: string | undefined): DiskAmount[] {
  if (text === undefined) return [{ percent: 5 }, { bytes: 1024 ** 3 }];
  try {
    return parseDiskAmounts(text);
  } catch (error) {
    throw new ConfigError(`OPS_MIN_FREE_DISK must be ${envExpectations.OPS_MIN_FREE_DISK} (got "${text}": ${(error as Error).message})`);
  }
}

/** True when every engine is a server: the mode in which services may run as separate processes. */
export function isDistributed(config: Config): boolean {
  return config.analytics.kind === 'clickhouse' && config.bus.kind === 'jetstream' && config.journal.kind === 'redis';
}

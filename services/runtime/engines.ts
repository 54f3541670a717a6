/** Opens the three engines the configuration names (DESIGN §2); the code above them is the same. */

import type { AnalyticsStore } from './adapters/analytics/analytics.port.js';
import { createChdbStore } from './adapters/analytics/chdb.adapter.js';
import { createClickHouseStore } from './adapters/analytics/clickhouse.adapter.js';
import type { Bus } from './adapters/bus/bus.port.js';
import { createJetStreamBus } from './adapters/bus/jetstream.adapter.js';
import { createMemoryBus } from './adapters/bus/memory.adapter.js';
import type { Journal } from './adapters/journal/journal.port.js';
import { openLmdbJournal } from './adapters/journal/lmdb.adapter.js';
import { openRedisJournal } from './adapters/journal/redis.adapter.js';
import type { KeyedStore } from './adapters/keyed/keyed-store.port.js';
import { openLmdbKeyedStore } from './adapters/keyed/lmdb.adapter.js';
import { openRedisKeyedStore } from './adapters/keyed/redis.adapter.js';
import { openLmdbSessionStore } from './adapters/sessions/lmdb.adapter.js';
import { openRedisSessionStore } from './adapters/sessions/redis.adapter.js';
import type { SessionStore } from './adapters/sessions/session-store.port.js';
import { type GuardDeps, guardAnalytics, guardBus, guardJournal, guardKeyedStore, guardSessionStore } from './adapters/storage-guard.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { EngineName } from './storage-health.js';

export interface Engines {
  analytics: AnalyticsStore;
  bus: Bus;
  journal: Journal;
  keyed: KeyedStore;
}

export async function openEngines(config: Config, deps: { logger: Logger }): Promise<Engines> {
  const logger = deps.logger;
  const a = config.analytics;
  const analytics =
    a.kind === 'chdb'
      ? await createChdbStore({ dataDir: a.dataDir }, { logger })
      : await createClickHouseStore({ url: a.url, username: a.username, password: a.password, database: a.database }, { logger });
  try {
    const b = config.bus;
    const bus = b.kind === 'memory' ? createMemoryBus({ logger }, { logPath: b.logPath }) : await createJetStreamBus({ url: b.url, name: `ops-${process.pid}` }, { logger });
    try {
      const j = config.journal;
      const journal = j.kind === 'lmdb' ? await openLmdbJournal({ path: j.path }, { logger }) : await openRedisJournal({ url: j.url, keyPrefix: j.keyPrefix }, { logger });
      try {
        const k = config.keyedStore;
        const keyed = k.kind === 'lmdb' ? await openLmdbKeyedStore({ path: k.path }, { logger }) : await openRedisKeyedStore({ url: k.url, keyPrefix: k.keyPrefix }, { logger });
        return { analytics, bus, journal, keyed };
      } catch (error) {
        await journal.close();
        throw error;
      }
    } catch (error) {
      await bus.close();
      throw error;
    }
  } catch (error) {
    await analytics.close();
    throw error;
  }
}

/**
 * The console's session store, behind its storage guard: opened by the API part alone (no other
 * part reads sessions), in the engine of the journal (Redis, or LMDB under `<data>/sessions`).
 */
export async function openSessionStore(config: Config, deps: { logger: Logger; now: () => number }): Promise<SessionStore> {
  const s = config.sessions.store;
  const store = s.kind === 'lmdb' ? await openLmdbSessionStore({ path: s.path }, deps) : await openRedisSessionStore({ url: s.url, keyPrefix: s.keyPrefix }, deps);
  return guardSessionStore(store, s.kind === 'lmdb' ? s.path : undefined);
}

/** The engines whose files are in the data directory (the embedded ones), by their /readyz names. */
export function localEngines(config: Config): Set<EngineName> {
  const local = new Set<EngineName>();
  if (config.analytics.kind === 'chdb') local.add('analytics');
  if (config.bus.kind === 'memory') local.add('bus');
  if (config.journal.kind === 'lmdb') local.add('journal');
  if (config.keyedStore.kind === 'lmdb') local.add('problemState');
  return local;
}

/**
 * The engines behind their storage guards (issue #34): a full store answers `storage.full` and
 * every write's outcome is noted for /readyz. Close the engines themselves, not these.
 */
export function guardEngines(engines: Engines, config: Config, deps: GuardDeps): Engines {
  return {
    analytics: guardAnalytics(engines.analytics, deps),
    bus: guardBus(engines.bus, deps),
    journal: guardJournal(engines.journal, config.journal.kind === 'lmdb' ? { ...deps, dir: config.journal.path } : deps),
    keyed: guardKeyedStore(engines.keyed, config.keyedStore.kind === 'lmdb' ? { ...deps, dir: config.keyedStore.path } : deps),
  };
}

/** Where the data lives, for the start-up log line (never with credentials). */
export function describeEngines(config: Config): Record<string, string> {
  const strip = (url: string): string => url.replace(/\/\/[^@/]*@/, '//');
  return {
    analytics: config.analytics.kind === 'chdb' ? `chDB at ${config.analytics.dataDir}` : `ClickHouse at ${strip(config.analytics.url)} database ${config.analytics.database}`,
    bus: config.bus.kind === 'memory' ? `in-process bus, its log at ${config.bus.logPath}` : `NATS JetStream at ${strip(config.bus.url)}`,
    journal: config.journal.kind === 'lmdb' ? `LMDB at ${config.journal.path}` : `Redis at ${strip(config.journal.url)} prefix ${config.journal.keyPrefix}`,
    problemState: config.keyedStore.kind === 'lmdb' ? `LMDB at ${config.keyedStore.path}` : `Redis at ${strip(config.keyedStore.url)} prefix ${config.keyedStore.keyPrefix}`,
  };
}

/**
 * Storage guards (issue #34): decorators around the engines' write methods that turn a full store
 * into the one error the HTTP edge and the consumers know, 503 `storage.full` with Retry-After
 * (storage-full.ts tells it from the rest), and note every write's outcome for /readyz
 * (storage-health.ts). The adapters stay as they are; what is not a full store passes unchanged.
 *
 * The control-plane journal in the data directory also refuses every change while free space is
 * under the reserve (disk-watch.ts), before trying: the space left is for the records already
 * acknowledged. Its `append` (the problem stage's summaries, part of that drain) is not refused.
 */
import type { DiskWatch } from '../disk-watch.js';
import { formatBytes } from '../disk-amount.js';
import type { EngineName, StorageHealth } from '../storage-health.js';
import { lmdbCommitError, storageFull, storageFullReason } from '../storage-full.js';
import type { AnalyticsStore, QueryParams } from './analytics/analytics.port.js';
import { type Bus, BusUnavailableError } from './bus/bus.port.js';
import type { Journal } from './journal/journal.port.js';
import type { KeyedStore } from './keyed/keyed-store.port.js';
import type { SessionStore } from './sessions/session-store.port.js';

export interface GuardDeps {
  health: StorageHealth;
  disk: DiskWatch | undefined;
}

/** `target` with `overrides` in place of some of its members; the rest are its own, bound to it. */
function decorate<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof T];
      const value: unknown = Reflect.get(t, key, t);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
}

/**
 * Runs one write of `engine`: notes a success, and turns a full store into `storage.full`.
 * `dir`: the engine's LMDB directory, for the rule on EIO (storage-full.ts).
 */
async function write<R>(engine: EngineName, deps: GuardDeps, dir: string | undefined, run: () => Promise<R>): Promise<R> {
  let result: R;
  try {
    result = await run();
  } catch (error) {
    const cause = await lmdbCommitError(error);
    const reason = storageFullReason(cause, dir);
    if (reason === undefined) throw error;
    deps.health.noteFull(engine, reason);
    throw storageFull(engine, reason, cause);
  }
  deps.health.noteWritten(engine);
  return result;
}

/**
 * Turns a full store met by a statement or a query (a sort spilling to disk, an INSERT … SELECT)
 * into `storage.full`; a success says nothing of the space, so only a failure is noted.
 */
async function statement<R>(engine: EngineName, deps: GuardDeps, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    const reason = storageFullReason(error);
    if (reason === undefined) throw error;
    deps.health.noteFull(engine, reason);
    throw storageFull(engine, reason, error);
  }
}

export function guardJournal(journal: Journal, deps: GuardDeps & { dir?: string }): Journal {
  return decorate(journal, {
    commit(expectedRevision, changes) {
      const disk = deps.disk;
      if (deps.dir !== undefined && disk?.belowReserve()) {
        const reason = `${formatBytes(disk.space()?.free ?? 0)} free in the data directory, under the reserve of ${formatBytes(disk.reserve())}`;
        deps.health.noteFull('journal', reason);
        return Promise.reject(storageFull('journal', reason));
      }
      return write('journal', deps, deps.dir, () => journal.commit(expectedRevision, changes));
    },
    append: (changes) => write('journal', deps, deps.dir, () => journal.append(changes)),
  });
}

export function guardKeyedStore(store: KeyedStore, deps: GuardDeps & { dir?: string }): KeyedStore {
  return decorate(store, {
    put: (writes) => write('problemState', deps, deps.dir, () => store.put(writes)),
  });
}

/**
 * The console's session store: a full store answers `storage.full` (a sign-in then gets 503, not
 * 500). Not among the engines /readyz names: it lives beside the journal, in the same engine.
 * `dir`: its LMDB directory.
 */
export function guardSessionStore(store: SessionStore, dir: string | undefined): SessionStore {
  const guarded = async <R>(run: () => Promise<R>): Promise<R> => {
    try {
      return await run();
    } catch (error) {
      const cause = await lmdbCommitError(error);
      const reason = storageFullReason(cause, dir);
      if (reason === undefined) throw error;
      throw storageFull('sessions', reason, cause);
    }
  };
  return decorate(store, {
    create: (id, session) => guarded(() => store.create(id, session)),
    touch: (id, lastSeenAt, idleExpiresAt) => guarded(() => store.touch(id, lastSeenAt, idleExpiresAt)),
    delete: (id) => guarded(() => store.delete(id)),
    sweep: () => guarded(() => store.sweep()),
  });
}

export function guardAnalytics(store: AnalyticsStore, deps: GuardDeps): AnalyticsStore {
  return decorate(store, {
    insert: (table, rows, options) => write('analytics', deps, undefined, () => store.insert(table, rows, options)),
    command: (sql, params) => statement('analytics', deps, () => store.command(sql, params)),
    query: <T>(sql: string, params?: QueryParams) => statement('analytics', deps, () => store.query<T>(sql, params)),
  });
}

/**
 * The bus's own log (in-process: memory-log.ts raises `storage.full` itself, as the cause of the
 * BusUnavailableError a publish rejects with; JetStream: its "insufficient resources") is noted
 * here; the error passes unchanged, since the ingress answers a refused publish itself.
 */
export function guardBus(bus: Bus, deps: GuardDeps): Bus {
  const noted = async <R>(run: () => Promise<R>): Promise<R> => {
    try {
      const result = await run();
      deps.health.noteWritten('bus');
      return result;
    } catch (error) {
      const reason = error instanceof BusUnavailableError ? storageFullReason(error) : undefined;
      if (reason !== undefined) deps.health.noteFull('bus', reason);
      throw error;
    }
  };
  return decorate(bus, {
    publish: (subject, data, options) => noted(() => bus.publish(subject, data, options)),
    publishMany: (items, options) => noted(() => bus.publishMany(items, options)),
  });
}

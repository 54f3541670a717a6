/**
 * The embedded session store: one LMDB environment (`<data>/sessions`) with one sub-database,
 * `sessions`, holding each session (msgpack) under its id. `touch` is one write transaction that
 * reads the session and writes it back only when it exists and the use is later than the one it
 * holds. Sessions past being kept are invisible to `get` at once and removed by `sweep`.
 */
import { open } from 'lmdb';
import type { Logger } from '../../logger.js';
import { keptUntil, type SessionStore, type StoredSession } from './session-store.port.js';

export interface LmdbSessionStoreConfig {
  path: string;
}

export async function openLmdbSessionStore(config: LmdbSessionStoreConfig, deps: { logger: Logger; now: () => number }): Promise<SessionStore> {
  const logger = deps.logger.child({ sessionStore: 'lmdb' });
  // As in the keyed store: eventTurnBatching off, so a commit that fails (a full disk) rejects the
  // write awaited here rather than a batch promise nobody awaits.
  const root = open({ path: config.path, maxDbs: 1, eventTurnBatching: false });
  let db: ReturnType<typeof openDb>;
  function openDb() {
    return root.openDB<StoredSession, string>({ name: 'sessions' });
  }
  try {
    db = openDb();
  } catch (error) {
    await root.close();
    throw error;
  }
  logger.info({ path: config.path }, 'lmdb session store opened');

  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new Error('the LMDB session store is closed');
  };
  const live = (session: StoredSession | undefined): StoredSession | undefined => (session !== undefined && keptUntil(session) > deps.now() ? session : undefined);

  return {
    kind: 'lmdb',

    async create(id, session) {
      ensureOpen();
      await db.put(id, session);
    },

    async get(id) {
      ensureOpen();
      // lmdb-js reuses one read snapshot per event turn: a write committed meanwhile needs a fresh one.
      root.resetReadTxn();
      return live(db.get(id));
    },

    async touch(id, lastSeenAt, idleExpiresAt) {
      ensureOpen();
      return root.transaction(() => {
        const session = live(db.get(id));
        if (!session) return false;
        if (session.lastSeenAt < lastSeenAt) db.put(id, { ...session, lastSeenAt, idleExpiresAt }).catch(() => undefined);
        return true;
      });
    },

    async delete(id) {
      ensureOpen();
      // lmdb-js answers true for a key that was not there too: the check is made in the transaction.
      return root.transaction(() => {
        if (!db.doesExist(id)) return false;
        db.remove(id).catch(() => undefined);
        return true;
      });
    },

    async sweep() {
      ensureOpen();
      const now = deps.now();
      return root.transaction(() => {
        let removed = 0;
        for (const { key, value } of db.getRange()) {
          if (keptUntil(value) > now) continue;
          // The transaction's own promise carries a failed commit (see the keyed store).
          db.remove(key).catch(() => undefined);
          removed += 1;
        }
        return removed;
      });
    },

    async ping() {
      ensureOpen();
      db.doesExist('ping');
    },

    async close() {
      if (closed) return;
      closed = true;
      await root.close();
    },
  };
}

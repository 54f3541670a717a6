/**
 * The embedded keyed store (DESIGN §7a): one LMDB environment on disk with one sub-database,
 * `entries`, holding each value (msgpack) under its key with LMDB's own entry version, so a
 * version can be checked without decoding the value. A put is one write transaction that checks
 * every key's version before writing any, so a batch is all-or-nothing; it resolves once the
 * transaction is committed and flushed to disk, which LMDB does off the main thread. A get reads
 * every key from one snapshot.
 *
 * Several processes (or several handles in one process) may open the same path: LMDB serialises
 * writers with its own lock, so two owners racing on one key meet a conflict, not a lost write.
 * A key is at most 1 978 bytes in UTF-8 (LMDB's limit); a longer one fails the whole put.
 */
import { open } from 'lmdb';
import type { Logger } from '../../logger.js';
import { checkKeyedWrites, type KeyedPutResult, type KeyedRecord, type KeyedStore, type KeyedWrite } from './keyed-store.port.js';

export interface LmdbKeyedStoreConfig {
  path: string;
}

export async function openLmdbKeyedStore(config: LmdbKeyedStoreConfig, deps: { logger: Logger }): Promise<KeyedStore> {
  const logger = deps.logger.child({ keyedStore: 'lmdb' });

  // As in the journal: each handle gets its own `open()`; lmdb-js shares the native environment
  // between handles on one path and counts references, so closing one leaves the others working.
  // eventTurnBatching off: with it, lmdb-js opens each turn's batch with a promise of its own that
  // nobody awaits, and a commit that fails (a full disk) rejects it: an unhandled rejection that
  // ends the process (issue #34). Puts are one transaction each anyway; measured, 2 000 of them
  // take as long either way.
  const root = open({ path: config.path, maxDbs: 2, eventTurnBatching: false });
  let db: ReturnType<typeof openDb>;
  function openDb() {
    return root.openDB<unknown, string>({ name: 'entries', useVersions: true });
  }
  try {
    db = openDb();
  } catch (error) {
    await root.close();
    throw error;
  }
  logger.info({ path: config.path }, 'lmdb keyed store opened');

  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new Error('the LMDB keyed store is closed');
  };
  /** The stored version of `key` is `version` (0: there is no record). */
  const hasVersion = (key: string, version: number): boolean => (version === 0 ? !db.doesExist(key) : db.doesExist(key, version));

  return {
    kind: 'lmdb',

    async get<V = unknown>(keys: readonly string[], known?: ReadonlyMap<string, KeyedRecord<V>>): Promise<Map<string, KeyedRecord<V>>> {
      ensureOpen();
      const found = new Map<string, KeyedRecord<V>>();
      if (keys.length === 0) return found;
      // lmdb-js reuses one read snapshot per event turn; another handle's write in this turn
      // would stay invisible without a fresh one.
      root.resetReadTxn();
      const txn = root.useReadTransaction();
      try {
        for (const key of keys) {
          const cached = known?.get(key);
          if (cached && hasVersion(key, cached.version)) {
            found.set(key, cached);
            continue;
          }
          const entry = db.getEntry(key, { transaction: txn });
          if (entry !== undefined) found.set(key, { version: entry.version ?? 0, value: entry.value as V });
        }
      } finally {
        txn.done();
      }
      return found;
    },

    async put<V = unknown>(writes: readonly KeyedWrite<V>[]): Promise<KeyedPutResult> {
      ensureOpen();
      checkKeyedWrites(writes);
      if (writes.length === 0) return { ok: true };
      // The callback runs inside the write transaction (checks and writes see one state); the
      // commit and its flush to disk happen on LMDB's writer thread.
      return root.transaction((): KeyedPutResult => {
        const conflicts = writes.filter(({ key, expected }) => !hasVersion(key, expected)).map((w) => w.key);
        if (conflicts.length > 0) return { ok: false, conflicts };
        // Each put's own promise rejects too when the commit fails; the transaction's rejection
        // carries the failure, so these are caught, or they would end the process (issue #34).
        for (const { key, expected, value } of writes) db.put(key, value, expected + 1).catch(() => undefined);
        return { ok: true };
      });
    },

    async ping(): Promise<void> {
      ensureOpen();
      db.doesExist('ping');
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await root.close();
    },
  };
}

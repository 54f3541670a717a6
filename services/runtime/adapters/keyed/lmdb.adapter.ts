/**
 * The embedded keyed store (DESIGN §7a): one LMDB environment on disk with one sub-database,
 * `keyed` (key → `{ version, value }` as JSON). A put is one synchronous write transaction that
 * checks every key's version before writing any, so a batch is all-or-nothing and durable when
 * the promise resolves; a get reads every key from one snapshot.
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
  const root = open({ path: config.path, maxDbs: 2 });
  let db: ReturnType<typeof openDb>;
  function openDb() {
    return root.openDB<KeyedRecord, string>({ name: 'keyed', encoding: 'json' });
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

  return {
    kind: 'lmdb',

    async get<V = unknown>(keys: readonly string[]): Promise<Map<string, KeyedRecord<V>>> {
      ensureOpen();
      const found = new Map<string, KeyedRecord<V>>();
      if (keys.length === 0) return found;
      // lmdb-js reuses one read snapshot per event turn; another handle's write in this turn
      // would stay invisible without a fresh one.
      root.resetReadTxn();
      const txn = root.useReadTransaction();
      try {
        for (const key of keys) {
          const record = db.get(key, { transaction: txn }) as KeyedRecord<V> | undefined;
          if (record !== undefined) found.set(key, { version: record.version, value: record.value });
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
      return root.transactionSync((): KeyedPutResult => {
        const conflicts = writes.filter(({ key, expected }) => (db.get(key)?.version ?? 0) !== expected).map((w) => w.key);
        if (conflicts.length > 0) return { ok: false, conflicts };
        for (const { key, expected, value } of writes) db.putSync(key, { version: expected + 1, value });
        return { ok: true };
      });
    },

    async ping(): Promise<void> {
      ensureOpen();
      db.get('ping');
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await root.close();
    },
  };
}

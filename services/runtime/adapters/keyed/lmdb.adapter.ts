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
import type { KeyedPutResult, KeyedRecord, KeyedStore, KeyedWrite } from './keyed-store.port.js';

export interface LmdbKeyedStoreConfig {
  path: string;
}

/**
 * Refuses what no store could honour the same way: a key named twice in one batch (which write
 * would win?), an expected version that is not a whole number ≥ 0, or a value JSON cannot hold.
 * The Redis adapter has the same check (kept apart so neither mode loads the other's client).
 */
function checkKeyedWrites(writes: readonly KeyedWrite[]): void {
  const seen = new Set<string>();
  for (const { key, expected, value } of writes) {
    if (seen.has(key)) throw new TypeError(`keyed store: the key ${JSON.stringify(key)} is written twice in one batch`);
    seen.add(key);
    if (!Number.isSafeInteger(expected) || expected < 0) throw new TypeError(`keyed store: expected version ${expected} of ${JSON.stringify(key)} is not a whole number ≥ 0`);
    if (value === undefined) throw new TypeError(`keyed store: the value of ${JSON.stringify(key)} is undefined`);
  }
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

/**
 * The on-disk log of the in-process bus (DESIGN §2): the messages of its `logged` streams, kept
 * in one LMDB environment under the data directory from publish until they are acked, so a
 * restart delivers again what was published and not yet processed. One sub-database, keyed by
 * [stream, seq]; the message body is stored as bytes with its subject, message id and store time.
 * A message is written before publish returns, in a transaction of its own, without fsync: the
 * log survives the process (a crash, a kill), not the machine, as chDB's own inserts do. Waiting
 * for LMDB's writer thread instead held every publish for a turn of a busy event loop (the
 * problems bench: 0.39 of plain, against 0.44 written at once). Removals go together, every
 * REMOVALS_EVERY_MS (a transaction each turn: 730 of 17 875 ms of the main thread in a profiled
 * notifications bench run).
 *
 * Space (issue #34). LMDB reuses the pages of removed messages, so the file grows to the largest
 * backlog it held (measured: 100 MiB of messages written and acked five times over left a file of
 * 134 MiB, not 500), bounded by the logged streams' bounds (bus-streams.ts); but a file never
 * shrinks while open. So at close the log gives its space back: an empty log's files are removed,
 * and a log larger than COMPACT_FROM_BYTES still holding messages is rewritten compacted. A write
 * that finds the disk full throws `storage.full` (storage-full.ts); a removal that fails is
 * retried, since a removal lost to a restart would bring an acked message back as a redelivery.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { storageFull, storageFullReason } from '../../storage-full.js';

export interface LoggedMessage {
  readonly seq: number;
  readonly subject: string;
  readonly data: Uint8Array;
  readonly msgId: string | undefined;
  readonly storedAt: number;
}

export interface MemoryBusLog {
  /** Writes the message to the log before it returns (throws when it cannot). */
  append(stream: string, message: LoggedMessage): void;
  /** Several messages, in one transaction: all are written, or none and it throws. */
  appendMany(stream: string, messages: readonly LoggedMessage[]): void;
  /** The message is settled: it need not survive a restart (written with others, within REMOVALS_EVERY_MS). */
  remove(stream: string, seq: number): void;
  /** Writes the removals waiting now, at once. */
  flushRemovals(): void;
  /** The stream's messages still logged, by seq. */
  restore(stream: string): LoggedMessage[];
  close(): Promise<void>;
}

interface Stored {
  subject: string;
  msgId: string | null;
  storedAt: number;
  data: Uint8Array;
}

/** A log file at least this large, still holding messages at close, is rewritten compacted. */
export const COMPACT_FROM_BYTES = 64 * 1024 * 1024;
/** Removals are written together this often: a crash forgets at most this long's acks. */
const REMOVALS_EVERY_MS = 25;
/** A failed removal is tried again after this long. */
const REMOVAL_RETRY_MS = 1000;

const DATA_FILE = 'data.mdb';
const LOCK_FILE = 'lock.mdb';
/** Where the compacted copy is made (LMDB copies an environment into a directory of its own). */
const COMPACTED_DIR = 'compacted';

export function openMemoryBusLog(path: string, onError: (error: unknown) => void): MemoryBusLog {
  // A compaction cut short by a crash leaves its copy behind; the log itself is whole.
  rmSync(join(path, COMPACTED_DIR), { recursive: true, force: true });
  const root = open({ path, maxDbs: 1, noSync: true });
  const db = root.openDB<Stored, [string, number]>({ name: 'messages' });
  // Nobody waits for a removal: one lost in a crash only brings an acked message back once, as a
  // redelivery, which every consumer of the bus tolerates. So they go together.
  let removals: Array<[string, number]> = [];
  let retryTimer: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let failing = false;
  const flushRemovals = (): void => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const keys = removals;
    removals = [];
    if (keys.length === 0) return;
    try {
      db.transactionSync(() => {
        for (const key of keys) db.removeSync(key);
      });
      failing = false;
    } catch (error) {
      // Kept for another try (a full disk: copy-on-write needs pages too); said once per streak.
      removals = keys.concat(removals);
      if (!failing) onError(error);
      failing = true;
      retryTimer ??= setTimeout(() => {
        retryTimer = undefined;
        if (removals.length > 0) flushRemovals();
      }, REMOVAL_RETRY_MS).unref();
    }
  };
  const stored = (m: LoggedMessage): Stored => ({ subject: m.subject, msgId: m.msgId ?? null, storedAt: m.storedAt, data: m.data });
  const writing = (write: () => void): void => {
    try {
      write();
    } catch (error) {
      const reason = storageFullReason(error, path);
      throw reason === undefined ? error : storageFull('bus', reason, error);
    }
  };
  return {
    append(stream, m) {
      writing(() => db.putSync([stream, m.seq], stored(m)));
    },
    appendMany(stream, messages) {
      writing(() =>
        db.transactionSync(() => {
          for (const m of messages) db.putSync([stream, m.seq], stored(m));
        }),
      );
    },
    remove(stream, seq) {
      removals.push([stream, seq]);
      if (!failing) flushTimer ??= setTimeout(flushRemovals, REMOVALS_EVERY_MS).unref();
    },
    flushRemovals,
    restore(stream) {
      const messages: LoggedMessage[] = [];
      for (const { key, value } of db.getRange({ start: [stream, 0], end: [stream, Number.MAX_SAFE_INTEGER] })) {
        messages.push({ seq: key[1], subject: value.subject, msgId: value.msgId ?? undefined, storedAt: value.storedAt, data: new Uint8Array(value.data) });
      }
      return messages;
    },
    async close() {
      clearTimeout(retryTimer);
      if (removals.length > 0) flushRemovals();
      const empty = removals.length === 0 && db.getKeysCount() === 0;
      const size = fileSize(join(path, DATA_FILE));
      let compacted = false;
      if (!empty && size >= COMPACT_FROM_BYTES) {
        try {
          rmSync(join(path, COMPACTED_DIR), { recursive: true, force: true });
          mkdirSync(join(path, COMPACTED_DIR));
          await root.backup(join(path, COMPACTED_DIR), true);
          compacted = true;
        } catch (error) {
          rmSync(join(path, COMPACTED_DIR), { recursive: true, force: true });
          onError(error);
        }
      }
      await root.close();
      // The environment is closed: its files can go (empty) or be replaced by the compacted copy,
      // and the next open starts from them. The lock file only serves open environments.
      if (empty) {
        rmSync(join(path, DATA_FILE), { force: true });
        rmSync(join(path, LOCK_FILE), { force: true });
      } else if (compacted) {
        renameSync(join(path, COMPACTED_DIR, DATA_FILE), join(path, DATA_FILE));
        rmSync(join(path, COMPACTED_DIR), { recursive: true, force: true });
        rmSync(join(path, LOCK_FILE), { force: true });
      }
    },
  };
}

function fileSize(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

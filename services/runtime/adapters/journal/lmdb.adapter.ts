/**
 * The embedded journal (DESIGN §2, §3): one LMDB environment on disk with three sub-databases,
 * `records` (key → JSON value), `log` (revision → changes) and `meta` (the current revision).
 * A commit is one synchronous write transaction, so the revision check, the record writes, the
 * log append and the revision bump are all-or-nothing and durable when the promise resolves.
 *
 * Several processes (or several handles in one process) may open the same path: LMDB serialises
 * writers with its own lock, and readers learn of others' commits by polling the revision.
 */
import { open } from 'lmdb';
import type { Logger } from '../../logger.js';
import type { CommitResult, Journal, JournalChange, JournalEntry, JournalSnapshot } from './journal.port.js';
import { DEFAULT_KEEP_ENTRIES, JournalTrimmedError, normaliseChanges } from './journal-common.js';

export interface LmdbJournalConfig {
  path: string;
  /** Log entries kept for tails and catch-ups (default 100 000). */
  keepEntries?: number;
  /** How often commits by other handles are looked for, in ms (default 50). */
  pollMs?: number;
}

interface Subscriber {
  /** The last revision delivered to `onEntry`. */
  at: number;
  onEntry: (entry: JournalEntry) => void;
}

const REVISION = 'revision';

export async function openLmdbJournal(config: LmdbJournalConfig, deps: { logger: Logger }): Promise<Journal> {
  const keep = Math.max(1, config.keepEntries ?? DEFAULT_KEEP_ENTRIES);
  const pollMs = config.pollMs ?? 50;
  const logger = deps.logger.child({ journal: 'lmdb' });

  // lmdb-js shares the native environment between handles on one path in one process and
  // counts references, so each handle gets its own `open()` and closing one leaves the others
  // working (covered by the contract suite's second handle).
  const root = open({ path: config.path, maxDbs: 4 });
  const openDbs = () => ({
    recordsDb: root.openDB<unknown, string>({ name: 'records', encoding: 'json' }),
    logDb: root.openDB<JournalChange[], number>({ name: 'log', encoding: 'json' }),
    metaDb: root.openDB<number, string>({ name: 'meta', encoding: 'json' }),
  });
  let dbs: ReturnType<typeof openDbs>;
  try {
    dbs = openDbs();
  } catch (error) {
    await root.close();
    throw error;
  }
  const { recordsDb, logDb, metaDb } = dbs;
  logger.info({ path: config.path }, 'lmdb journal opened');

  let closed = false;
  const subscribers = new Set<Subscriber>();
  let timer: NodeJS.Timeout | undefined;
  let pumping = false;
  let pumpAgain = false;

  type Txn = ReturnType<typeof root.useReadTransaction>;
  const ensureOpen = (): void => {
    if (closed) throw new Error('the LMDB journal is closed');
  };

  /** Runs `read` on one snapshot, so everything it returns belongs to one revision. */
  function inSnapshot<T>(read: (txn: Txn) => T): T {
    const txn = root.useReadTransaction();
    try {
      return read(txn);
    } finally {
      txn.done();
    }
  }

  /** The current revision, after checking that every entry after `from` is still kept. */
  function checkKept(from: number, txn: Txn): number {
    const current = metaDb.get(REVISION, { transaction: txn }) ?? 0;
    if (from >= current) return current;
    let oldest: number | undefined;
    for (const key of logDb.getKeys({ limit: 1, transaction: txn })) oldest = key;
    if (oldest === undefined || oldest > from + 1) throw new JournalTrimmedError(from, oldest);
    return current;
  }

  function entriesAfter(from: number, txn: Txn): JournalEntry[] {
    const current = checkKept(from, txn);
    if (from >= current) return [];
    const entries: JournalEntry[] = [];
    for (const { key, value } of logDb.getRange({ start: from + 1, end: current, inclusiveEnd: true, transaction: txn })) {
      entries.push({ revision: key, changes: value });
    }
    return entries;
  }

  /**
   * Delivers to every subscriber what it has not seen yet, in order. Reading from the log (not
   * passing the committed changes along) gives local and foreign commits one path, and a
   * listener that commits from inside `onEntry` only queues another round.
   */
  function pump(): void {
    if (closed) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        // lmdb-js reuses one read snapshot per event turn; another handle's commit in this turn
        // would stay invisible without a fresh one.
        root.resetReadTxn();
        for (const sub of [...subscribers]) {
          let entries: JournalEntry[];
          try {
            entries = inSnapshot((txn) => entriesAfter(sub.at, txn));
          } catch (err) {
            logger.error({ err, at: sub.at }, 'journal tail cannot continue without skipping entries; stopped');
            subscribers.delete(sub);
            continue;
          }
          for (const entry of entries) {
            if (!subscribers.has(sub) || closed) break;
            sub.at = entry.revision;
            try {
              sub.onEntry(entry);
            } catch (err) {
              logger.error({ err, revision: entry.revision }, 'journal listener failed');
            }
          }
        }
      } while (pumpAgain && !closed);
    } finally {
      pumping = false;
    }
    if (subscribers.size === 0) stopPolling();
  }

  function startPolling(): void {
    if (timer || closed) return;
    timer = setInterval(() => {
      try {
        pump();
      } catch (err) {
        logger.error({ err }, 'polling the LMDB journal failed');
      }
    }, pollMs);
    timer.unref();
  }

  function stopPolling(): void {
    if (timer) clearInterval(timer);
    timer = undefined;
  }

  /** One write transaction; `expectedRevision` null appends at whatever revision is next. */
  async function commitAt(expectedRevision: number | null, changes: JournalChange[]): Promise<CommitResult> {
    ensureOpen();
    const stored = normaliseChanges(changes);
    const result = root.transactionSync((): CommitResult => {
      const current = metaDb.get(REVISION) ?? 0;
      if (expectedRevision !== null && current !== expectedRevision) return { ok: false, conflict: true, currentRevision: current };
      const revision = current + 1;
      for (const { key, value } of stored) {
        if (value === null) recordsDb.removeSync(key);
        else recordsDb.putSync(key, value);
      }
      logDb.putSync(revision, stored);
      metaDb.putSync(REVISION, revision);
      // Usually exactly one entry falls out per commit; collected first because removing
      // under a live cursor is not safe in lmdb-js.
      if (revision > keep) {
        const stale = [...logDb.getKeys({ end: revision - keep, inclusiveEnd: true })];
        for (const key of stale) logDb.removeSync(key);
      }
      return { ok: true, revision };
    });
    if (result.ok) pump();
    return result;
  }

  return {
    kind: 'lmdb',

    async load(): Promise<JournalSnapshot> {
      ensureOpen();
      root.resetReadTxn();
      return inSnapshot((txn) => {
        const map = new Map<string, unknown>();
        for (const { key, value } of recordsDb.getRange({ transaction: txn })) map.set(key, value);
        return { revision: metaDb.get(REVISION, { transaction: txn }) ?? 0, records: map };
      });
    },

    commit: (expectedRevision: number, changes: JournalChange[]) => commitAt(expectedRevision, changes),

    async append(changes: JournalChange[]): Promise<{ revision: number }> {
      const result = await commitAt(null, changes);
      if (!result.ok) throw new Error('an unchecked append cannot conflict');
      return result;
    },

    async readSince(revision: number): Promise<JournalEntry[]> {
      ensureOpen();
      root.resetReadTxn();
      return inSnapshot((txn) => entriesAfter(revision, txn));
    },

    tail(revision: number, onEntry: (entry: JournalEntry) => void): () => void {
      ensureOpen();
      // Refuse now rather than from a timer, so the caller learns it must reload.
      root.resetReadTxn();
      inSnapshot((txn) => checkKept(revision, txn));
      const sub: Subscriber = { at: revision, onEntry };
      subscribers.add(sub);
      startPolling();
      // Entries already committed arrive asynchronously, never before tail() returns.
      queueMicrotask(pump);
      return () => {
        subscribers.delete(sub);
        if (subscribers.size === 0) stopPolling();
      };
    },

    async ping(): Promise<void> {
      ensureOpen();
      metaDb.get(REVISION);
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      stopPolling();
      subscribers.clear();
      await root.close();
    },
  };
}

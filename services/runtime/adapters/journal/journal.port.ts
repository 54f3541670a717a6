/**
 * The control-plane journal port (DESIGN §3): LMDB in embedded mode, Redis in distributed mode.
 *
 * The control plane is a set of records (`ci:42`, `user:7`, ...) with one global revision.
 * A commit names the revision it was computed against; it succeeds only when that is still the
 * current revision (otherwise: conflict, the caller catches up and re-validates). Every commit
 * is appended to a log that each process tails, so every in-memory model sees every change in
 * revision order.
 */
export interface JournalChange {
  key: string;
  /** The record's new value; null deletes it. */
  value: unknown;
}

export interface JournalEntry {
  revision: number;
  changes: JournalChange[];
}

export interface JournalSnapshot {
  revision: number;
  records: Map<string, unknown>;
}

export type CommitResult = { ok: true; revision: number } | { ok: false; conflict: true; currentRevision: number };

export interface Journal {
  readonly kind: 'lmdb' | 'redis';
  /** Every record as of one revision. */
  load(): Promise<JournalSnapshot>;
  /** Atomically applies `changes` as revision `expectedRevision + 1`, or reports a conflict. */
  commit(expectedRevision: number, changes: JournalChange[]): Promise<CommitResult>;
  /**
   * Applies `changes` as the next revision, whatever it is: for records with exactly one writer
   * (the keyed problem stage's summaries, each written by its key's owner), which nothing else
   * validates, so there is nothing to re-check and no conflict to retry.
   */
  append(changes: JournalChange[]): Promise<{ revision: number }>;
  /** Entries after `revision`, in order (to catch up after a conflict). */
  readSince(revision: number): Promise<JournalEntry[]>;
  /**
   * Calls `onEntry` for every entry after `revision`, in order, including this process's own
   * commits, until the returned function is called.
   */
  tail(revision: number, onEntry: (entry: JournalEntry) => void): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
}

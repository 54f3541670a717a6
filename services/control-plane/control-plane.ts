/**
 * Wires the in-memory model to the journal (DESIGN §3): loads the snapshot at start, tails the
 * journal so changes from other processes arrive, and runs commands with optimistic
 * concurrency: a command computed on a stale model is re-run on the caught-up model.
 */

import type { Journal, JournalChange, JournalEntry } from '../runtime/adapters/journal/journal.port.js';
import { failLater } from '../../schemas/errors.js';
import type { Logger } from '../runtime/logger.js';
import type { Command, ControlModel } from './model.js';

const MAX_ATTEMPTS = 20;

export interface ControlPlane<M extends ControlModel = ControlModel> {
  readonly model: M;
  execute<R>(command: Command<R, M>): Promise<R>;
  /**
   * Writes records that have exactly one writer, unchecked (Journal.append): the keyed problem
   * stage's summaries. Resolves once this process's model holds them.
   */
  record(changes: JournalChange[]): Promise<void>;
  /** Applies every entry committed so far (tests and read-after-write across processes). */
  catchUp(): Promise<void>;
  stop(): void;
}

export async function startControlPlane<M extends ControlModel>(model: M, deps: { journal: Journal; logger: Logger }): Promise<ControlPlane<M>> {
  const { journal, logger } = deps;
  const snapshot = await journal.load();
  model.load(snapshot.records, snapshot.revision);
  logger.info({ revision: snapshot.revision, records: snapshot.records.size }, 'control plane loaded');

  let catchingUp: Promise<void> | undefined;
  const catchUp = (): Promise<void> =>
    (catchingUp ??= (async () => {
      try {
        for (const entry of await journal.readSince(model.revision)) apply(entry);
      } finally {
        catchingUp = undefined;
      }
    })());

  function apply(entry: JournalEntry): void {
    if (model.applyEntry(entry) === 'gap') {
      logger.warn({ at: model.revision, got: entry.revision }, 'journal gap; catching up');
      void catchUp().catch((err: unknown) => logger.error({ err }, 'catching up the journal failed'));
    }
  }

  const stopTail = journal.tail(model.revision, apply);

  return {
    model,
    async execute<R>(command: Command<R, M>): Promise<R> {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const base = model.revision;
        const outcome = command(model);
        if (outcome.changes.length === 0) return outcome.result(model);
        const committed = await journal.commit(base, outcome.changes);
        if (committed.ok) {
          apply({ revision: committed.revision, changes: outcome.changes });
          return outcome.result(model);
        }
        await catchUp();
      }
      throw failLater('control_plane.busy', 1);
    },
    async record(changes: JournalChange[]): Promise<void> {
      if (changes.length === 0) return;
      const { revision } = await journal.append(changes);
      apply({ revision, changes });
      if (model.revision < revision) await catchUp();
    },
    catchUp,
    stop: stopTail,
  };
}

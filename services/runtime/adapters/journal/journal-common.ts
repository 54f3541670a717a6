/** What both journal adapters share beyond the port. */

/**
 * Raised when a reader asks for entries the journal no longer keeps (the log is bounded). The
 * only safe recovery is to reload the snapshot: replaying what is left would skip changes.
 */
export class JournalTrimmedError extends Error {
  override readonly name = 'JournalTrimmedError';
  readonly code = 'JOURNAL_TRIMMED';
  constructor(
    readonly fromRevision: number,
    readonly oldestKept: number | undefined,
  ) {
    super(
      `journal entries after revision ${fromRevision} are no longer kept` +
        (oldestKept === undefined ? '' : ` (oldest kept: ${oldestKept})`) +
        '; reload the snapshot instead of replaying the log',
    );
  }
}

/** Default number of log entries a journal keeps (DESIGN §3): far more than any reader lags. */
export const DEFAULT_KEEP_ENTRIES = 100_000;

/** Changes as stored: `undefined` is treated like null (delete), as the model does. */
export function normaliseChanges(changes: readonly { key: string; value: unknown }[]): { key: string; value: unknown }[] {
  return changes.map((c) => ({ key: c.key, value: c.value === undefined ? null : c.value }));
}

/**
 * The in-memory control-plane model (DESIGN §3): records keyed `<kind>:<id>`, held by slices
 * (identity, cmdb, streams...) that each own some kinds and keep their own indexes. No I/O:
 * commands read the model and return the records they change; the journal persists them and
 * every process applies them here in revision order.
 */
import type { JournalChange, JournalEntry } from '../runtime/adapters/journal/journal.port.js';

export interface Slice {
  /** Record kinds this slice owns (the part of the key before the first ':'). */
  readonly kinds: readonly string[];
  /** Applies one record: its new value, or null when it was deleted. */
  apply(key: string, kind: string, value: unknown): void;
}

/** What a command yields: the records it changes, and its answer computed on the updated model. */
export interface CommandOutcome<R, M> {
  changes: JournalChange[];
  result: (model: M) => R;
}

export type Command<R, M> = (model: M) => CommandOutcome<R, M>;

/** Monotonic id sequences (`seq:<name>`), so generated ids survive restarts and replicas. */
export class Sequences implements Slice {
  readonly kinds = ['seq'];
  private readonly last = new Map<string, number>();
  apply(key: string, _kind: string, value: unknown): void {
    const name = key.slice(4);
    if (value === null) this.last.delete(name);
    else this.last.set(name, value as number);
  }
  current(name: string): number {
    return this.last.get(name) ?? 0;
  }
  /** The next id after both the sequence and `atLeast` (ids a client chose itself). */
  next(name: string, atLeast = 0): { id: number; change: JournalChange } {
    const id = Math.max(this.current(name), atLeast) + 1;
    return { id, change: { key: `seq:${name}`, value: id } };
  }
  /** Keeps the sequence ahead of an id a client supplied. */
  bump(name: string, used: number): JournalChange | undefined {
    return used > this.current(name) ? { key: `seq:${name}`, value: used } : undefined;
  }
}

export class ControlModel<S extends { [K in keyof S]: Slice } = object> {
  revision = 0;
  readonly sequences = new Sequences();
  private readonly byKind = new Map<string, Slice>();

  constructor(readonly slices: S) {
    const all: Slice[] = [this.sequences, ...(Object.values(slices) as Slice[])];
    for (const slice of all) {
      for (const kind of slice.kinds) {
        if (this.byKind.has(kind)) throw new Error(`two slices claim record kind "${kind}"`);
        this.byKind.set(kind, slice);
      }
    }
  }

  load(records: ReadonlyMap<string, unknown>, revision: number): void {
    for (const [key, value] of records) this.applyChange({ key, value });
    this.revision = revision;
  }

  /**
   * Applies the entry that follows the current revision; an entry already applied is skipped
   * (a process sees its own commits twice: once when it commits, once from the tail).
   */
  applyEntry(entry: JournalEntry): 'applied' | 'skipped' | 'gap' {
    if (entry.revision <= this.revision) return 'skipped';
    if (entry.revision !== this.revision + 1) return 'gap';
    for (const change of entry.changes) this.applyChange(change);
    this.revision = entry.revision;
    return 'applied';
  }

  private applyChange(change: JournalChange): void {
    const colon = change.key.indexOf(':');
    const kind = colon < 0 ? change.key : change.key.slice(0, colon);
    // A kind no slice owns comes from a newer version of the platform: keep going without it.
    this.byKind.get(kind)?.apply(change.key, kind, change.value ?? null);
  }
}

/**
 * The platform's slices by name. Empty here: each slice module adds itself to it
 * (`declare module '../model.js'`, declaration merging), so that a command or a view can name the
 * whole model without importing every slice; slices.ts builds the model.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PlatformSlices {}

/** The control model with every slice of the platform. */
export type PlatformModel = ControlModel<PlatformSlices>;
export type PlatformCommand<R> = Command<R, PlatformModel>;

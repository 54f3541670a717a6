/**
 * What every process knows of problems (DESIGN §7a): per (trigger, CI) key, whether a problem
 * is open, so CI state and health are served from memory on every replica; and the keys waiting
 * to be closed because their CI or trigger was deleted. It changes on open/close transitions,
 * never per hit. A summary older than the one held (a slower owner's, during a takeover) is
 * ignored.
 */
import type { Slice } from '../model.js';
import type { KeySummaryRecord, PendingCloseRecord } from './problems.types.js';

export class ProblemSummarySlice implements Slice {
  readonly kinds = ['popen', 'pclose'];
  readonly summaries = new Map<string, KeySummaryRecord>();
  readonly pendingCloses = new Map<string, PendingCloseRecord>();
  private readonly byCi = new Map<number, Set<string>>();
  private readonly closeListeners = new Set<(close: PendingCloseRecord) => void>();

  apply(key: string, kind: string, value: unknown): void {
    if (kind === 'pclose') {
      this.applyClose(key, value as PendingCloseRecord | null);
      return;
    }
    const before = this.summaries.get(key);
    if (value === null) {
      this.summaries.delete(key);
      if (before) this.byCi.get(before.ciId)?.delete(key);
      return;
    }
    const record = value as KeySummaryRecord;
    if (before && before.version > record.version) return;
    this.summaries.set(key, record);
    let set = this.byCi.get(record.ciId);
    if (!set) this.byCi.set(record.ciId, (set = new Set()));
    set.add(key);
  }

  /** The summaries of a CI's keys, whatever their state. */
  ofCi(ciId: number): KeySummaryRecord[] {
    const out: KeySummaryRecord[] = [];
    for (const key of this.byCi.get(ciId) ?? []) out.push(this.summaries.get(key)!);
    return out;
  }

  /** Hears of every close that arrives (the problem stage hands it to the key's owner). */
  onPendingClose(listener: (close: PendingCloseRecord) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  private applyClose(key: string, value: PendingCloseRecord | null): void {
    if (value === null) {
      this.pendingCloses.delete(key);
      return;
    }
    this.pendingCloses.set(key, value);
    for (const listener of this.closeListeners) listener(value);
  }
}

declare module '../model.js' {
  interface PlatformSlices {
    problems: ProblemSummarySlice;
  }
}

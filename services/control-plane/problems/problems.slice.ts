/**
 * Problem keys in memory (DESIGN §7): every process knows the open problems of every CI (for
 * CI state and health) and, where problem rows are written, which keys changed since the last
 * write. The queue fills from the journal in revision order, so nothing a commit did is missed
 * by a process that was running; a process that starts writing queues every key once.
 */
import { problemsOf } from '../../../pipelines/problems/problem-timeline.js';
import type { Slice } from '../model.js';
import type { ProblemKeyRecord } from './problems.types.js';

export class ProblemsSlice implements Slice {
  readonly kinds = ['pkey'];
  readonly keys = new Map<string, ProblemKeyRecord>();
  private readonly byCi = new Map<number, Set<string>>();
  private projecting = false;
  private readonly unprojected = new Set<string>();

  apply(key: string, _kind: string, value: unknown): void {
    const before = this.keys.get(key);
    if (before) this.byCi.get(before.ciId)?.delete(key);
    if (value === null) {
      this.keys.delete(key);
      return;
    }
    const record = value as ProblemKeyRecord;
    this.keys.set(key, record);
    let set = this.byCi.get(record.ciId);
    if (!set) this.byCi.set(record.ciId, (set = new Set()));
    set.add(key);
    if (this.projecting) this.unprojected.add(key);
  }

  /** The keys of a CI, whatever their state. */
  ofCi(ciId: number): ProblemKeyRecord[] {
    const out: ProblemKeyRecord[] = [];
    for (const key of this.byCi.get(ciId) ?? []) out.push(this.keys.get(key)!);
    return out;
  }

  /** From now on, note the keys that change; every key known now counts as changed. */
  startProjecting(): void {
    this.projecting = true;
    for (const key of this.keys.keys()) this.unprojected.add(key);
  }

  /** The keys changed since the last call, with everything their rows need. */
  takeUnprojected(): ProblemKeyRecord[] {
    const out: ProblemKeyRecord[] = [];
    for (const key of this.unprojected) {
      const record = this.keys.get(key);
      if (record) out.push(record);
    }
    this.unprojected.clear();
    return out;
  }

  /** Puts keys back after their rows could not be written. */
  requeue(records: readonly ProblemKeyRecord[]): void {
    for (const record of records) this.unprojected.add(`pkey:${record.triggerId}:${record.ciId}`);
  }
}

/** Every problem a key's last change may have touched: the folded ones and the window's. */
export const spansToWrite = (record: ProblemKeyRecord) => [...record.folded, ...problemsOf(record, record.triggerId, record.ciId)];

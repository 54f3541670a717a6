/**
 * Problem keys in memory (DESIGN §7): every process knows the open problems of every CI (for
 * CI state and health) and, where problem rows are written, which keys changed since the last
 * write. The queue fills from the journal in revision order, so nothing a commit did is missed
 * by a process that was running; a process that starts writing queues every key once. A key
 * changed several times between two writes (commits of other processes, or of this one while a
 * write runs) carries what each change folded and removed until it is written: the last record
 * alone names only what the last change did.
 */
import { problemsOf, type ProblemSpan } from '../../../pipelines/problems/problem-timeline.js';
import type { Slice } from '../model.js';
import type { ProblemKeyRecord } from './problems.types.js';

export class ProblemsSlice implements Slice {
  readonly kinds = ['pkey'];
  readonly keys = new Map<string, ProblemKeyRecord>();
  private readonly byCi = new Map<number, Set<string>>();
  private projecting = false;
  /** Keys changed since the last write, with the folded and removed problems of each change. */
  private readonly unprojected = new Map<string, Carried>();

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
    if (this.projecting) this.carry(key, record);
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
    for (const key of this.keys.keys()) if (!this.unprojected.has(key)) this.unprojected.set(key, emptyCarried());
  }

  /**
   * The keys changed since the last call, with everything their rows need: the last record, with
   * the problems folded or removed by any change since the last write (a problem removed and
   * then back in the window is not removed).
   */
  takeUnprojected(): ProblemKeyRecord[] {
    const out: ProblemKeyRecord[] = [];
    for (const [key, carried] of this.unprojected) {
      const record = this.keys.get(key);
      if (!record) continue;
      const live = new Set(problemsOf(record, record.triggerId, record.ciId).map((p) => p.id));
      for (const id of carried.folded.keys()) live.add(id);
      out.push({ ...record, folded: [...carried.folded.values()], removedIds: [...carried.removed].filter((id) => !live.has(id)) });
    }
    this.unprojected.clear();
    return out;
  }

  /** Puts keys back after their rows could not be written. */
  requeue(records: readonly ProblemKeyRecord[]): void {
    for (const record of records) this.carry(`pkey:${record.triggerId}:${record.ciId}`, record);
  }

  private carry(key: string, record: ProblemKeyRecord): void {
    let carried = this.unprojected.get(key);
    if (!carried) this.unprojected.set(key, (carried = emptyCarried()));
    for (const span of record.folded) carried.folded.set(span.id, span);
    for (const id of record.removedIds) carried.removed.add(id);
  }
}

interface Carried {
  /** By problem id; a later change's span replaces an earlier one's. */
  folded: Map<string, ProblemSpan>;
  removed: Set<string>;
}
const emptyCarried = (): Carried => ({ folded: new Map(), removed: new Set() });

/** Every problem a key's last change may have touched: the folded ones and the window's. */
export const spansToWrite = (record: ProblemKeyRecord) => [...record.folded, ...problemsOf(record, record.triggerId, record.ciId)];

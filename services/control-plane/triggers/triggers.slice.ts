/**
 * Synthetic triggers in memory (DESIGN §7), indexed by stream so the event pipeline finds the
 * triggers of a record's stream without a scan.
 */
import type { TriggerModel } from '../../../schemas/trigger.schema.js';
import type { Slice } from '../model.js';

export type TriggerRecord = TriggerModel;

const none: readonly TriggerRecord[] = Object.freeze([]);

export class TriggersSlice implements Slice {
  readonly kinds = ['trigger'];
  readonly triggers = new Map<number, TriggerRecord>();
  /** Stream id → its triggers in id order; rebuilt per stream on apply, so reads never sort. */
  private readonly byStream = new Map<number, readonly TriggerRecord[]>();

  apply(key: string, kind: string, value: unknown): void {
    const id = Number(key.slice(kind.length + 1));
    const before = this.triggers.get(id);
    if (value === null) this.triggers.delete(id);
    else this.triggers.set(id, value as TriggerRecord);
    const touched = new Set<number>([...(before?.streamIds ?? []), ...((value as TriggerRecord | null)?.streamIds ?? [])]);
    for (const streamId of touched) this.reindex(streamId, id, value === null ? undefined : (value as TriggerRecord));
  }

  /** The triggers listening to a stream, enabled and disabled (callers filter), in id order. */
  forStream(streamId: number): readonly TriggerRecord[] {
    return this.byStream.get(streamId) ?? none;
  }

  private reindex(streamId: number, id: number, trigger: TriggerRecord | undefined): void {
    const kept = (this.byStream.get(streamId) ?? none).filter((t) => t.id !== id);
    if (trigger?.streamIds.includes(streamId)) {
      const at = kept.findIndex((t) => t.id > id);
      kept.splice(at < 0 ? kept.length : at, 0, trigger);
    }
    if (kept.length === 0) this.byStream.delete(streamId);
    else this.byStream.set(streamId, Object.freeze(kept));
  }
}

declare module '../model.js' {
  interface PlatformSlices {
    triggers: TriggersSlice;
  }
}

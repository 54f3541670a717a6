/**
 * Maintenance modes in memory (`maint:<id>`), indexed by the CIs their scope entries name, so
 * "is this CI under maintenance" costs in proportion to the entries on the CI and its
 * ancestors, not to the number of modes.
 */
import type { Slice } from '../model.js';
import type { MaintenanceRecord, ScopeEntryRecord } from './maintenance.types.js';

/** A scope entry together with the mode holding it (the mode says whether it was canceled). */
export interface EntryRef {
  mode: MaintenanceRecord;
  entry: ScopeEntryRecord;
}

export class MaintenanceSlice implements Slice {
  readonly kinds = ['maint'];
  readonly modes = new Map<number, MaintenanceRecord>();
  private readonly byCi = new Map<number, EntryRef[]>();
  /** Counts the changes applied (see CmdbSlice.changes). */
  changes = 0;

  apply(key: string, kind: string, value: unknown): void {
    this.changes++;
    const id = Number(key.slice(kind.length + 1));
    const before = this.modes.get(id);
    if (before) this.unindex(before);
    if (value === null) this.modes.delete(id);
    else {
      this.modes.set(id, value as MaintenanceRecord);
      this.index(value as MaintenanceRecord);
    }
  }

  /** Scope entries naming this CI directly, from every mode. */
  entriesOn(ciId: number): readonly EntryRef[] {
    return this.byCi.get(ciId) ?? none;
  }

  /** Ids of the modes with an entry naming this CI directly. */
  modeIdsOn(ciId: number): Set<number> {
    return new Set(this.entriesOn(ciId).map((ref) => ref.mode.id));
  }

  private index(mode: MaintenanceRecord): void {
    for (const entry of mode.entries) {
      let refs = this.byCi.get(entry.ciId);
      if (!refs) this.byCi.set(entry.ciId, (refs = []));
      refs.push({ mode, entry });
    }
  }

  private unindex(mode: MaintenanceRecord): void {
    for (const ciId of new Set(mode.entries.map((e) => e.ciId))) {
      const refs = this.byCi.get(ciId);
      if (!refs) continue;
      const kept = refs.filter((ref) => ref.mode.id !== mode.id);
      if (kept.length > 0) this.byCi.set(ciId, kept);
      else this.byCi.delete(ciId);
    }
  }
}

const none: readonly EntryRef[] = [];

declare module '../model.js' {
  interface PlatformSlices {
    maintenance: MaintenanceSlice;
  }
}

/** CIs, CI types and CMDB systems in memory, with the indexes the API and the pipelines need. */
import type { Slice } from '../model.js';
import type { CiRecord, CiTypeIconRecord, CiTypeRecord, CmdbSystemRecord } from './cmdb.types.js';

const nameKey = (typeId: number, name: string): string => `${typeId}\u0000${name}`;
const labelValueKey = (label: string, value: string): string => `${label}\u0000${value}`;
const valuesOf = (value: string | string[] | null): readonly string[] => (value === null ? [] : Array.isArray(value) ? value : [value]);

export class CmdbSlice implements Slice {
  readonly kinds = ['ci', 'citype', 'cmdbsystem', 'citypeicon'];
  readonly cis = new Map<number, CiRecord>();
  readonly types = new Map<number, CiTypeRecord>();
  readonly systems = new Map<number, CmdbSystemRecord>();
  /** Uploaded icons; the built-in ones are data of the code (icons/built-in-icons.ts). */
  readonly icons = new Map<number, CiTypeIconRecord>();
  private readonly childrenOf = new Map<number, Set<number>>();
  private readonly dependentsOf = new Map<number, Set<number>>();
  private readonly byNameAndType = new Map<string, number>();
  private readonly byName = new Map<string, Set<number>>();
  private readonly byLabel = new Map<string, Set<number>>();
  private readonly byLabelValue = new Map<string, Set<number>>();

  /** Counts the changes applied: what is derived from the CMDB knows when to derive it again. */
  changes = 0;

  apply(key: string, kind: string, value: unknown): void {
    this.changes++;
    const id = Number(key.slice(kind.length + 1));
    if (kind === 'citype') {
      if (value === null) this.types.delete(id);
      else this.types.set(id, value as CiTypeRecord);
    } else if (kind === 'citypeicon') {
      if (value === null) this.icons.delete(id);
      else this.icons.set(id, value as CiTypeIconRecord);
    } else if (kind === 'cmdbsystem') {
      if (value === null) this.systems.delete(id);
      else this.systems.set(id, value as CmdbSystemRecord);
    } else {
      const before = this.cis.get(id);
      if (before) this.unindex(before);
      if (value === null) this.cis.delete(id);
      else {
        this.cis.set(id, value as CiRecord);
        this.index(value as CiRecord);
      }
    }
  }

  defaultType(): CiTypeRecord | undefined {
    for (const type of this.types.values()) if (type.isDefault) return type;
    return undefined;
  }

  childrenIds(id: number): ReadonlySet<number> {
    return this.childrenOf.get(id) ?? empty;
  }

  /** CIs influenced by `id` (outgoing Influence edges). */
  dependentIds(id: number): ReadonlySet<number> {
    return this.dependentsOf.get(id) ?? empty;
  }

  idByNameAndType(name: string, typeId: number): number | undefined {
    return this.byNameAndType.get(nameKey(typeId, name));
  }

  idsByName(name: string): ReadonlySet<number> {
    return this.byName.get(name) ?? empty;
  }

  /** CIs that carry the label (with any value). */
  idsWithLabel(label: string): ReadonlySet<number> {
    return this.byLabel.get(label) ?? empty;
  }

  /** CIs whose label has the value (alone, or among its list of values). */
  idsWithLabelValue(label: string, value: string): ReadonlySet<number> {
    return this.byLabelValue.get(labelValueKey(label, value)) ?? empty;
  }

  /** Ancestor ids, nearest first. */
  *ancestors(id: number): Generator<number> {
    let parent = this.cis.get(id)?.parentId ?? null;
    while (parent !== null) {
      yield parent;
      parent = this.cis.get(parent)?.parentId ?? null;
    }
  }

  /** Descendant ids up to `depth` levels (-1: all), breadth first. */
  descendants(id: number, depth = -1): number[] {
    const out: number[] = [];
    let level = [id];
    for (let d = 0; level.length > 0 && (depth < 0 || d < depth); d++) {
      const next: number[] = [];
      for (const current of level) for (const child of this.childrenIds(current)) next.push(child);
      out.push(...next);
      level = next;
    }
    return out;
  }

  private index(ci: CiRecord): void {
    this.byNameAndType.set(nameKey(ci.typeId, ci.name), ci.id);
    addTo(this.byName, ci.name, ci.id);
    for (const [label, value] of Object.entries(ci.labels ?? {})) {
      addTo(this.byLabel, label, ci.id);
      for (const v of valuesOf(value)) addTo(this.byLabelValue, labelValueKey(label, v), ci.id);
    }
    if (ci.parentId !== null) addTo(this.childrenOf, ci.parentId, ci.id);
    for (const influential of ci.influentialIds) addTo(this.dependentsOf, influential, ci.id);
  }

  private unindex(ci: CiRecord): void {
    this.byNameAndType.delete(nameKey(ci.typeId, ci.name));
    this.byName.get(ci.name)?.delete(ci.id);
    for (const [label, value] of Object.entries(ci.labels ?? {})) {
      this.byLabel.get(label)?.delete(ci.id);
      for (const v of valuesOf(value)) this.byLabelValue.get(labelValueKey(label, v))?.delete(ci.id);
    }
    if (ci.parentId !== null) this.childrenOf.get(ci.parentId)?.delete(ci.id);
    for (const influential of ci.influentialIds) this.dependentsOf.get(influential)?.delete(ci.id);
  }
}

const empty: ReadonlySet<number> = new Set();

function addTo<K>(map: Map<K, Set<number>>, key: K, id: number): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(id);
}

declare module '../model.js' {
  interface PlatformSlices {
    cmdb: CmdbSlice;
  }
}

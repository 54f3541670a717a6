/**
 * Filter #5 (spec 4.1): ids OR, names OR, labels AND across names; a label given a list matches
 * a CI having at least one of the values; a null label value matches on the name only; a null
 * field means any. Candidates come from the smallest index (ids, names, label, label value), so
 * a label filter over 10^5 CIs touches only the CIs that carry the wanted value.
 */
import type { CiFilterBody } from '../../../schemas/cmdb.schema.js';
import type { CmdbSlice } from './cmdb.slice.js';
import type { CiRecord } from './cmdb.types.js';

export function filterCis(cmdb: CmdbSlice, filter: CiFilterBody): CiRecord[] {
  // Each condition is the set of CIs meeting it; the answer is their intersection.
  const conditions: Array<ReadonlySet<number>> = [];
  if (filter.ids) conditions.push(new Set(filter.ids));
  if (filter.names) conditions.push(union(filter.names.map((n) => cmdb.idsByName(n))));
  // An empty object names no label, so it sets no condition (like null).
  for (const [name, wanted] of Object.entries(filter.labels ?? {})) {
    if (wanted === null) conditions.push(cmdb.idsWithLabel(name));
    else if (!Array.isArray(wanted)) conditions.push(cmdb.idsWithLabelValue(name, wanted));
    else conditions.push(union(wanted.map((v) => cmdb.idsWithLabelValue(name, v))));
  }
  const out: CiRecord[] = [];
  if (conditions.length === 0) {
    for (const ci of cmdb.cis.values()) out.push(ci);
  } else {
    conditions.sort((a, b) => a.size - b.size);
    const [smallest, ...others] = conditions as [ReadonlySet<number>, ...ReadonlySet<number>[]];
    for (const id of smallest) {
      if (!others.every((c) => c.has(id))) continue;
      const ci = cmdb.cis.get(id);
      if (ci) out.push(ci);
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

function union(sets: ReadonlyArray<ReadonlySet<number>>): ReadonlySet<number> {
  if (sets.length === 1) return sets[0]!;
  const all = new Set<number>();
  for (const set of sets) for (const id of set) all.add(id);
  return all;
}

/**
 * Filter #5 (spec 4.1): ids OR, names OR, labels AND across names; a label given a list matches
 * a CI having at least one of the values; a null label value matches on the name only; a null
 * field means any. Candidates come from the smallest index (ids, names, label, label value), so
 * a label filter over 10^5 CIs touches only the CIs that carry the wanted value.
 */
import type { CiFilterBody } from '../../../schemas/cmdb.schema.js';
import type { CmdbSlice } from './cmdb.slice.js';
import type { CiRecord, Labels } from './cmdb.types.js';

type LabelFilter = Record<string, string | string[] | null>;

function labelMatches(labels: Labels | null, filter: LabelFilter): boolean {
  if (!labels) return false;
  for (const [name, wanted] of Object.entries(filter)) {
    if (!(name in labels)) return false;
    if (wanted === null) continue;
    const have = labels[name];
    if (have === null || have === undefined) return false;
    const haveList = Array.isArray(have) ? have : [have];
    const wantedList = Array.isArray(wanted) ? wanted : [wanted];
    if (!wantedList.some((w) => haveList.includes(w))) return false;
  }
  return true;
}

export function filterCis(cmdb: CmdbSlice, filter: CiFilterBody): CiRecord[] {
  const candidateSets: Array<ReadonlySet<number> | number[]> = [];
  if (filter.ids) candidateSets.push(filter.ids.filter((id) => cmdb.cis.has(id)));
  if (filter.names) candidateSets.push([...new Set(filter.names.flatMap((n) => [...cmdb.idsByName(n)]))]);
  // An empty object names no label, so it sets no condition (like null).
  const labels = filter.labels && Object.keys(filter.labels).length > 0 ? filter.labels : null;
  if (labels) {
    for (const [name, wanted] of Object.entries(labels)) {
      if (wanted === null) candidateSets.push(cmdb.idsWithLabel(name));
      else if (!Array.isArray(wanted)) candidateSets.push(cmdb.idsWithLabelValue(name, wanted));
      else if (wanted.length === 1) candidateSets.push(cmdb.idsWithLabelValue(name, wanted[0]!));
      else candidateSets.push([...new Set(wanted.flatMap((v) => [...cmdb.idsWithLabelValue(name, v)]))]);
    }
  }

  const size = (s: ReadonlySet<number> | number[]): number => (Array.isArray(s) ? s.length : s.size);
  const smallest = candidateSets.sort((a, b) => size(a) - size(b))[0];
  const ids = new Set(filter.ids ?? []);
  const names = new Set(filter.names ?? []);
  const out: CiRecord[] = [];
  const seen = new Set<number>();
  for (const id of smallest ?? cmdb.cis.keys()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const ci = cmdb.cis.get(id);
    if (!ci) continue;
    if (filter.ids && !ids.has(id)) continue;
    if (filter.names && !names.has(ci.name)) continue;
    if (labels && !labelMatches(ci.labels, labels)) continue;
    out.push(ci);
  }
  return out.sort((a, b) => a.id - b.id);
}

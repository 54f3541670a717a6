/**
 * The CI hierarchy as one caller sees it (issue #32): what a tree view lists under a node, in
 * name order, and the keyset positions that page through it.
 *
 * - Under a CI: its children the caller may see.
 * - At the top (parent 0): every CI the caller may see whose parent it may not see, or that has
 *   none. A caller with a `ChildrenTree` grant on X sees X's children at its top level.
 * - With a search (a case-insensitive substring of the name) or a label (a name, or a name and a
 *   value): the matching CIs the caller may see anywhere below the parent (0: anywhere), flat.
 *
 * Order: the name without case, then the id. A position is such a pair; a page starts after it.
 */
import type { CmdbSlice } from './cmdb.slice.js';

export interface TreeFilter {
  /** 0: the caller's top level. */
  parentId: number;
  search?: string;
  label?: { name: string; value?: string };
}

/** One listing, sorted (computed for one model revision: the names are those of the slice). */
export interface TreeListing {
  ids: number[];
}

export interface TreePosition {
  key: string;
  id: number;
}

const before = (aKey: string, aId: number, bKey: string, bId: number): boolean => aKey < bKey || (aKey === bKey && aId < bId);

export function treeListing(cmdb: CmdbSlice, visible: (id: number) => boolean, filter: TreeFilter): TreeListing {
  const matching: number[] = [];
  if (filter.search === undefined && filter.label === undefined) {
    if (filter.parentId !== 0) {
      for (const id of cmdb.childrenIds(filter.parentId)) if (visible(id)) matching.push(id);
    } else {
      for (const ci of cmdb.cis.values()) if (visible(ci.id) && (ci.parentId === null || !visible(ci.parentId))) matching.push(ci.id);
    }
  } else {
    const needle = filter.search?.toLowerCase();
    const label = filter.label;
    const candidates: Iterable<number> = label
      ? label.value === undefined
        ? cmdb.idsWithLabel(label.name)
        : cmdb.idsWithLabelValue(label.name, label.value)
      : filter.parentId !== 0
        ? cmdb.descendants(filter.parentId)
        : cmdb.cis.keys();
    const below = label && filter.parentId !== 0 ? new Set(cmdb.descendants(filter.parentId)) : undefined;
    for (const id of candidates) {
      if (below && !below.has(id)) continue;
      const ci = cmdb.cis.get(id);
      if (!ci || !visible(id)) continue;
      if (needle !== undefined && !ci.name.toLowerCase().includes(needle)) continue;
      matching.push(id);
    }
  }
  const keyed = matching.map((id) => ({ id, key: cmdb.cis.get(id)!.name.toLowerCase() }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
  return { ids: keyed.map((k) => k.id) };
}

/** The position of a listed CI (what a cursor holds). */
export const positionOf = (cmdb: CmdbSlice, id: number): TreePosition => ({ key: cmdb.cis.get(id)?.name.toLowerCase() ?? '', id });

/** The index of the first entry after the position (binary search). */
export function startAfter(cmdb: CmdbSlice, listing: TreeListing, position: TreePosition | undefined): number {
  if (!position) return 0;
  let low = 0;
  let high = listing.ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const at = positionOf(cmdb, listing.ids[mid]!);
    if (before(position.key, position.id, at.key, at.id)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Ancestors the caller may see, top first. */
export function visiblePath(cmdb: CmdbSlice, visible: (id: number) => boolean, id: number): Array<{ id: number; name: string }> {
  const path: Array<{ id: number; name: string }> = [];
  for (const ancestor of cmdb.ancestors(id)) if (visible(ancestor)) path.push({ id: ancestor, name: cmdb.cis.get(ancestor)?.name ?? '' });
  return path.reverse();
}

/** Children the caller may see. */
export function visibleChildCount(cmdb: CmdbSlice, visible: (id: number) => boolean, id: number): number {
  let count = 0;
  for (const child of cmdb.childrenIds(id)) if (visible(child)) count++;
  return count;
}

/**
 * The CMDB tree's data: branches (the CIs under one parent, loaded a page at a time through
 * GET …/config-items/{parentId}/children), which CIs are expanded, and the flattened list of
 * visible rows the virtualised view renders. A branch not yet (fully) loaded ends in a `more`
 * row; the view asks for the next page when that row scrolls into sight, so a node with 5 000
 * children costs a page per screenful, and 100 000 CIs never sit in the DOM at once.
 *
 * Parent 0 is the top level; with a search or label filter it holds the matches (anywhere in
 * the hierarchy, with their path), and what is below a match is its plain children.
 */
import { signal } from '@preact/signals';
import { api, problemOf } from '../app/api.js';
import type { TreeCi } from './cmdb-model.js';

export const PAGE_SIZE = 500;

export interface Branch {
  items: TreeCi[];
  total: number;
  next: string | null;
  loading: boolean;
  error?: string;
}

export type Row =
  | { kind: 'ci'; key: string; ci: TreeCi; level: number; parentKey: string | null; posInSet: number; setSize: number; expanded: boolean }
  | { kind: 'more'; key: string; level: number; parentId: number; loading: boolean; error?: string };

export interface TreeQuery {
  search?: string;
  label?: string;
}

/** What the CMDB screen remembers across visits (expanded CIs, the active row), per query. */
const memory = new Map<string, { expanded: Set<number>; active?: string }>();
const queryKey = (q: TreeQuery): string => JSON.stringify([q.search ?? '', q.label ?? '']);

export class TreeModel {
  readonly branches = new Map<number, Branch>();
  readonly expanded: Set<number>;
  /** Bumped on every change: the view re-reads `rows`. */
  readonly version = signal(0);
  private flat: Row[] | undefined;
  private readonly remembered: { expanded: Set<number>; active?: string };

  constructor(readonly query: TreeQuery) {
    const key = queryKey(query);
    let remembered = memory.get(key);
    if (!remembered) {
      remembered = { expanded: new Set() };
      if (memory.size >= 20) memory.delete(memory.keys().next().value!);
      memory.set(key, remembered);
    }
    this.remembered = remembered;
    this.expanded = remembered.expanded;
  }

  get active(): string | undefined {
    return this.remembered.active;
  }

  set active(key: string | undefined) {
    this.remembered.active = key;
  }

  private changed(): void {
    this.flat = undefined;
    this.version.value++;
  }

  /** Loads the first page of a branch, or the next one. */
  async load(parentId: number): Promise<void> {
    const branch = this.branches.get(parentId);
    if (branch && (branch.loading || (branch.next === null && !branch.error))) return;
    const cursor = branch?.next ?? undefined;
    const current: Branch = branch ?? { items: [], total: 0, next: null, loading: true };
    current.loading = true;
    delete current.error;
    this.branches.set(parentId, current);
    this.changed();
    const filtered = parentId === 0;
    const { data, error, response } = await api.GET('/api/public/sm/v2/rsm/config-items/{parentId}/children', {
      params: {
        path: { parentId: String(parentId) },
        query: {
          limit: PAGE_SIZE,
          includeState: true,
          ...(cursor ? { cursor } : {}),
          ...(filtered && this.query.search ? { search: this.query.search } : {}),
          ...(filtered && this.query.label ? { label: this.query.label } : {}),
        },
      },
    });
    current.loading = false;
    if (data) {
      current.items.push(...data.items);
      current.total = data.total;
      current.next = data.nextCursor;
    } else {
      const problem = problemOf(error, response.status);
      current.error = problem.errors?.map((e) => e.message).join('; ') || problem.detail || problem.title || 'Could not load';
    }
    this.changed();
  }

  toggle(ci: TreeCi, open = !this.expanded.has(ci.id)): void {
    if (ci.childCount === 0) return;
    if (open) this.expanded.add(ci.id);
    else this.expanded.delete(ci.id);
    this.changed();
  }

  /** Visible rows, top to bottom: each expanded CI followed by its branch. */
  get rows(): Row[] {
    if (this.flat) return this.flat;
    const rows: Row[] = [];
    const walk = (parentId: number, parentKey: string | null, level: number, seen: ReadonlySet<number>): void => {
      const branch = this.branches.get(parentId);
      if (!branch) {
        rows.push({ kind: 'more', key: `${parentKey ?? ''}/more`, level, parentId, loading: false });
        return;
      }
      const setSize = Math.max(branch.total, branch.items.length);
      branch.items.forEach((ci, i) => {
        const key = `${parentKey ?? ''}/${ci.id}`;
        // A CI shown again below itself (a search match inside another match's subtree is fine; a cycle is not possible, but stay safe).
        const open = this.expanded.has(ci.id) && ci.childCount > 0 && !seen.has(ci.id);
        rows.push({ kind: 'ci', key, ci, level, parentKey, posInSet: i + 1, setSize, expanded: open });
        if (open) walk(ci.id, key, level + 1, new Set([...seen, ci.id]));
      });
      if (branch.next !== null || branch.loading || branch.error) {
        rows.push({ kind: 'more', key: `${parentKey ?? ''}/more`, level, parentId, loading: branch.loading, ...(branch.error ? { error: branch.error } : {}) });
      }
    };
    walk(0, null, 1, new Set());
    this.flat = rows;
    return rows;
  }
}

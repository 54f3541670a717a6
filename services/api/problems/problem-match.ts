/**
 * The problem list's filters and order as plain functions over rows (issue #30): the open-problem
 * index pages with them, and each SSE subscriber tests every change with `matchesProblem`. The
 * SQL read (problem-select.ts) states the same rules for ClickHouse; the tests run both.
 */
import type { Cursor } from './problem-cursor.js';
import type { ProblemFilter } from './problem-filter.js';
import type { RowFacts } from './problem-item.js';
import type { ProblemScope } from './problem-scope.js';

/** A tag filter `name` matches a tag named so or named `name=…`; `name=value` matches that name exactly. */
export function tagMatches(filter: string, tagName: string): boolean {
  return tagName === filter || (!filter.includes('=') && tagName.startsWith(`${filter}=`));
}

export function matchesProblem(f: RowFacts, filter: ProblemFilter, scope: ProblemScope): boolean {
  const { row, start, end } = f;
  if (row.is_deleted === 1) return false;
  if (filter.state === 'open' && end !== null) return false;
  if (filter.state === 'closed' && end === null) return false;
  if (scope.cis && !scope.cis.has(row.ci_id)) return false;
  if (scope.visible && !scope.visible(row.ci_id)) return false;
  if (scope.excluded?.has(row.ci_id)) return false;
  if (filter.triggerIds && !filter.triggerIds.includes(row.trigger_id)) return false;
  if (filter.priorities && !filter.priorities.includes(row.priority)) return false;
  if (filter.acknowledged !== undefined && (row.acknowledged !== '') !== filter.acknowledged) return false;
  if (filter.to !== undefined && start >= filter.to) return false;
  if (filter.from !== undefined && end !== null && end <= filter.from) return false;
  if (filter.search !== undefined && !row.trigger_name.toLowerCase().includes(filter.search) && !scope.searchCis?.has(row.ci_id)) return false;
  if (filter.tags.length > 0) {
    const names = (JSON.parse(row.tags) as Array<{ name: string }>).map((t) => t.name);
    if (!filter.tags.every((t) => names.some((n) => tagMatches(t, n)))) return false;
  }
  return true;
}

/** The value a row sorts by. */
export function sortValue(f: RowFacts, key: ProblemFilter['sort']['key'], now: number): number {
  if (key === 'dateStart') return f.start;
  if (key === 'priority') return f.row.priority;
  return (f.end ?? now) - f.start;
}

/** Orders rows as the list does: by the sort value, then start, then id, all in the sort's direction. */
export function compareProblems(a: RowFacts, b: RowFacts, filter: ProblemFilter, now: number): number {
  const sign = filter.sort.desc ? -1 : 1;
  const d = sortValue(a, filter.sort.key, now) - sortValue(b, filter.sort.key, now) || a.start - b.start;
  if (d !== 0) return sign * d;
  return sign * (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0);
}

/** True when the row comes after the cursor in the list's order. */
export function afterCursor(f: RowFacts, cursor: Cursor, filter: ProblemFilter, now: number): boolean {
  const sign = filter.sort.desc ? -1 : 1;
  const d = sortValue(f, filter.sort.key, now) - cursor.value || f.start - cursor.start;
  if (d !== 0) return sign * d > 0;
  return sign * (f.row.id < cursor.id ? -1 : f.row.id > cursor.id ? 1 : 0) > 0;
}

export const cursorOf = (f: RowFacts, filter: ProblemFilter, now: number): Cursor => ({
  value: sortValue(f, filter.sort.key, now),
  start: f.start,
  id: f.row.id,
  ...(filter.sort.key === 'duration' ? { now } : {}),
});

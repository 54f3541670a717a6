/**
 * Lists #1 and filter #3 (spec 4.2, 8; DESIGN §8): the filter body, `search`, sorting on any
 * scalar field and paging. Pure: the route passes the query parameters and the visible modes.
 */
import type { DateTimeFilterBody, MaintenanceFilterBody } from '../../../schemas/maintenance.schema.js';
import { failFields } from '../../../schemas/errors.js';
import type { MaintenanceSlice } from './maintenance.slice.js';
import { type MaintenanceRecord, type ModeState, modeState } from './maintenance.types.js';
import { parseDateTime } from './maintenance-input.js';

export const SORT_COLUMNS = ['id', 'title', 'dateStart', 'dateEnd', 'state'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export const DEFAULT_PER_PAGE = 1000;

export interface ListQuery {
  sortCol: SortColumn;
  sortDir: 'asc' | 'desc';
  page: number;
  /** -1: every record. */
  perPage: number;
  search: string | undefined;
}

const INTEGER = /^-?\d+$/;

export function parseListQuery(raw: Readonly<Record<string, string | undefined>>): ListQuery {
  const bad = (name: string, why: string) => failFields('maintenance.query_invalid', [{ path: `/${name}`, message: why }], { name, value: JSON.stringify(raw[name]), why });
  const sortCol = raw['sortCol'] ?? 'id';
  if (!(SORT_COLUMNS as readonly string[]).includes(sortCol)) throw bad('sortCol', `sorting works on ${SORT_COLUMNS.join(', ')}`);
  const sortDir = (raw['sortDir'] ?? 'asc').toLowerCase();
  if (sortDir !== 'asc' && sortDir !== 'desc') throw bad('sortDir', 'must be asc or desc');
  const page = raw['page'] === undefined ? 1 : Number(raw['page']);
  if (!INTEGER.test(raw['page'] ?? '1') || !Number.isSafeInteger(page) || page < 1) throw bad('page', 'must be an integer from 1');
  const perPage = raw['perPage'] === undefined ? DEFAULT_PER_PAGE : Number(raw['perPage']);
  if (!INTEGER.test(raw['perPage'] ?? '1') || !Number.isSafeInteger(perPage) || (perPage < 1 && perPage !== -1)) throw bad('perPage', 'must be -1 (all) or an integer from 1');
  const search = raw['search']?.trim();
  return { sortCol: sortCol as SortColumn, sortDir, page, perPage, search: search === '' ? undefined : search };
}

/** Mode id or id of a CI in scope: exact; title, label keys and values: case-insensitive substring. */
export function searchMatcher(search: string): (mode: MaintenanceRecord) => boolean {
  const text = search.toLowerCase();
  const id = /^\d+$/.test(search) ? Number(search) : undefined;
  return (mode) =>
    mode.id === id ||
    (id !== undefined && mode.entries.some((e) => e.ciId === id)) ||
    mode.title?.toLowerCase().includes(text) ||
    Object.entries(mode.labels).some(([k, v]) => k.toLowerCase().includes(text) || v.toLowerCase().includes(text));
}

/** Lifecycle order, so `sortCol=state` reads as a timeline. */
const STATE_ORDER: Record<ModeState, number> = { Scheduled: 0, Active: 1, Completed: 2, Canceled: 3 };

function comparator(column: SortColumn, now: number): (a: MaintenanceRecord, b: MaintenanceRecord) => number {
  switch (column) {
    case 'id':
      return (a, b) => a.id - b.id;
    case 'dateStart':
      return (a, b) => a.start - b.start;
    case 'dateEnd':
      return (a, b) => a.end - b.end;
    case 'state':
      return (a, b) => STATE_ORDER[modeState(a, now)] - STATE_ORDER[modeState(b, now)];
    case 'title':
      // Untitled modes first; code-unit order so the result does not depend on the server's locale.
      return (a, b) => (a.title === b.title ? 0 : a.title === null ? -1 : b.title === null ? 1 : a.title < b.title ? -1 : 1);
  }
}

/** Searches, sorts (ties by id ascending) and pages the given modes. */
export function listModes(modes: Iterable<MaintenanceRecord>, query: ListQuery, now: number): MaintenanceRecord[] {
  const matches = query.search === undefined ? undefined : searchMatcher(query.search);
  const out: MaintenanceRecord[] = [];
  for (const mode of modes) if (!matches || matches(mode)) out.push(mode);
  const compare = comparator(query.sortCol, now);
  const sign = query.sortDir === 'asc' ? 1 : -1;
  out.sort((a, b) => sign * compare(a, b) || a.id - b.id);
  if (query.perPage === -1) return out;
  const from = (query.page - 1) * query.perPage;
  return out.slice(from, from + query.perPage);
}

interface DateCriterion {
  lte?: number;
  gte?: number;
  eq?: number;
}

export interface ModeFilter {
  ids?: Set<number>;
  configItemIds?: number[];
  start?: DateCriterion;
  end?: DateCriterion;
}

function readDateFilter(filter: DateTimeFilterBody | null | undefined, path: string): DateCriterion | undefined {
  if (!filter) return undefined;
  const out: DateCriterion = {};
  if (filter.lessThanOrEqual != null) out.lte = parseDateTime(filter.lessThanOrEqual, `${path}/lessThanOrEqual`);
  if (filter.moreThanOrEqual != null) out.gte = parseDateTime(filter.moreThanOrEqual, `${path}/moreThanOrEqual`);
  if (filter.Equal != null) out.eq = parseDateTime(filter.Equal, `${path}/Equal`);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Absent, null and empty criteria do not count; a filter left with none is refused (spec 7.2). */
export function readFilter(body: MaintenanceFilterBody): ModeFilter {
  const filter: ModeFilter = {};
  if (body.ids && body.ids.length > 0) filter.ids = new Set(body.ids);
  if (body.configItemIds && body.configItemIds.length > 0) filter.configItemIds = body.configItemIds;
  const start = readDateFilter(body.dateStart, '/dateStart');
  if (start) filter.start = start;
  const end = readDateFilter(body.dateEnd, '/dateEnd');
  if (end) filter.end = end;
  if (Object.keys(filter).length === 0) {
    throw failFields('maintenance.filter_empty', [{ path: '/', message: 'no criterion' }]);
  }
  return filter;
}

const dateMatches = (value: number, c: DateCriterion | undefined): boolean =>
  !c || ((c.lte === undefined || value <= c.lte) && (c.gte === undefined || value >= c.gte) && (c.eq === undefined || value === c.eq));

/** Modes matching every criterion; candidates come from the CI index when CIs are named. */
export function filterModes(slice: MaintenanceSlice, filter: ModeFilter): MaintenanceRecord[] {
  let candidates: Iterable<MaintenanceRecord>;
  if (filter.configItemIds) {
    const ids = new Set<number>();
    for (const ciId of filter.configItemIds) for (const id of slice.modeIdsOn(ciId)) ids.add(id);
    candidates = [...ids].map((id) => slice.modes.get(id)!);
  } else if (filter.ids) candidates = [...filter.ids].flatMap((id) => slice.modes.get(id) ?? []);
  else candidates = slice.modes.values();
  const out: MaintenanceRecord[] = [];
  for (const mode of candidates) {
    if (filter.ids && !filter.ids.has(mode.id)) continue;
    if (!dateMatches(mode.start, filter.start) || !dateMatches(mode.end, filter.end)) continue;
    out.push(mode);
  }
  return out;
}

/**
 * The problem list's state as the URL holds it (tab, filters, sort: every view can be linked and
 * reloaded), and what follows from it: the API's query for a page, for the live stream and for
 * the bulk acknowledgement, which tab a problem belongs to, and the API's order of the list
 * (docs/problems.md: the sort key, then the start, then the id, all in one direction).
 */
import type { operations } from '../app/api-schema.js';

export type ProblemPage = operations['problems.list']['responses'][200]['content']['application/json'];
export type Problem = ProblemPage['items'][number];
export type ProblemDetail = operations['problems.get']['responses'][200]['content']['application/json'];
export type ListQuery = NonNullable<operations['problems.list']['parameters']['query']>;

export const TABS = [
  { id: 'unhandled', label: 'Unhandled' },
  { id: 'acknowledged', label: 'Acknowledged' },
  { id: 'maintenance', label: 'In maintenance' },
] as const;
export type TabId = (typeof TABS)[number]['id'];

export type SortKey = 'dateStart' | 'priority' | 'duration';
export interface Sort {
  key: SortKey;
  desc: boolean;
}
/** The direction a column sorts in when first chosen: newest, most urgent, longest first. */
export const FIRST_DIRECTION: Record<SortKey, boolean> = { dateStart: true, priority: false, duration: true };
const DEFAULT_SORT: Sort = { key: 'dateStart', desc: true };

export interface ProblemView {
  tab: TabId;
  /** Comma-separated CI ids, as in the API. */
  configItemIds: string;
  withDescendants: boolean;
  /** 1–4. */
  priorities: number[];
  /** Comma-separated trigger ids. */
  triggerIds: string;
  /** `name` or `name=value`; all must match. */
  tags: string[];
  /** ISO instants. */
  from: string;
  to: string;
  search: string;
  sort: Sort;
}

const isTab = (text: string | null): text is TabId => TABS.some((t) => t.id === text);

export function viewOf(params: URLSearchParams): ProblemView {
  const sortText = params.get('sort') ?? '';
  const desc = sortText.startsWith('-');
  const key = desc ? sortText.slice(1) : sortText;
  const tab = params.get('tab');
  return {
    tab: isTab(tab) ? tab : 'unhandled',
    configItemIds: params.get('configItemIds') ?? '',
    withDescendants: params.get('withDescendants') === 'true',
    priorities: (params.get('priorities') ?? '')
      .split(',')
      .map(Number)
      .filter((n) => n >= 1 && n <= 4),
    triggerIds: params.get('triggerIds') ?? '',
    tags: params.getAll('tags').filter((t) => t !== ''),
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    search: params.get('search') ?? '',
    sort: key === 'dateStart' || key === 'priority' || key === 'duration' ? { key, desc } : DEFAULT_SORT,
  };
}

/** The filters (not the tab, not the sort) as API parameters; tags repeated. */
export function filterParams(view: ProblemView): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (view.configItemIds.trim()) {
    out.push(['configItemIds', view.configItemIds.trim()]);
    if (view.withDescendants) out.push(['withDescendants', 'true']);
  }
  if (view.priorities.length > 0) out.push(['priorities', [...view.priorities].sort().join(',')]);
  if (view.triggerIds.trim()) out.push(['triggerIds', view.triggerIds.trim()]);
  for (const tag of view.tags) out.push(['tags', tag]);
  if (view.from) out.push(['from', view.from]);
  if (view.to) out.push(['to', view.to]);
  if (view.search.trim()) out.push(['search', view.search.trim()]);
  return out;
}

/** The URL's query for a view (defaults left out). */
export function searchOf(view: ProblemView): string {
  const params = new URLSearchParams();
  if (view.tab !== 'unhandled') params.set('tab', view.tab);
  for (const [name, value] of filterParams(view)) params.append(name, value);
  if (view.sort.key !== DEFAULT_SORT.key || view.sort.desc !== DEFAULT_SORT.desc) params.set('sort', sortText(view.sort));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const sortText = (sort: Sort): string => `${sort.desc ? '-' : ''}${sort.key}`;

/** The tab's conditions as API parameters: the three tabs split the open problems. */
export function tabParams(tab: TabId): Array<[string, string]> {
  if (tab === 'unhandled')
    return [
      ['acknowledged', 'false'],
      ['inMaintenance', 'false'],
    ];
  if (tab === 'acknowledged')
    return [
      ['acknowledged', 'true'],
      ['inMaintenance', 'false'],
    ];
  return [['inMaintenance', 'true']];
}

export function inTab(p: Problem, tab: TabId): boolean {
  if (p.dateEnd !== null) return false;
  if (tab === 'maintenance') return p.inMaintenance;
  return !p.inMaintenance && (tab === 'acknowledged') === (p.acknowledged !== null);
}

/**
 * The list query of a tab: tags are a repeated parameter, which openapi-fetch writes as
 * `tags=a&tags=b` from an array (the generated type names one string).
 */
export function listQuery(view: ProblemView, tab: TabId, extra: Record<string, string>): ListQuery {
  const values: Record<string, string | string[]> = { ...extra };
  for (const [name, value] of [...filterParams(view), ...tabParams(tab)]) {
    if (name === 'tags') values['tags'] = [...((values['tags'] as string[] | undefined) ?? []), value];
    else values[name] = value;
  }
  return values as ListQuery;
}

/**
 * The bulk acknowledgement's filter: the list's parameters, tags as an array. In the maintenance
 * tab only the problems nobody acknowledged yet (acknowledging again would replace who and when).
 */
export function bulkFilter(view: ProblemView): Record<string, string | string[]> {
  const filter: Record<string, string | string[]> = {};
  const extra: Array<[string, string]> = view.tab === 'maintenance' ? [['acknowledged', 'false']] : [];
  for (const [name, value] of [...filterParams(view), ...tabParams(view.tab), ...extra]) {
    if (name === 'tags') filter['tags'] = [...((filter['tags'] as string[] | undefined) ?? []), value];
    else filter[name] = value;
  }
  return filter;
}

export const priorityNumber = (p: Problem): number => Number(p.priority.slice('Problem'.length));

/**
 * The API's order. Starts are ISO instants of one shape, so they compare as text; an open
 * problem's duration is now − start, so among open problems it orders as the start reversed.
 */
export function compareProblems(sort: Sort): (a: Problem, b: Problem) => number {
  const dir = sort.desc ? -1 : 1;
  const text = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  const now = Date.now();
  const duration = (p: Problem): number => (p.dateEnd === null ? now : Date.parse(p.dateEnd)) - Date.parse(p.dateStart);
  const key = (a: Problem, b: Problem): number => {
    if (sort.key === 'priority') return priorityNumber(a) - priorityNumber(b);
    if (sort.key === 'duration') return a.dateEnd === null && b.dateEnd === null ? text(b.dateStart, a.dateStart) : duration(a) - duration(b);
    return 0;
  };
  return (a, b) => dir * (key(a, b) || text(a.dateStart, b.dateStart) || text(a.id, b.id));
}

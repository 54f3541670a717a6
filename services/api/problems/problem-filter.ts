/**
 * The filters of the problem list (issue #30), parsed once from the query (or from the body of a
 * bulk acknowledgement, with the same names) into a value the SQL read, the open-problem index and
 * the SSE subscribers all use. Every bad value is a 400 naming the parameter and the rule.
 */
import { fail } from '../../../schemas/errors.js';
import { type Cursor, decodeCursor, type SortKey } from './problem-cursor.js';

export type ProblemState = 'open' | 'closed' | 'all';

export interface ProblemFilter {
  state: ProblemState;
  configItemIds?: number[];
  withDescendants: boolean;
  triggerIds?: number[];
  priorities?: number[];
  /** `name` (a tag named so, or named `name=…`) or `name=value` (a tag named exactly so); all must match. */
  tags: string[];
  acknowledged?: boolean;
  inMaintenance?: boolean;
  from?: number;
  to?: number;
  /** Lower-cased. */
  search?: string;
  sort: { key: SortKey; desc: boolean };
  limit: number;
  cursor?: Cursor;
  withTotal: boolean;
}

/** Where the parameters come from: a query string, or a bulk request's filter object. */
export interface ParamSource {
  get(name: string): string | null;
  getAll(name: string): string[];
}

export const MAX_LIMIT = 1000;
const MAX_IDS = 10_000;
const MAX_TAGS = 50;

const bad = (name: string, value: string, rule: string): never => {
  throw fail('problem.query_invalid', { name, value: JSON.stringify(value), rule });
};

function ids(name: string, text: string | null): number[] | undefined {
  if (text === null || text.trim() === '') return undefined;
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > MAX_IDS) bad(name, `${parts.length} ids`, `at most ${MAX_IDS}`);
  return parts.map((p) => {
    const n = Number(p);
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(n) || n <= 0) bad(name, p, 'a comma-separated list of positive integers');
    return n;
  });
}

function bool(name: string, text: string | null): boolean | undefined {
  if (text === null || text === '') return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  return bad(name, text, 'true or false');
}

function instant(name: string, text: string | null): number | undefined {
  if (text === null || text === '') return undefined;
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) || Number.isNaN(ms)) {
    bad(name, text, 'an ISO 8601 date-time with its offset, e.g. 2026-11-25T09:00:00Z');
  }
  return ms;
}

function priorities(text: string | null): number[] | undefined {
  if (text === null || text.trim() === '') return undefined;
  return text.split(',').map((p) => {
    const m = /^(?:Problem)?([1-4])$/.exec(p.trim());
    if (!m) bad('priorities', p, '1–4 or Problem1–Problem4, comma-separated');
    return Number(m![1]);
  });
}

export function parseProblemFilter(params: ParamSource): ProblemFilter {
  const state = params.get('state') ?? 'open';
  if (state !== 'open' && state !== 'closed' && state !== 'all') bad('state', state, 'open, closed or all');
  const sortText = params.get('sort') ?? '-dateStart';
  const desc = sortText.startsWith('-');
  const key = desc ? sortText.slice(1) : sortText;
  if (key !== 'dateStart' && key !== 'priority' && key !== 'duration') bad('sort', sortText, 'dateStart, priority or duration, with a leading - for descending');
  const limitText = params.get('limit');
  const limit = limitText === null ? 100 : Number(limitText);
  if (limitText !== null && (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_LIMIT)) bad('limit', limitText, `a whole number from 1 to ${MAX_LIMIT}`);
  const tags = params.getAll('tags').filter((t) => t !== '');
  if (tags.length > MAX_TAGS) bad('tags', `${tags.length} tags`, `at most ${MAX_TAGS}`);
  const from = instant('from', params.get('from'));
  const to = instant('to', params.get('to'));
  if (from !== undefined && to !== undefined && from >= to) bad('to', params.get('to')!, 'after from');
  const search = params.get('search');
  if (search !== null && search.length > 255) bad('search', `${search.length} characters`, 'at most 255 characters');
  const filter: ProblemFilter = {
    state: state as ProblemState,
    withDescendants: bool('withDescendants', params.get('withDescendants')) ?? false,
    tags,
    sort: { key: key as SortKey, desc },
    limit,
    withTotal: bool('withTotal', params.get('withTotal')) ?? false,
  };
  const optional = {
    configItemIds: ids('configItemIds', params.get('configItemIds')),
    triggerIds: ids('triggerIds', params.get('triggerIds')),
    priorities: priorities(params.get('priorities')),
    acknowledged: bool('acknowledged', params.get('acknowledged')),
    inMaintenance: bool('inMaintenance', params.get('inMaintenance')),
    from,
    to,
    search: search === null || search === '' ? undefined : search.toLowerCase(),
  };
  for (const [name, value] of Object.entries(optional)) if (value !== undefined) (filter as unknown as Record<string, unknown>)[name] = value;
  const cursor = params.get('cursor');
  if (cursor !== null && cursor !== '') filter.cursor = decodeCursor(cursor, filter.sort);
  return filter;
}

/** A bulk request's filter object as a parameter source (a string, or an array for repeated ones). */
export const recordSource = (record: Readonly<Record<string, string | readonly string[]>>): ParamSource => ({
  get: (name) => {
    const v = record[name];
    return v === undefined ? null : typeof v === 'string' ? v : (v[0] ?? null);
  },
  getAll: (name) => {
    const v = record[name];
    return v === undefined ? [] : typeof v === 'string' ? [v] : [...v];
  },
});

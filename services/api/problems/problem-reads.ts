/**
 * Reading problems for the API (issue #30): a page of the list (open problems from the in-memory
 * index, the others from `problems`), one problem by id, its hits, comments and history.
 */
import type { ProblemRow } from '../../../pipelines/problems/problem-row.js';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';
import { fail } from '../../../schemas/errors.js';
import { ACTION_READ_LIST, PROBLEM_ACTIONS } from '../../../schemas/tables/problem-actions.table.js';
import { PROBLEM_ROW_LIST, PROBLEMS, storedRow } from '../../../schemas/tables/problems.table.js';
import { HIT_READ_LIST, TRIGGER_HITS } from '../../../schemas/tables/trigger-hits.table.js';
import { type Cursor, encodeCursor } from './problem-cursor.js';
import type { ProblemFilter } from './problem-filter.js';
import { factsOf, type RowFacts, rowMs } from './problem-item.js';
import { afterCursor, compareProblems, cursorOf, matchesProblem } from './problem-match.js';
import type { OpenProblems } from './open-problems.js';
import { problemCountQuery, problemPageQuery } from './problem-select.js';
import type { ProblemScope } from './problem-scope.js';

export interface Page {
  rows: RowFacts[];
  nextCursor: string | null;
  total?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkProblemId(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw fail('problem.id_invalid', { value: JSON.stringify(value ?? '') });
  return value.toLowerCase();
}

function paged(rows: RowFacts[], filter: ProblemFilter, now: number, total: number | undefined): Page {
  const more = rows.length > filter.limit;
  const page = more ? rows.slice(0, filter.limit) : rows;
  const last = page[page.length - 1];
  return { rows: page, nextCursor: more && last ? encodeCursor(cursorOf(last, filter, now), filter.sort) : null, ...(total === undefined ? {} : { total }) };
}

/** The open problems a filter matches, from memory: a page is one pass over the open set. */
export function openPage(open: OpenProblems, filter: ProblemFilter, scope: ProblemScope, now: number): Page {
  const matched: RowFacts[] = [];
  let total = 0;
  const cursor: Cursor | undefined = filter.cursor;
  for (const f of open.values()) {
    if (!matchesProblem(f, filter, scope)) continue;
    total++;
    if (!cursor || afterCursor(f, cursor, filter, now)) matched.push(f);
  }
  matched.sort((a, b) => compareProblems(a, b, filter, now));
  return paged(matched.slice(0, filter.limit + 1), filter, now, filter.withTotal ? total : undefined);
}

/** A page of any problems, from the store. */
export async function storedPage(analytics: AnalyticsStore, filter: ProblemFilter, scope: ProblemScope, now: number): Promise<Page> {
  if ((scope.cis ?? scope.visibleIds?.())?.size === 0) return { rows: [], nextCursor: null, ...(filter.withTotal ? { total: 0 } : {}) };
  const query = problemPageQuery(filter, scope, now, filter.cursor);
  const [raw, total] = await Promise.all([
    analytics.query<Record<string, unknown>>(query.sql, query.params),
    filter.withTotal ? countOf(analytics, filter, scope) : Promise.resolve(undefined),
  ]);
  return paged(
    raw.map((r) => factsOf(storedRow(r))),
    filter,
    now,
    total,
  );
}

async function countOf(analytics: AnalyticsStore, filter: ProblemFilter, scope: ProblemScope): Promise<number> {
  const query = problemCountQuery(filter, scope);
  const [row] = await analytics.query<{ n: string }>(query.sql, query.params);
  return Number(row?.n ?? 0);
}

/** One problem as it stands (the open index first: it is never behind the feed), or undefined. */
export async function problemById(analytics: AnalyticsStore, open: OpenProblems, id: string): Promise<RowFacts | undefined> {
  const held = open.get(id);
  if (held) return held;
  const [raw] = await analytics.query<Record<string, unknown>>(`SELECT ${PROBLEM_ROW_LIST} FROM ${PROBLEMS.name} AS p FINAL WHERE p.id = {id:UUID} AND p.is_deleted = 0 LIMIT 1`, {
    id,
  });
  return raw ? factsOf(storedRow(raw)) : undefined;
}

export interface HitsPage {
  items: Array<{ at: string; eventId: string; resolve: boolean }>;
  nextCursor: string | null;
}

/** The key's hits while the problem was open, newest first; the cursor is the last hit's date and id. */
export async function problemHits(analytics: AnalyticsStore, row: ProblemRow, limit: number, cursorText: string | undefined, now: number): Promise<HitsPage> {
  const params: Record<string, unknown> = {
    trigger: row.trigger_id,
    ci: row.ci_id,
    start: row.date_start,
    end: row.date_end ?? clickhouseDateTime(Math.max(now, rowMs(row.last_event_at)) + 1),
    limit: limit + 1,
  };
  let after = '';
  if (cursorText !== undefined) {
    const [ts, eventId] = parseHitsCursor(cursorText);
    after = "AND (h.ts, h.event_id) < ({cts:DateTime64(3, 'UTC')}, {cid:String})";
    Object.assign(params, { cts: clickhouseDateTime(ts), cid: eventId });
  }
  const rows = await analytics.query<{ ts: string; event_id: string; resolve: number }>(
    `SELECT ${HIT_READ_LIST} FROM ${TRIGGER_HITS.name} AS h FINAL
     WHERE h.trigger_id = {trigger:UInt64} AND h.ci_id = {ci:UInt64} AND h.ts >= {start:DateTime64(3, 'UTC')} AND h.ts <= {end:DateTime64(3, 'UTC')} ${after}
     ORDER BY h.ts DESC, h.event_id DESC LIMIT {limit:UInt32}`,
    params,
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map((h) => ({ at: new Date(rowMs(h.ts)).toISOString(), eventId: h.event_id, resolve: Number(h.resolve) === 1 })),
    nextCursor: more && last ? Buffer.from(JSON.stringify([rowMs(last.ts), last.event_id])).toString('base64url') : null,
  };
}

function parseHitsCursor(text: string): [number, string] {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && Number.isFinite(value[0]) && typeof value[1] === 'string') return [value[0] as number, value[1]];
  } catch {
    // answered below
  }
  throw fail('problem.cursor_invalid');
}

export interface ActionRecord {
  actionId: string;
  kind: 'acknowledge' | 'unacknowledge' | 'comment' | 'resolve';
  at: number;
  byId: number;
  byName: string;
  text: string;
}

/** Every action taken on the problem, oldest first. */
export async function problemActions(analytics: AnalyticsStore, id: string): Promise<ActionRecord[]> {
  const rows = await analytics.query<{ action_id: string; kind: ActionRecord['kind']; at: string; by_id: string; by_name: string; text: string }>(
    `SELECT ${ACTION_READ_LIST}
     FROM ${PROBLEM_ACTIONS.name} AS a FINAL WHERE a.problem_id = {id:UUID} ORDER BY a.at, toString(a.action_id)`,
    { id },
  );
  return rows.map((r) => ({ actionId: r.action_id, kind: r.kind, at: rowMs(r.at), byId: Number(r.by_id), byName: r.by_name, text: r.text }));
}

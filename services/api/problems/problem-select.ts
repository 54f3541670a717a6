/**
 * The problem list as one ClickHouse query (issue #30): the rules of problem-match.ts stated in
 * SQL over `problems FINAL`, with every value bound as a parameter. Ids are ordered as text, as
 * the in-memory index orders them (ClickHouse orders UUIDs by their halves, not their text).
 * Columns are named through the table's alias: the selected columns are texts of the same names.
 */
import type { QueryParams } from '../../runtime/adapters/analytics/analytics.port.js';
import { PROBLEM_ROW_LIST, PROBLEMS } from '../../../schemas/tables/problems.table.js';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import type { Cursor } from './problem-cursor.js';
import type { ProblemFilter } from './problem-filter.js';
import type { ProblemScope } from './problem-scope.js';

const START_MS = 'toUnixTimestamp64Milli(p.date_start)';

function sortExpression(filter: ProblemFilter): string {
  if (filter.sort.key === 'dateStart') return START_MS;
  if (filter.sort.key === 'priority') return 'toInt64(p.priority)';
  return `toUnixTimestamp64Milli(ifNull(p.date_end, {now:DateTime64(3, 'UTC')})) - ${START_MS}`;
}

/** The WHERE conditions and their parameters (without paging). */
export function problemConditions(filter: ProblemFilter, scope: ProblemScope): { where: string[]; params: Record<string, unknown> } {
  const where = ['p.is_deleted = 0'];
  const params: Record<string, unknown> = {};
  if (filter.state === 'open') where.push('p.date_end IS NULL');
  if (filter.state === 'closed') where.push('p.date_end IS NOT NULL');
  // The CIs asked for are among those the caller may see already; without them, the caller's sight.
  const cis = scope.cis ?? scope.visibleIds?.();
  if (cis) {
    where.push('p.ci_id IN {cis:Array(UInt64)}');
    params['cis'] = [...cis];
  }
  if (scope.excluded && scope.excluded.size > 0) {
    where.push('p.ci_id NOT IN {excluded:Array(UInt64)}');
    params['excluded'] = [...scope.excluded];
  }
  if (filter.triggerIds) {
    where.push('p.trigger_id IN {triggers:Array(UInt64)}');
    params['triggers'] = filter.triggerIds;
  }
  if (filter.priorities) {
    where.push('p.priority IN {priorities:Array(UInt8)}');
    params['priorities'] = filter.priorities;
  }
  if (filter.acknowledged !== undefined) where.push(filter.acknowledged ? "p.acknowledged != ''" : "p.acknowledged = ''");
  if (filter.to !== undefined) {
    where.push("p.date_start < {to:DateTime64(3, 'UTC')}");
    params['to'] = clickhouseDateTime(filter.to);
  }
  if (filter.from !== undefined) {
    where.push("(p.date_end IS NULL OR p.date_end > {from:DateTime64(3, 'UTC')})");
    params['from'] = clickhouseDateTime(filter.from);
  }
  if (filter.search !== undefined) {
    where.push('(positionCaseInsensitiveUTF8(p.trigger_name, {search:String}) > 0 OR p.ci_id IN {searchCis:Array(UInt64)})');
    params['search'] = filter.search;
    params['searchCis'] = [...(scope.searchCis ?? [])];
  }
  filter.tags.forEach((tag, i) => {
    const exact = tag.includes('=');
    where.push(`arrayExists(t -> (JSONExtractString(t, 'name') AS n) = {tag${i}:String}${exact ? '' : ` OR startsWith(n, {tagPrefix${i}:String})`}, JSONExtractArrayRaw(p.tags))`);
    params[`tag${i}`] = tag;
    if (!exact) params[`tagPrefix${i}`] = `${tag}=`;
  });
  return { where, params };
}

/** One page (limit + 1 rows, to know whether another follows), after `cursor` when given. */
export function problemPageQuery(filter: ProblemFilter, scope: ProblemScope, now: number, cursor: Cursor | undefined): { sql: string; params: QueryParams } {
  const { where, params } = problemConditions(filter, scope);
  const sort = sortExpression(filter);
  params['now'] = clickhouseDateTime(cursor?.now ?? now);
  const dir = filter.sort.desc ? 'DESC' : 'ASC';
  if (cursor) {
    where.push(`(${sort}, ${START_MS}, toString(p.id)) ${filter.sort.desc ? '<' : '>'} ({cv:Int64}, {cs:Int64}, {cid:String})`);
    Object.assign(params, { cv: Math.round(cursor.value), cs: cursor.start, cid: cursor.id });
  }
  params['limit'] = filter.limit + 1;
  return {
    sql: `SELECT ${PROBLEM_ROW_LIST} FROM ${PROBLEMS.name} AS p FINAL WHERE ${where.join(' AND ')} ORDER BY ${sort} ${dir}, ${START_MS} ${dir}, toString(p.id) ${dir} LIMIT {limit:UInt32}`,
    params,
  };
}

export function problemCountQuery(filter: ProblemFilter, scope: ProblemScope): { sql: string; params: QueryParams } {
  const { where, params } = problemConditions(filter, scope);
  return { sql: `SELECT count() AS n FROM ${PROBLEMS.name} AS p FINAL WHERE ${where.join(' AND ')}`, params };
}

/**
 * Comments on problems their key no longer holds (closed, and folded out of its late window):
 * the stage counts them on the problems' stored rows, written again with the key's next version,
 * so they stay the newest rows of those problems.
 */
import type { ProblemAction } from '../../pipelines/problems/problem-actions.js';
import type { ProblemRow } from '../../pipelines/problems/problem-row.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';

/**
 * The stored columns of a problem row, as `problems` gives them back (dates as ClickHouse text).
 * The texts take the columns' names: a query naming a column must name it through the table's alias.
 */
export const PROBLEM_ROW_COLUMNS =
  'toString(id) AS id, trigger_id, trigger_name, ci_id, toString(date_start) AS date_start, toString(date_end) AS date_end, toString(last_event_at) AS last_event_at, priority, tags, incidents, influence_value, influence_max, with_maintenance, acknowledged, comments_count, version, is_deleted';

/** 64-bit integers come back as strings: the row as the stage writes it. */
export function storedRow(raw: Record<string, unknown>): ProblemRow {
  return {
    id: String(raw['id']),
    trigger_id: Number(raw['trigger_id']),
    trigger_name: String(raw['trigger_name']),
    ci_id: Number(raw['ci_id']),
    date_start: String(raw['date_start']),
    date_end: raw['date_end'] === null || raw['date_end'] === undefined ? null : String(raw['date_end']),
    last_event_at: String(raw['last_event_at']),
    priority: Number(raw['priority']),
    tags: String(raw['tags']),
    incidents: String(raw['incidents']),
    influence_value: Number(raw['influence_value']),
    influence_max: Number(raw['influence_max']),
    with_maintenance: Number(raw['with_maintenance']),
    acknowledged: String(raw['acknowledged'] ?? ''),
    comments_count: Number(raw['comments_count'] ?? 0),
    version: Number(raw['version']),
    is_deleted: Number(raw['is_deleted']),
  };
}

/**
 * The rows of the commented problems with their comments counted, each with the version its
 * key's state now has (`versionOf`; without a key state, one above the stored row's).
 */
export async function commentedRows(
  analytics: AnalyticsStore,
  comments: readonly ProblemAction[],
  versionOf: (action: ProblemAction) => number | undefined,
): Promise<ProblemRow[]> {
  if (comments.length === 0) return [];
  const stored = await analytics.query<Record<string, unknown>>(
    `SELECT ${PROBLEM_ROW_COLUMNS} FROM problems AS p FINAL WHERE p.ci_id IN {cis:Array(UInt64)} AND p.id IN {ids:Array(UUID)}`,
    { cis: [...new Set(comments.map((c) => c.ciId))], ids: [...new Set(comments.map((c) => c.problemId))] },
  );
  const rows = new Map(stored.map((raw) => [String(raw['id']), storedRow(raw)]));
  for (const comment of comments) {
    const row = rows.get(comment.problemId);
    if (!row) continue;
    row.comments_count += 1;
    row.version = versionOf(comment) ?? row.version + 1;
  }
  return [...rows.values()];
}

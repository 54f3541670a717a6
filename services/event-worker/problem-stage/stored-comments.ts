/**
 * Comments on problems their key no longer holds (closed, and folded out of its late window):
 * the stage counts them on the problems' stored rows, written again with the key's next version,
 * so they stay the newest rows of those problems.
 */
import type { ProblemAction } from '../../../pipelines/problems/problem-actions.js';
import type { ProblemRow } from '../../../pipelines/problems/problem-row.js';
import { PROBLEM_ROW_LIST, PROBLEMS, storedRow } from '../../../schemas/tables/problems.table.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';

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
    `SELECT ${PROBLEM_ROW_LIST} FROM ${PROBLEMS.name} AS p FINAL WHERE p.ci_id IN {cis:Array(UInt64)} AND p.id IN {ids:Array(UUID)}`,
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

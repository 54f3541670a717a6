/**
 * The `problems` table (0002_problems.sql, 0006_problem_lifecycle.sql): one row per version of a
 * problem, written by the problem stage (pipelines/problems/problem-row.ts), read FINAL by the
 * problem API, the SLA worker and the live SLA. Its columns, the row the stage writes, and the
 * SELECT lists its readers use.
 */
import { asText, type ColumnOf, epochMs, type RowOf, selectList, table } from './table.js';

const DATE = "DateTime64(3, 'UTC')";

export const PROBLEMS = table('problems', {
  id: 'UUID',
  trigger_id: 'UInt64',
  trigger_name: 'String',
  ci_id: 'UInt64',
  date_start: DATE,
  date_end: `Nullable(${DATE})`,
  last_event_at: DATE,
  priority: 'UInt8',
  /** JSON of the tags. */
  tags: 'String',
  /** JSON of the incidents, grouped by connector. */
  incidents: 'String',
  influence_value: 'Float64',
  influence_max: 'UInt8',
  with_maintenance: 'UInt8',
  version: 'UInt64',
  is_deleted: 'UInt8',
  /** JSON of the acknowledgement ({by, byName, at, comment}, `at` ISO), '' when none. */
  acknowledged: 'String',
  comments_count: 'UInt32',
});

/** A problem row as the stage writes it (dates as ClickHouse text). */
export type ProblemRow = RowOf<typeof PROBLEMS>;
export type ProblemColumn = ColumnOf<typeof PROBLEMS>;

/**
 * Every column of a problem row, as `problems` gives them back (dates as ClickHouse text).
 * The texts take the columns' names: a query naming a column must name it through the table's alias.
 */
export const PROBLEM_ROW_LIST = selectList(PROBLEMS.columns, {
  id: asText('id'),
  date_start: asText('date_start'),
  date_end: asText('date_end'),
  last_event_at: asText('last_event_at'),
});

/** A row read through PROBLEM_ROW_LIST as the stage writes it (64-bit integers come back as strings). */
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
 * The problem as the SLA worker's calculation reads it (queryFloat64, one number each): its CI,
 * then the packed fields of pipelines/sla/ci-figures.ts (start, end or NaN while open, priority,
 * influence). Read from `problems` and from a report's copy (sla_report_problems.table.ts).
 */
export const PACKED_PROBLEM_LIST = `toFloat64(ci_id), toFloat64(${epochMs('date_start')}), ifNull(toFloat64(${epochMs('date_end')}), nan),
  toFloat64(priority), toFloat64(influence_value), toFloat64(influence_max)`;

/**
 * The problem as the live SLA holds it (services/live-sla/): short names, instants as epoch
 * milliseconds (−1: open). Read from `problems` and from `problem_changes` (problem-changes.table.ts).
 */
export const LIVE_PROBLEM_LIST = selectList<ProblemColumn>(['id', 'ci_id', 'date_start', 'date_end', 'priority', 'influence_value', 'influence_max', 'version'], {
  id: asText('id'),
  date_start: `toFloat64(${epochMs('date_start')}) AS s`,
  date_end: `ifNull(toFloat64(${epochMs('date_end')}), -1) AS e`,
  priority: 'priority AS p',
  influence_value: 'influence_value AS iv',
  influence_max: 'influence_max AS im',
  version: 'version AS v',
});

/** A row of LIVE_PROBLEM_LIST (64-bit integers come back as text). */
export interface LiveProblemRow {
  id: string;
  ci_id: string;
  s: number;
  e: number;
  p: number;
  iv: number;
  im: number;
  v: string;
}

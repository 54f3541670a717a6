/**
 * The `problem_actions` table (0006_problem_lifecycle.sql): what operators did to problems
 * (acknowledge, unacknowledge, comment, resolve), written by the problem stage
 * (pipelines/problems/problem-actions.ts `actionRow`) and read by the problem API
 * (services/api/problems/problem-reads.ts).
 */
import { type ColumnOf, type RowOf, selectList, table, through } from './table.js';

export const PROBLEM_ACTIONS = table('problem_actions', {
  problem_id: 'UUID',
  at: "DateTime64(3, 'UTC')",
  action_id: 'UUID',
  kind: 'LowCardinality(String)',
  ci_id: 'UInt64',
  by_id: 'UInt64',
  by_name: 'String',
  text: 'String',
});

export type ProblemActionTableRow = RowOf<typeof PROBLEM_ACTIONS>;

/** A problem's actions as the API reads them (through the table's alias `a`; ids and instants as text). */
export const ACTION_READ_LIST = selectList<ColumnOf<typeof PROBLEM_ACTIONS>>(
  ['action_id', 'kind', 'at', 'by_id', 'by_name', 'text'],
  { action_id: 'toString(a.action_id) AS action_id', at: 'toString(a.at) AS at' },
  through('a'),
);

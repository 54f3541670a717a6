/**
 * A problem as the API shows it (schemas/problems.schema.ts `ProblemItem`), from its row as
 * stored or as the change feed carries it, with what the control plane knows now: its CI's name
 * and type (with its icon), and whether a maintenance mode covers the CI at this moment.
 */
import type { ProblemRow } from '../../../pipelines/problems/problem-row.js';
import type { ProblemItemBody } from '../../../schemas/problems.schema.js';
import { ciTypeWithIcon } from '../../control-plane/cmdb/ci-type-icons.js';
import { modesCovering } from '../../control-plane/maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../../control-plane/model.js';

/** ClickHouse's text of a DateTime64(3, 'UTC') as epoch milliseconds. */
export const rowMs = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`);

/** The facts of a row the filters and sorts read, computed once per row. */
export interface RowFacts {
  row: ProblemRow;
  start: number;
  /** null while open. */
  end: number | null;
}

export const factsOf = (row: ProblemRow): RowFacts => ({ row, start: rowMs(row.date_start), end: row.date_end === null ? null : rowMs(row.date_end) });

export function problemItem(model: PlatformModel, facts: RowFacts, now: number): ProblemItemBody {
  const { row, start, end } = facts;
  const ci = model.slices.cmdb.cis.get(row.ci_id);
  return {
    id: row.id,
    trigger: { id: row.trigger_id, name: row.trigger_name },
    configItem: {
      id: row.ci_id,
      name: ci?.name ?? '',
      configItemType: ci ? ciTypeWithIcon(model.slices.cmdb, ci.typeId) : null,
    },
    priority: `Problem${row.priority}` as ProblemItemBody['priority'],
    dateStart: new Date(start).toISOString(),
    dateEnd: end === null ? null : new Date(end).toISOString(),
    duration: Math.max(0, (end ?? now) - start),
    influence: { value: row.influence_value, maxInfluence: row.influence_max === 1 },
    tags: JSON.parse(row.tags) as ProblemItemBody['tags'],
    incidents: JSON.parse(row.incidents) as ProblemItemBody['incidents'],
    acknowledged: row.acknowledged === '' ? null : (JSON.parse(row.acknowledged) as ProblemItemBody['acknowledged']),
    inMaintenance: modesCovering(model, row.ci_id, now).length > 0,
    commentsCount: row.comments_count,
  };
}

/** The `problems` rows of a key's state (0002_problems.sql), with what the platform knows now. */

import { type KeyState, spansToWrite } from '../../../pipelines/problems/key-state.js';
import { deletedProblemRow, type ProblemRow, problemRow, type RowContext } from '../../../pipelines/problems/problem-row.js';
import type { ProblemSpan } from '../../../pipelines/problems/problem-timeline.js';
import { maintenanceIntervals } from '../../control-plane/maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../../control-plane/model.js';

/**
 * `version`: the key's version in the keyed store; `spans`: the problems to write (by default all
 * the last change may have touched); `gone`: ids to hide besides the state's own.
 */
export function rowsOfKey(
  model: PlatformModel,
  state: KeyState,
  version: number,
  now: number,
  spans: readonly ProblemSpan[] = spansToWrite(state),
  gone: readonly string[] = [],
): ProblemRow[] {
  const trigger = model.slices.triggers.triggers.get(state.triggerId);
  const ctx: RowContext = {
    triggerId: state.triggerId,
    triggerName: trigger?.name ?? state.trigger.name,
    ciId: state.ciId,
    tags: trigger?.tags ?? state.trigger.tags,
    influence: trigger?.influence ?? state.trigger.influence,
    version,
    underMaintenance: (start, end) => maintenanceIntervals(model, state.ciId, start, end).length > 0,
    now,
    notesOf: (id) => state.notes?.[id],
  };
  const written = new Set(spans.map((s) => s.id));
  const hidden = [...new Set([...state.removedIds, ...gone])].filter((id) => !written.has(id));
  return [...spans.map((span) => problemRow(span, ctx)), ...hidden.map((id) => deletedProblemRow(id, ctx))];
}

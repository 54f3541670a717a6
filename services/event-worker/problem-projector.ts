/**
 * Writes the rows of changed problem keys to the `problems` table (DESIGN §7). It reads what
 * the journal applied to this process's model, so it sees the commits of every worker and of
 * the API (a CI delete closes problems); rows carry the key's revision as version, so two
 * processes writing the same change store it once. At start every key is written once, which
 * repairs a stop between a commit and its rows.
 */
import { deletedProblemRow, problemRow, type ProblemRow, type RowContext } from '../../pipelines/problems/problem-row.js';
import { maintenanceIntervals } from '../control-plane/maintenance/maintenance-coverage.js';
import { spansToWrite } from '../control-plane/problems/problems.slice.js';
import type { ProblemKeyRecord } from '../control-plane/problems/problems.types.js';
import type { PlatformModel } from '../control-plane/slices.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';

export interface ProblemProjector {
  /** Writes the rows of every key changed since the last flush (one flush at a time). */
  flush(): Promise<number>;
}

export function rowsOf(model: PlatformModel, record: ProblemKeyRecord, now: number): ProblemRow[] {
  const trigger = model.slices.triggers.triggers.get(record.triggerId);
  const ctx: RowContext = {
    triggerId: record.triggerId,
    triggerName: trigger?.name ?? record.triggerName,
    ciId: record.ciId,
    tags: trigger?.tags ?? record.tags,
    influence: trigger?.influence ?? record.influence,
    version: record.version,
    underMaintenance: (start, end) => maintenanceIntervals(model, record.ciId, start, end).length > 0,
    now,
  };
  return [...spansToWrite(record).map((span) => problemRow(span, ctx)), ...record.removedIds.map((id) => deletedProblemRow(id, ctx))];
}

export function createProblemProjector(deps: { model: PlatformModel; analytics: AnalyticsStore; now: () => number }): ProblemProjector {
  const slice = deps.model.slices.problems;
  slice.startProjecting();
  // Flushes run one after another; each writes what changed until it starts.
  let chain: Promise<unknown> = Promise.resolve();

  async function writeChanged(): Promise<number> {
    const records = slice.takeUnprojected();
    if (records.length === 0) return 0;
    const now = deps.now();
    const rows = records.flatMap((record) => rowsOf(deps.model, record, now));
    try {
      if (rows.length > 0) await deps.analytics.insert('problems', rows);
    } catch (error) {
      slice.requeue(records);
      throw error;
    }
    return rows.length;
  }

  return {
    flush() {
      const run = chain.catch(() => undefined).then(writeChanged);
      chain = run;
      return run;
    },
  };
}

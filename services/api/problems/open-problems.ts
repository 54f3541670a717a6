/**
 * The problems open now, in memory on every API process (DESIGN §11: the open set is small): the
 * default list is served from here. Loaded once from `problems` and kept current by the change
 * feed; a row replaces the one held only when its version is not older, and the versions of
 * problems that closed are remembered while the load runs, so a slower read cannot bring one back.
 */
import type { ProblemRow } from '../../../pipelines/problems/problem-row.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';
import { PROBLEM_ROW_LIST, PROBLEMS, storedRow } from '../../../schemas/tables/problems.table.js';
import { factsOf, type RowFacts } from './problem-item.js';

export class OpenProblems {
  private readonly open = new Map<string, RowFacts>();
  /** While loading: the newest row the feed brought of each problem. */
  private pending: Map<string, ProblemRow> | undefined = new Map();
  private loadedFlag = false;

  get loaded(): boolean {
    return this.loadedFlag;
  }

  get size(): number {
    return this.open.size;
  }

  get(id: string): RowFacts | undefined {
    return this.open.get(id);
  }

  values(): IterableIterator<RowFacts> {
    return this.open.values();
  }

  /** A row from the change feed. */
  apply(row: ProblemRow): void {
    if (this.pending) {
      const held = this.pending.get(row.id);
      if (!held || held.version <= row.version) this.pending.set(row.id, row);
      return;
    }
    this.place(row);
  }

  private place(row: ProblemRow): void {
    const held = this.open.get(row.id);
    if (held && held.row.version > row.version) return;
    if (row.is_deleted === 1 || row.date_end !== null) this.open.delete(row.id);
    else this.open.set(row.id, factsOf(row));
  }

  /** Reads the open problems from the store, then what the feed brought meanwhile. */
  async load(analytics: AnalyticsStore): Promise<void> {
    const rows = await analytics.query<Record<string, unknown>>(`SELECT ${PROBLEM_ROW_LIST} FROM ${PROBLEMS.name} AS p FINAL WHERE p.date_end IS NULL AND p.is_deleted = 0`);
    const pending = this.pending ?? new Map<string, ProblemRow>();
    this.pending = undefined;
    for (const raw of rows) {
      const row = storedRow(raw);
      const newer = pending.get(row.id);
      if (!newer || newer.version < row.version) this.place(row);
    }
    for (const row of pending.values()) this.place(row);
    this.loadedFlag = true;
  }
}

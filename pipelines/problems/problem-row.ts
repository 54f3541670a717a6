/**
 * Problem rows for the `problems` table (its shape: schemas/tables/problems.table.ts), from a
 * key's problems and what the platform knows of its trigger and CI. Pure: maintenance coverage is
 * asked through a function.
 */
import type { ProblemRow } from '../../schemas/tables/problems.table.js';
import { clickhouseDateTime } from '../records/timestamps.js';
import { NO_NOTES, type ProblemNotes } from './problem-actions.js';
import type { IncidentRef, ProblemSpan } from './problem-timeline.js';

/** The row of `problems` (schemas/tables/problems.table.ts) this module builds. */
export type { ProblemRow };

export interface RowContext {
  triggerId: number;
  triggerName: string;
  ciId: number;
  tags: ReadonlyArray<{ id: number; name: string; colorName: string }>;
  influence: { value: number; maxInfluence: boolean };
  version: number;
  /** True when a maintenance mode covered the CI during [start, end) (end: now for open problems). */
  underMaintenance: (start: number, end: number) => boolean;
  now: number;
  /** What operators noted on the problem (acknowledgement, comments). */
  notesOf?: (problemId: string) => ProblemNotes | undefined;
}

/** The `acknowledged` column of a problem's notes. */
export function acknowledgedText(notes: ProblemNotes): string {
  const ack = notes.ack;
  return ack ? JSON.stringify({ by: ack.by, byName: ack.byName, at: new Date(ack.at).toISOString(), comment: ack.comment }) : '';
}

/** Incidents grouped by connector, the shape of spec 2.13. */
export function incidentGroups(refs: readonly IncidentRef[]) {
  const groups = new Map<number, { connector: { id: number; name: string }; incidents: Array<{ id: string; type: string }> }>();
  for (const ref of refs) {
    let group = groups.get(ref.connectorId);
    if (!group) groups.set(ref.connectorId, (group = { connector: { id: ref.connectorId, name: ref.connectorName }, incidents: [] }));
    group.incidents.push({ id: ref.id, type: ref.type });
  }
  return [...groups.values()];
}

export function problemRow(span: ProblemSpan, ctx: RowContext): ProblemRow {
  const notes = ctx.notesOf?.(span.id) ?? NO_NOTES;
  return {
    id: span.id,
    trigger_id: ctx.triggerId,
    trigger_name: ctx.triggerName,
    ci_id: ctx.ciId,
    date_start: clickhouseDateTime(span.start),
    date_end: span.end === null ? null : clickhouseDateTime(span.end),
    last_event_at: clickhouseDateTime(span.lastEventAt),
    priority: span.priority,
    tags: JSON.stringify(ctx.tags),
    incidents: JSON.stringify(incidentGroups(span.incidents)),
    influence_value: ctx.influence.value,
    influence_max: ctx.influence.maxInfluence ? 1 : 0,
    with_maintenance: ctx.underMaintenance(span.start, Math.max(span.end ?? ctx.now, span.start + 1)) ? 1 : 0,
    acknowledged: acknowledgedText(notes),
    comments_count: notes.comments,
    version: ctx.version,
    is_deleted: 0,
  };
}

/** The row that hides a problem a late record showed never existed. */
export function deletedProblemRow(id: string, ctx: RowContext): ProblemRow {
  const epoch = clickhouseDateTime(0);
  return {
    id,
    trigger_id: ctx.triggerId,
    trigger_name: ctx.triggerName,
    ci_id: ctx.ciId,
    date_start: epoch,
    date_end: epoch,
    last_event_at: epoch,
    priority: 0,
    tags: '[]',
    incidents: '[]',
    influence_value: 0,
    influence_max: 0,
    with_maintenance: 0,
    acknowledged: '',
    comments_count: 0,
    version: ctx.version,
    is_deleted: 1,
  };
}

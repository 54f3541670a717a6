/**
 * The notification events of the problem change feed (issue #31): one ProblemChange in, at most
 * one `problem.*` NotificationEvent out. Pure: the CI's name comes in through `ciName`.
 *
 * - `opened` → `problem.opened`;
 * - `acknowledged` → `problem.acknowledged`, by whom and with which comment (the row's
 *   acknowledgement);
 * - `resolved` → `problem.resolved`: `resolvedBy` is `hand` when an operator's action made it
 *   (the change carries the action's id), `record` when a resolving record or the close sweep did;
 * - every other change (`updated`, `commented`, `removed`) is no event;
 * - an `opened` whose row has already ended is both (problemEventsOf).
 *
 * The event's id is derived from (problem id, kind, row version): the same change read twice
 * (a feed read again after a restart, two dispatchers) gives the same id, which is the bus
 * message id of the event, so the duplicate window stores it once.
 */
import { createHash } from 'node:crypto';
import type { NotifiedProblem } from '../../schemas/notification-events.schema.js';
import type { ProblemChange } from '../problems/problem-changes.js';
import type { ProblemRow } from '../problems/problem-row.js';
import type { ProblemEvent } from './policy-match.js';

/** ClickHouse's `YYYY-MM-DD HH:MM:SS.mmm` (UTC) as ISO 8601. */
export const isoOfRowTime = (text: string): string => `${text.slice(0, 10)}T${text.slice(11, 23).padEnd(12, '.000').slice(0, 12)}Z`;

/** The stable id of the event a change makes. */
export function problemEventId(problemId: string, kind: ProblemEvent['kind'], version: number): string {
  return `evt_${createHash('sha256').update(`${problemId}\n${kind}\n${version}`).digest('hex').slice(0, 32)}`;
}

interface Acknowledgement {
  by: number;
  byName: string;
  at: string;
  comment: string | null;
}

function acknowledgementOf(row: ProblemRow): Acknowledgement | null {
  if (row.acknowledged === '') return null;
  try {
    return JSON.parse(row.acknowledged) as Acknowledgement;
  } catch {
    return null;
  }
}

function tagsOf(row: ProblemRow): NotifiedProblem['tags'] {
  try {
    const tags = JSON.parse(row.tags) as Array<{ name?: unknown }>;
    return tags.filter((t) => typeof t.name === 'string').map((t) => ({ name: t.name as string, value: null }));
  } catch {
    return [];
  }
}

const PRIORITIES = ['Problem1', 'Problem2', 'Problem3', 'Problem4'] as const;

/** The problem as a notification tells it. */
export function notifiedProblem(row: ProblemRow, ciName: (ciId: number) => string | undefined): NotifiedProblem {
  return {
    id: row.id,
    trigger: { id: row.trigger_id, name: row.trigger_name },
    configItem: { id: row.ci_id, name: ciName(row.ci_id) ?? `CI ${row.ci_id}` },
    priority: PRIORITIES[Math.min(Math.max(row.priority, 1), 4) - 1]!,
    dateStart: isoOfRowTime(row.date_start),
    dateEnd: row.date_end === null ? null : isoOfRowTime(row.date_end),
    tags: tagsOf(row),
    acknowledged: row.acknowledged !== '',
  };
}

/** The event a change makes, or null when it makes none. `now`: when a change without its own time was read. */
export function problemEventOf(change: ProblemChange, ciName: (ciId: number) => string | undefined, now: number): ProblemEvent | null {
  const { row } = change;
  if (row.is_deleted === 1) return null;
  const problem = notifiedProblem(row, ciName);
  switch (change.kind) {
    case 'opened':
      return { id: problemEventId(row.id, 'problem.opened', row.version), kind: 'problem.opened', time: problem.dateStart, problem };
    case 'acknowledged': {
      const ack = acknowledgementOf(row);
      return {
        id: problemEventId(row.id, 'problem.acknowledged', row.version),
        kind: 'problem.acknowledged',
        time: ack?.at ?? new Date(now).toISOString(),
        problem,
        by: { id: ack?.by ?? 0, name: ack?.byName ?? '' },
        comment: ack?.comment ?? null,
      };
    }
    case 'resolved':
      return {
        id: problemEventId(row.id, 'problem.resolved', row.version),
        kind: 'problem.resolved',
        time: problem.dateEnd ?? new Date(now).toISOString(),
        problem,
        resolvedBy: change.actionId === undefined ? 'record' : 'hand',
        // The row does not say who resolved it by hand; the action's row in problem_actions does.
        by: null,
      };
    default:
      return null;
  }
}

/**
 * The events a change makes. A problem opened and resolved within one step of the problem stage
 * (its opening and resolving records read together) is one `opened` change whose row already has
 * its end: it makes the `problem.opened` (the problem as it opened) and the `problem.resolved`,
 * so a receiver told it opened is told it ended.
 */
export function problemEventsOf(change: ProblemChange, ciName: (ciId: number) => string | undefined, now: number): ProblemEvent[] {
  const event = problemEventOf(change, ciName, now);
  if (!event) return [];
  if (event.kind !== 'problem.opened' || event.problem.dateEnd === null) return [event];
  const resolved = problemEventOf({ kind: 'resolved', row: change.row }, ciName, now)!;
  return [{ ...event, problem: { ...event.problem, dateEnd: null } }, resolved];
}

/**
 * The problem change feed (issue #30, DESIGN §11): what the keyed problem stage tells everyone
 * else after each group it wrote, in one bus message: the problems that changed as operators see
 * them (their rows as written) and its answers to the actions it was sent. SSE subscribers on
 * every API replica, the API's open-problem index and the notifications read this one feed.
 */
import type { ActionVerdict, ProblemAction, ProblemActionKind } from './problem-actions.js';
import type { ProblemRow } from './problem-row.js';
import type { ProblemSpan } from './problem-timeline.js';

/** `removed`: a late record showed the problem never existed (its row is deleted). */
export type ProblemChangeKind = 'opened' | 'updated' | 'acknowledged' | 'commented' | 'resolved' | 'removed';

export interface ProblemChange {
  kind: ProblemChangeKind;
  /** The problem's row as written (for `removed`, the row that hides it). */
  row: ProblemRow;
  /** The action that made the change, when one did. */
  actionId?: string;
}

export interface ChangesMessage {
  changes: ProblemChange[];
  verdicts: ActionVerdict[];
}

const kindOfAction: Record<ProblemActionKind, ProblemChangeKind> = {
  acknowledge: 'acknowledged',
  unacknowledge: 'updated',
  comment: 'commented',
  resolve: 'resolved',
};

const sameIncidents = (a: ProblemSpan, b: ProblemSpan): boolean =>
  a.incidents.length === b.incidents.length &&
  a.incidents.every((r, i) => r.connectorId === b.incidents[i]!.connectorId && r.id === b.incidents[i]!.id && r.type === b.incidents[i]!.type);

/** What an operator sees of a problem changed (not only its last record's date). */
const visiblyChanged = (was: ProblemSpan, now: ProblemSpan): boolean => was.start !== now.start || was.end !== now.end || was.priority !== now.priority || !sameIncidents(was, now);

/**
 * The changes of one key: `rows` as written for it, `before` the problems it held before
 * (by id), `after` those it holds or folded now (by id), `taken` the actions it took.
 * A row written again with nothing new (a redelivery repairing rows) is no change.
 */
export function keyChanges(
  rows: readonly ProblemRow[],
  before: ReadonlyMap<string, ProblemSpan>,
  after: ReadonlyMap<string, ProblemSpan>,
  taken: readonly ProblemAction[],
): ProblemChange[] {
  const byAction = new Map<string, ProblemAction>();
  for (const action of taken) byAction.set(action.problemId, action);
  const changes: ProblemChange[] = [];
  for (const row of rows) {
    const was = before.get(row.id);
    const action = byAction.get(row.id);
    if (row.is_deleted === 1) {
      if (was) changes.push({ kind: 'removed', row });
    } else if (action) {
      changes.push({ kind: kindOfAction[action.kind], row, actionId: action.id });
    } else {
      const now = after.get(row.id);
      if (!was) changes.push({ kind: 'opened', row });
      else if (now && was.end === null && now.end !== null) changes.push({ kind: 'resolved', row });
      else if (now && visiblyChanged(was, now)) changes.push({ kind: 'updated', row });
    }
  }
  return changes;
}

export const encodeChanges = (message: ChangesMessage): Uint8Array => Buffer.from(JSON.stringify(message));

/**
 * The message in parts of at most `maxBytes` each, in order: the changes first, then the answers,
 * so an answer never comes before the change its action made. A group of many changes would
 * otherwise exceed the bus's limit (NATS refuses a message over its max_payload) and be refused
 * again at every redelivery. One change larger than the limit is a part of its own.
 */
export function encodeChangeChunks(message: ChangesMessage, maxBytes: number): Uint8Array[] {
  const whole = encodeChanges(message);
  if (whole.length <= maxBytes) return [whole];
  const parts: Uint8Array[] = [];
  const empty = Buffer.byteLength(JSON.stringify({ changes: [], verdicts: [] }));
  let current: ChangesMessage = { changes: [], verdicts: [] };
  let size = empty;
  const add = (item: ProblemChange | ActionVerdict, into: 'changes' | 'verdicts'): void => {
    // The item and the comma before it.
    const itemBytes = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (size + itemBytes > maxBytes && current.changes.length + current.verdicts.length > 0) {
      parts.push(encodeChanges(current));
      current = { changes: [], verdicts: [] };
      size = empty;
    }
    (current[into] as Array<ProblemChange | ActionVerdict>).push(item);
    size += itemBytes;
  };
  for (const change of message.changes) add(change, 'changes');
  for (const verdict of message.verdicts) add(verdict, 'verdicts');
  if (current.changes.length + current.verdicts.length > 0) parts.push(encodeChanges(current));
  return parts;
}

export function decodeChanges(data: Uint8Array): ChangesMessage {
  const parsed = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as Partial<ChangesMessage>;
  return { changes: parsed.changes ?? [], verdicts: parsed.verdicts ?? [] };
}

/**
 * What operators do with a problem (issue #30): acknowledge it, take the acknowledgement back,
 * comment on it, resolve it by hand. An action is a message to the owner of the problem's key,
 * like a hit, so a key's changes stay serial; the owner applies it to the key's state (see
 * key-state.ts `applyToKey`) and answers whether it took it.
 */
import type { ProblemActionTableRow } from '../../schemas/tables/problem-actions.table.js';

export type ProblemActionKind = 'acknowledge' | 'unacknowledge' | 'comment' | 'resolve';

export interface ProblemAction {
  /** Chosen by the API for the request: a redelivered action is recognised by it. */
  id: string;
  kind: ProblemActionKind;
  problemId: string;
  triggerId: number;
  ciId: number;
  by: { id: number; name: string };
  /** When the request was made (ms); a resolve by hand ends the problem then. */
  at: number;
  /** The acknowledgement's or resolve's comment, or the comment's text. */
  text?: string;
}

export interface Acknowledgement {
  by: number;
  byName: string;
  at: number;
  comment: string | null;
}

/** What a problem carries besides its hits: its acknowledgement and how many comments it has. */
export interface ProblemNotes {
  ack: Acknowledgement | null;
  comments: number;
}

/** Why an action was refused (error catalogue codes). */
export type ActionRefusal = 'problem.closed' | 'problem.not_found';

export interface ActionVerdict {
  actionId: string;
  problemId: string;
  /** Absent when the action was taken. */
  refused?: ActionRefusal;
}

/** Action ids a key remembers, so a redelivered action changes nothing. */
export const REMEMBERED_ACTIONS = 64;

export const NO_NOTES: ProblemNotes = { ack: null, comments: 0 };

/** The id of the resolving hit a resolve by hand places: a redelivered resolve finds it placed. */
export const manualResolveHitId = (actionId: string): string => `manual:${actionId}`;

/** An action only an open problem takes. */
export const needsOpen = (kind: ProblemActionKind): boolean => kind !== 'comment';

/** A row of `problem_actions` (schemas/tables/problem-actions.table.ts), of a known kind. */
export type ProblemActionRow = ProblemActionTableRow & { kind: ProblemActionKind };

export const actionRow = (action: ProblemAction, at: (ms: number) => string): ProblemActionRow => ({
  problem_id: action.problemId,
  at: at(action.at),
  action_id: action.id,
  kind: action.kind,
  ci_id: action.ciId,
  by_id: action.by.id,
  by_name: action.by.name,
  text: action.text ?? '',
});

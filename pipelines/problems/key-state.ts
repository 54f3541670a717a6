/**
 * One (trigger, CI) key of the keyed problem stage (DESIGN §7a), as a pure step: given the key's
 * state and what arrived for it (trigger hits, and perhaps a close because its CI or trigger is
 * gone), the next state, the problems whose rows must be written, and whether the key's
 * open/closed summary changed (the only thing the control plane hears of). A hit already placed
 * changes nothing, so a redelivered batch is harmless.
 */
import { type ActionVerdict, manualResolveHitId, needsOpen, NO_NOTES, type ProblemAction, type ProblemNotes, REMEMBERED_ACTIONS } from './problem-actions.js';
import { DEFAULT_LIMITS, emptyTimeline, type Hit, type KeyTimeline, type ProblemSpan, placeHits, problemsOf, type TimelineLimits } from './problem-timeline.js';

export interface InfluenceFacts {
  value: number;
  maxInfluence: boolean;
}

/** What a key keeps of its trigger, so its rows keep it once the trigger is deleted. */
export interface TriggerFacts {
  name: string;
  influence: InfluenceFacts;
  tags: Array<{ id: number; name: string; colorName: string }>;
}

export interface KeyState extends KeyTimeline {
  triggerId: number;
  ciId: number;
  trigger: TriggerFacts;
  /** The problem open now, if any (derived from the timeline, kept for cheap reads). */
  open: ProblemSpan | null;
  /** Event time of the last opening or closing of a problem of this key. */
  changedAt: number;
  /** Problems the last change closed and folded out of the timeline: their rows say so. */
  folded: ProblemSpan[];
  /** Problems the last change showed never existed (re-ordered away): written as deleted. */
  removedIds: string[];
  /** Acknowledgements and comment counts of the problems the key holds (absent: none). */
  notes?: Record<string, ProblemNotes>;
  /** The last actions taken (absent: none), so a redelivered one changes nothing. */
  actionIds?: string[];
}

export interface KeyInput {
  hits: Hit[];
  /** The key's CI or trigger is gone: its open problem ends at this instant (after its last hit). */
  closeAt?: number;
  /** Operators' actions on the key's problems, applied after the hits and the close, in order. */
  actions?: readonly ProblemAction[];
}

export interface KeyOutcome {
  /** The next state; undefined when nothing changed. */
  state: KeyState | undefined;
  placed: number;
  tooLate: number;
  /** The key's summary (open or not) changed, or the key is new. */
  transition: boolean;
  /** One per action of the input, redelivered ones included (taken, or why not). */
  verdicts: ActionVerdict[];
  /** Problems whose notes the actions changed: their rows must be written. */
  touched: string[];
  /**
   * Comments on problems the key no longer holds (closed and folded out of its window): taken,
   * and left to the caller to count on the problems' stored rows.
   */
  outside: ProblemAction[];
}

const NO_FACTS: TriggerFacts = { name: '', influence: { value: 0, maxInfluence: false }, tags: [] };
const UNLIMITED: TimelineLimits = { lateWindowMs: Number.MAX_SAFE_INTEGER, maxHits: Number.MAX_SAFE_INTEGER };

/** One placement on the timeline, with what it folded and removed. */
function place(before: KeyState | undefined, triggerId: number, ciId: number, hits: readonly Hit[], facts: TriggerFacts, limits: TimelineLimits) {
  const placed = placeHits(before ?? emptyTimeline(), hits, triggerId, ciId, limits);
  if (placed.added === 0) return { state: undefined, placed };
  const remaining = problemsOf(placed.timeline, triggerId, ciId);
  const kept = new Set(remaining.map((p) => p.id));
  const last = remaining[remaining.length - 1];
  const transitions = placed.problems.flatMap((p) => (p.end === null ? [p.start] : [p.start, p.end]));
  const state: KeyState = {
    triggerId,
    ciId,
    settledUntil: placed.timeline.settledUntil,
    carry: placed.timeline.carry,
    hits: placed.timeline.hits,
    trigger: facts,
    open: last && last.end === null ? last : null,
    changedAt: transitions.length > 0 ? Math.max(...transitions) : (before?.changedAt ?? Math.min(...hits.map((h) => h.ts))),
    folded: placed.problems.filter((p) => !kept.has(p.id)),
    removedIds: placed.removedIds,
  };
  return { state: withKept(state, before), placed };
}

/** `state` with the notes and action ids of `before` that still matter: of problems it holds or just folded. */
function withKept(state: KeyState, before: KeyState | undefined): KeyState {
  if (before?.actionIds) state.actionIds = before.actionIds;
  if (!before?.notes) return state;
  const held = new Set([...problemsOf(state, state.triggerId, state.ciId), ...state.folded].map((p) => p.id));
  const notes = Object.fromEntries(Object.entries(before.notes).filter(([id]) => held.has(id)));
  if (Object.keys(notes).length > 0) state.notes = notes;
  return state;
}

/** Folds a second change into the first: the rows must show what both did. */
function merge(first: KeyState, second: KeyState): KeyState {
  const live = new Set(problemsOf(second, second.triggerId, second.ciId).map((p) => p.id));
  const folded = new Map<string, ProblemSpan>();
  for (const span of [...first.folded, ...second.folded]) folded.set(span.id, span);
  for (const id of folded.keys()) live.add(id);
  const removed = [...new Set([...first.removedIds, ...second.removedIds])].filter((id) => !live.has(id));
  return { ...second, folded: [...folded.values()], removedIds: removed };
}

/**
 * Places the hits, then the close, then the actions. `facts` is the trigger as the platform knows
 * it now (undefined once deleted: the key keeps what it knew).
 */
export function applyToKey(
  before: KeyState | undefined,
  triggerId: number,
  ciId: number,
  input: KeyInput,
  facts: TriggerFacts | undefined,
  limits: TimelineLimits = DEFAULT_LIMITS,
): KeyOutcome {
  const known = facts ?? before?.trigger ?? NO_FACTS;
  const byHits = place(before, triggerId, ciId, input.hits, known, limits);
  let state = byHits.state;
  const current = state ?? before;
  const closeId = `closed:${triggerId}:${ciId}:${input.closeAt}`;
  // A close's date follows the key's last hit, so a repeated close is known by its id alone.
  if (input.closeAt !== undefined && current?.open && !current.hits.some((h) => h.id === closeId)) {
    // After the last hit, so the close sorts last even when it is dated before it.
    const ts = Math.max(input.closeAt, current.open.lastEventAt + 1);
    const resolve: Hit = { id: closeId, ts, resolve: true, priority: current.open.priority, incidents: [] };
    const byClose = place(current, triggerId, ciId, [resolve], known, UNLIMITED);
    if (byClose.state) state = state ? merge(state, byClose.state) : byClose.state;
  }
  // Built on the state the hits and the close left, which it then replaces.
  const acted = applyActions(state, before, input.actions ?? [], known);
  if (acted.state) state = acted.state;
  const transition = state !== undefined && (before === undefined || (before.open === null) !== (state.open === null));
  return { state, placed: byHits.placed.added, tooLate: byHits.placed.tooLate, transition, verdicts: acted.verdicts, touched: acted.touched, outside: acted.outside };
}

/**
 * The actions, in order, on the key as it stands. Only an open problem of the key takes an
 * acknowledgement or a resolve; a comment goes to any problem (one the key no longer holds is
 * handed back in `outside`). An action the key took before (a redelivery) is answered as taken
 * and changes nothing.
 */
function applyActions(changed: KeyState | undefined, before: KeyState | undefined, actions: readonly ProblemAction[], facts: TriggerFacts) {
  const verdicts: KeyOutcome['verdicts'] = [];
  const touched = new Set<string>();
  const outside: ProblemAction[] = [];
  let state = changed;
  /** The state a change builds on: the one changed so far, or `before` with its last change's lists emptied. */
  const base = (current: KeyState): KeyState => state ?? { ...current, folded: [], removedIds: [] };
  for (const action of actions) {
    const current = state ?? before;
    const taken = { actionId: action.id, problemId: action.problemId };
    if (current?.actionIds?.includes(action.id) || current?.hits.some((h) => h.id === manualResolveHitId(action.id))) {
      verdicts.push(taken);
      continue;
    }
    // A problem this change folds is still this change's to write; one it showed never existed is gone.
    const span = current && (problemsOf(current, current.triggerId, current.ciId).find((p) => p.id === action.problemId) ?? state?.folded.find((p) => p.id === action.problemId));
    if (state?.removedIds.includes(action.problemId)) {
      verdicts.push({ ...taken, refused: 'problem.not_found' });
      continue;
    }
    if (needsOpen(action.kind) && (!span || span.end !== null)) {
      verdicts.push({ ...taken, refused: 'problem.closed' });
      continue;
    }
    verdicts.push(taken);
    if (!current || !span) {
      outside.push(action);
      if (current) state = remembered(base(current), action.id);
      continue;
    }
    let next = base(current);
    if (action.kind === 'resolve') {
      // After the last hit, as a close: the problem ends now, or just after its last record.
      const hit: Hit = { id: manualResolveHitId(action.id), ts: Math.max(action.at, span.lastEventAt + 1), resolve: true, priority: span.priority, incidents: [] };
      const resolved = place(next, next.triggerId, next.ciId, [hit], facts, UNLIMITED).state;
      if (resolved) next = merge(next, resolved);
    } else {
      const notes = { ...(next.notes ?? {}) };
      const was = notes[span.id] ?? NO_NOTES;
      if (action.kind === 'acknowledge') notes[span.id] = { ...was, ack: { by: action.by.id, byName: action.by.name, at: action.at, comment: action.text ?? null } };
      else if (action.kind === 'unacknowledge') notes[span.id] = { ...was, ack: null };
      else notes[span.id] = { ...was, comments: was.comments + 1 };
      next = { ...next, notes };
    }
    state = remembered(next, action.id);
    touched.add(span.id);
  }
  return { state, verdicts, touched: [...touched], outside };
}

/** `state` remembering that it took `actionId` (the last REMEMBERED_ACTIONS of them). */
function remembered(state: KeyState, actionId: string): KeyState {
  return { ...state, actionIds: [...(state.actionIds ?? []), actionId].slice(-REMEMBERED_ACTIONS) };
}

/** Every problem the key's last change may have touched: the folded ones and the window's. */
export const spansToWrite = (state: KeyState): ProblemSpan[] => [...state.folded, ...problemsOf(state, state.triggerId, state.ciId)];

const sameSpan = (a: ProblemSpan, b: ProblemSpan): boolean =>
  a.start === b.start &&
  a.end === b.end &&
  a.lastEventAt === b.lastEventAt &&
  a.priority === b.priority &&
  a.incidents.length === b.incidents.length &&
  a.incidents.every((r, i) => r.connectorId === b.incidents[i]!.connectorId && r.id === b.incidents[i]!.id && r.type === b.incidents[i]!.type);

/**
 * The problems the change from `before` to `after` created or altered: their rows are the only
 * ones to write (a hit refreshing an open problem alters one; one on a quiet key, none).
 */
export function changedSpans(before: KeyState | undefined, after: KeyState): ProblemSpan[] {
  if (!before) return spansToWrite(after);
  const was = new Map(problemsOf(before, before.triggerId, before.ciId).map((p) => [p.id, p]));
  return spansToWrite(after).filter((span) => {
    const old = was.get(span.id);
    return !old || !sameSpan(old, span);
  });
}

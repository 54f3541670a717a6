/**
 * One (trigger, CI) key of the keyed problem stage (DESIGN §7a), as a pure step: given the key's
 * state and what arrived for it (trigger hits, and perhaps a close because its CI or trigger is
 * gone), the next state, the problems whose rows must be written, and whether the key's
 * open/closed summary changed (the only thing the control plane hears of). A hit already placed
 * changes nothing, so a redelivered batch is harmless.
 */
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
}

export interface KeyInput {
  hits: Hit[];
  /** The key's CI or trigger is gone: its open problem ends at this instant (after its last hit). */
  closeAt?: number;
}

export interface KeyOutcome {
  /** The next state; undefined when nothing changed. */
  state: KeyState | undefined;
  placed: number;
  tooLate: number;
  /** The key's summary (open or not) changed, or the key is new. */
  transition: boolean;
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
  return { state, placed };
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
 * Places the hits, then the close. `facts` is the trigger as the platform knows it now
 * (undefined once deleted: the key keeps what it knew).
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
  const transition = state !== undefined && (before === undefined || (before.open === null) !== (state.open === null));
  return { state, placed: byHits.placed.added, tooLate: byHits.placed.tooLate, transition };
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

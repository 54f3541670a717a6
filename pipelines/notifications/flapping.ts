/**
 * Flapping (issue #31, "Without noise"): one (trigger, CI) key whose problems open and close too
 * often is told once that it flaps, then not at all until it has settled. Pure: the state of one
 * key, per policy, and an input at an injected instant `now` (epoch ms).
 *
 * - A transition is a `problem.opened` or a `problem.resolved` of the key. When more than
 *   `maxTransitions` (default 5) fall within the last `windowMinutes` (default 10) — the window
 *   (now − W, now] — the key is flapping: ONE `problem.flapping` goes out (its id the tipping
 *   event's id + `:flapping`, its time the tipping event's, with the count and the window).
 * - While it flaps nothing of the key goes out (opens, acknowledgements, resolves), with one
 *   exception: the resolve of the problem whose `problem.opened` went out before the flapping
 *   began, so no receiver is left with an opened that never ends (Alertmanager #226). When the
 *   tipping transition is that resolve, it goes out first, then the flapping message.
 * - The key settles once no transition came for W: from a tick or the next event at or after
 *   (last transition + W). It is then normal again, counting afresh. If a problem is open then,
 *   and its opening did not go out, ONE `problem.opened` goes out for it: its own opened event
 *   (same id, so the same delivery id everywhere), with the problem as last seen (acknowledged or
 *   not). If the key is closed then, nothing is said: it ended as it was last told.
 * - `now` is the instant of the input. For an event the dispatcher should pass the event's time,
 *   so a backlog replayed after a restart counts the key's real history, not the replay's speed.
 * - Transitions are counted per policy, over the problems it selected: for every policy that
 *   selects all of a key's problems the count is the key's own.
 * - The state is undefined when there is nothing to remember (not flapping, closed, no
 *   transition in the window), so the caller may forget the key.
 */
import type { ProblemEvent, ProblemFlappingEvent, ProblemOpenedEvent } from './policy-match.js';

export interface FlappingOptions {
  /** More transitions than this within the window make a key flap. */
  maxTransitions: number;
  windowMinutes: number;
}

export const DEFAULT_FLAPPING: FlappingOptions = { maxTransitions: 5, windowMinutes: 10 };

export interface FlapState {
  /** Instants of the key's opens and closes within the window (all of them while it flaps). */
  transitions: number[];
  /** When the key began to flap; null: it does not. */
  flappingSince: number | null;
  /** The key's open problem (its opened event, the problem as last seen); null: the key is closed. */
  open: ProblemOpenedEvent | null;
  /** The open problem's `problem.opened` went out. */
  told: boolean;
}

export type FlapInput = { kind: 'event'; event: ProblemEvent } | { kind: 'tick' };

export interface FlapOutcome {
  state: FlapState | undefined;
  /** What goes on, in order. */
  events: Array<ProblemEvent | ProblemFlappingEvent>;
}

/** The key of an event about a problem: its trigger and CI. */
export const flapKey = (event: ProblemEvent): string => `${event.problem.trigger.id}:${event.problem.configItem.id}`;

const EMPTY: FlapState = { transitions: [], flappingSince: null, open: null, told: false };
const windowMs = (options: FlappingOptions): number => options.windowMinutes * 60_000;
const lastOf = (transitions: readonly number[]): number => Math.max(...transitions);

/** When a tick would settle the key; null when it is not flapping. */
export const flapDueAt = (state: FlapState | undefined, options: FlappingOptions = DEFAULT_FLAPPING): number | null =>
  state && state.flappingSince !== null ? lastOf(state.transitions) + windowMs(options) : null;

/** The state, or undefined when it holds nothing worth keeping. */
const kept = (state: FlapState): FlapState | undefined => (state.flappingSince === null && state.open === null && state.transitions.length === 0 ? undefined : state);

/** Settles a flapping key that saw no transition for the window; what it says then. */
function settle(state: FlapState, now: number, options: FlappingOptions): FlapOutcome & { state: FlapState } {
  // Not yet settled, a flapping key's last transition is within the window, so it is kept.
  const pruned = { ...state, transitions: state.transitions.filter((ts) => ts > now - windowMs(options)) };
  if (state.flappingSince === null || now < lastOf(state.transitions) + windowMs(options)) return { state: pruned, events: [] };
  const settled: FlapState = { transitions: [], flappingSince: null, open: state.open, told: state.told };
  if (!state.open || state.told) return { state: settled, events: [] };
  return { state: { ...settled, told: true }, events: [state.open] };
}

/** The key's open problem after `event`. */
function openAfter(state: FlapState, event: ProblemEvent): ProblemOpenedEvent | null {
  const open = state.open;
  if (event.kind === 'problem.opened') return event;
  const same = open !== null && open.problem.id === event.problem.id;
  if (event.kind === 'problem.acknowledged') return same ? { ...open, problem: event.problem } : open;
  return same ? null : open;
}

/** One input on one key: an event about one of its problems, or a tick of the clock. */
export function flapStep(before: FlapState | undefined, input: FlapInput, now: number, options: FlappingOptions = DEFAULT_FLAPPING): FlapOutcome {
  const settled = settle(before ?? EMPTY, now, options);
  if (input.kind === 'tick') return { state: kept(settled.state), events: settled.events };
  const { event } = input;
  const state = settled.state;
  const transition = event.kind !== 'problem.acknowledged';
  const transitions = transition ? [...state.transitions, now] : state.transitions;
  const starts = state.flappingSince === null && transitions.length > options.maxTransitions;
  const flapping = state.flappingSince !== null || starts;
  // While flapping only the end of a problem whose opening went out goes on.
  const endsTold = event.kind === 'problem.resolved' && state.told && state.open?.problem.id === event.problem.id;
  const passes = !flapping || endsTold;
  const open = openAfter(state, event);
  const told = open === null ? false : event.kind === 'problem.opened' ? passes : state.told;
  const next: FlapState = { transitions, flappingSince: starts ? now : state.flappingSince, open, told };
  const events: FlapOutcome['events'] = [...settled.events];
  if (passes) events.push(event);
  if (starts) {
    events.push({
      id: `${event.id}:flapping`,
      time: event.time,
      kind: 'problem.flapping',
      trigger: event.problem.trigger,
      configItem: event.problem.configItem,
      transitions: transitions.length,
      windowSeconds: options.windowMinutes * 60,
    });
  }
  return { state: kept(next), events };
}

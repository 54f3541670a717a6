/**
 * Repeats (issue #31): a problem still open is told again every `repeatIntervalSeconds` of its
 * policy, to each receiver that was told it opened. Pure: the state of one (policy, receiver,
 * problem), the events that receiver was let through (after flapping and the maintenance gate)
 * and ticks of the clock, at an injected instant `now` (epoch ms).
 *
 * - The first repeat is due one interval after the `problem.opened` went through, then every
 *   interval after that (slots opened + k·interval, whatever the ticks' jitter).
 * - A repeat is the `problem.opened` again, the problem as it was told, with the due slot's time and
 *   its own id `<opened id>:repeat:<slot, epoch ms>`: stable, and distinct from the first message.
 * - A tick that finds several slots passed sends one repeat (for the latest), not a burst.
 * - A slot that passes while maintenance covers the CI (`covered`) is skipped, not sent later.
 * - An acknowledgement stops the repeats (someone has the problem), as does the resolve; an
 *   opened that tells an acknowledged problem (one held in maintenance or flapping and
 *   acknowledged meanwhile) starts none.
 * - No interval (null): no state, no repeat.
 * - `untilResolved` (an Alertmanager receiver, whose alerts expire unless pushed again): the
 *   acknowledgement does not stop the repeats, it changes what they tell (the problem as
 *   acknowledged); only the resolve does.
 */
import type { ProblemEvent, ProblemOpenedEvent } from './policy-match.js';

export interface RepeatState {
  /** The problem's opened event, as it went out. */
  opened: ProblemOpenedEvent;
  /** The next slot a repeat is due at. */
  nextAt: number;
}

export type RepeatInput = { kind: 'event'; event: ProblemEvent } | { kind: 'tick'; covered: boolean };

/** What stops the repeats: the first acknowledgement (people), or only the resolve (an Alertmanager). */
export type RepeatUntil = 'acknowledged' | 'resolved';

export interface RepeatOutcome {
  state: RepeatState | undefined;
  events: ProblemOpenedEvent[];
}

export const repeatDueAt = (state: RepeatState | undefined): number | null => state?.nextAt ?? null;

/** One input on one (policy, receiver, problem). */
export function repeatStep(state: RepeatState | undefined, input: RepeatInput, now: number, intervalSeconds: number | null, until: RepeatUntil = 'acknowledged'): RepeatOutcome {
  if (intervalSeconds === null || intervalSeconds <= 0) return { state: undefined, events: [] };
  const interval = intervalSeconds * 1000;
  if (input.kind === 'event') {
    const event = input.event;
    const keepsOn = until === 'resolved' || !event.problem.acknowledged;
    if (event.kind === 'problem.opened' && keepsOn) return { state: state ?? { opened: event, nextAt: now + interval }, events: [] };
    if (event.kind === 'problem.acknowledged' && until === 'resolved' && state) return { state: { ...state, opened: { ...state.opened, problem: event.problem } }, events: [] };
    return { state: undefined, events: [] };
  }
  if (!state || now < state.nextAt) return { state, events: [] };
  const passed = Math.floor((now - state.nextAt) / interval) + 1;
  const nextAt = state.nextAt + passed * interval;
  const slot = nextAt - interval;
  const events = input.covered ? [] : [{ ...state.opened, id: `${state.opened.id}:repeat:${slot}`, time: new Date(slot).toISOString() }];
  return { state: { ...state, nextAt }, events };
}

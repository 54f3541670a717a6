/**
 * The maintenance gate (issue #31, "Without noise"): what one receiver of one policy hears of one
 * problem while maintenance covers the problem's CI. Pure and timeless: the state of one
 * (policy, receiver, problem) and one input — an event about the problem, or a maintenance mode
 * starting or ending on its CI.
 *
 * - Nothing is sent for the problem while a mode covers its CI: its `problem.opened` is held
 *   (with the problem as last seen: an acknowledgement during the mode updates it), its
 *   acknowledgements are dropped.
 * - When the last covering mode ends (modes may overlap) and the problem is still open, ONE
 *   `problem.opened` goes out: the held event itself (same id and time, so the same delivery id
 *   on every retry and every dispatcher).
 * - A `problem.resolved` goes out only to a receiver that was told the problem opened — and then
 *   always, even during maintenance: a receiver told of a problem before a mode began hears its
 *   end when it comes, not at the mode's end (a resolved must follow an opened the receiver got,
 *   Alertmanager #226). So a problem born and resolved inside maintenance sends nothing at all.
 * - A problem told before the mode began is not told again when it ends.
 * - A second `problem.opened` for a problem already told (a redelivery) is dropped.
 * - "Told" means the opened passed this gate. The policy's `kinds` are checked after it, so a
 *   policy that sends resolves but not opens gets the resolves of the problems it would have told.
 *
 * A `problem.flapping` about a covered CI is dropped by the caller (index.ts) with `isCovered`.
 * The state is undefined once the problem is over for the receiver (resolved, or never told and
 * nothing held); the caller then forgets it.
 */
import type { ProblemEvent, ProblemOpenedEvent } from './policy-match.js';

export interface ProblemGate {
  /** The problem's CI, whose maintenance signals the caller forwards here. */
  ciId: number;
  /** The active maintenance modes covering the CI (ids). */
  modes: number[];
  /** The receiver was told the problem opened. */
  told: boolean;
  /** Its `problem.opened`, held while covered. */
  held: ProblemOpenedEvent | null;
}

export type GateInput = { kind: 'event'; event: ProblemEvent } | { kind: 'maintenance.started'; maintenanceId: number } | { kind: 'maintenance.ended'; maintenanceId: number };

export interface GateOutcome {
  state: ProblemGate | undefined;
  events: ProblemEvent[];
}

/** The gate of a problem first seen now, on `ciId`, which the modes `activeModes` cover. */
export const openGate = (ciId: number, activeModes: readonly number[]): ProblemGate => ({ ciId, modes: [...activeModes], told: false, held: null });

export const isCovered = (gate: ProblemGate): boolean => gate.modes.length > 0;

/** The gate after a change, or undefined when nothing of it matters any more. */
const kept = (gate: ProblemGate): ProblemGate | undefined => (gate.told || gate.held ? gate : undefined);

function onEvent(gate: ProblemGate, event: ProblemEvent): GateOutcome {
  const covered = isCovered(gate);
  switch (event.kind) {
    case 'problem.opened':
      if (gate.told) return { state: gate, events: [] };
      if (covered) return { state: { ...gate, held: event }, events: [] };
      return { state: { ...gate, told: true, held: null }, events: [event] };
    case 'problem.acknowledged':
      if (covered) return { state: kept(gate.held ? { ...gate, held: { ...gate.held, problem: event.problem } } : gate), events: [] };
      return { state: kept(gate), events: gate.told ? [event] : [] };
    case 'problem.resolved':
      return { state: undefined, events: gate.told ? [event] : [] };
  }
}

/** One input on one (policy, receiver, problem). */
export function gateStep(gate: ProblemGate, input: GateInput): GateOutcome {
  if (input.kind === 'event') return onEvent(gate, input.event);
  if (input.kind === 'maintenance.started') {
    if (gate.modes.includes(input.maintenanceId)) return { state: gate, events: [] };
    return { state: { ...gate, modes: [...gate.modes, input.maintenanceId] }, events: [] };
  }
  const modes = gate.modes.filter((id) => id !== input.maintenanceId);
  if (modes.length > 0 || !gate.held) return { state: { ...gate, modes }, events: [] };
  return { state: { ...gate, modes, told: true, held: null }, events: [gate.held] };
}

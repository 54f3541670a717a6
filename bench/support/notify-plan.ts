/**
 * The transitions of the notifications benchmark, shared by the load generator (which sends the
 * record of each), the receiver (which names what it got) and the orchestrator (which joins
 * them). Every record is a transition: no record repeats a key's state.
 *
 * Slot k of a plan (0 ≤ k < 2 · cis · checks) is sent at k / rate seconds. The plan runs in
 * blocks of 2 · cis slots, one per check (trigger): block b opens check b's problem on CI 0, 1, …,
 * cis − 1, then resolves them in the same order, so every (trigger, CI) key makes exactly one
 * `problem.opened` and one `problem.resolved`, its resolve sent cis / rate seconds after its open
 * (whose record was acknowledged long before). Two transitions per key stay far under the
 * flapping rule (more than 5 per key in 10 minutes), which would otherwise hold messages back.
 */

/** The measured triggers' names, which are also the records' `check` value. */
export const CHECKS = ['cpu', 'mem', 'disk', 'net', 'load', 'swap', 'ntp', 'dns', 'tls', 'ping'] as const;
/** The warm-up's trigger. */
export const WARM_CHECK = 'warmup';

export type TransitionKind = 'opened' | 'resolved';

export interface PlanSpec {
  /** CI names are `<ciPrefix><i>`, i from 0. */
  ciPrefix: string;
  cis: number;
  /** The triggers' names (the records' `check`), one block each. */
  checks: string[];
}

export interface Transition {
  ci: string;
  check: string;
  kind: TransitionKind;
}

export const transitionsOf = (spec: PlanSpec): number => 2 * spec.cis * spec.checks.length;

export function transitionAt(spec: PlanSpec, slot: number): Transition {
  const block = Math.floor(slot / (2 * spec.cis));
  const within = slot % (2 * spec.cis);
  return {
    ci: `${spec.ciPrefix}${within % spec.cis}`,
    check: spec.checks[block]!,
    kind: within < spec.cis ? 'opened' : 'resolved',
  };
}

/** The record that makes the transition; `at` its date (epoch ms). */
export function recordOf(t: Transition, at: number): string {
  return JSON.stringify({ '@timestamp': new Date(at).toISOString(), check: t.check, host: t.ci, severity: 'major', status: t.kind === 'opened' ? 'firing' : 'ok' });
}

/** One name for a transition, as every process sees it: CI name, trigger name, kind. */
export const keyOf = (ci: string, check: string, kind: TransitionKind): string => `${ci}|${check}|${kind}`;

/**
 * Notification routing (issue #31) as one pure step: `route(state, input, now) → { state, messages }`.
 * The rules are the files beside this one; this composes them, in this order, per policy:
 *
 *   match (policy-match) ▸ flapping (per trigger and CI) ▸ maintenance gate (per receiver and
 *   problem) ▸ repeat (per receiver and problem) ▸ the policy's kinds ▸ grouping (per receiver)
 *
 * - Inputs are events (the dispatcher makes them from the problem change feed, the maintenance
 *   windows and the live SLA) and ticks. `now` (epoch ms) is the input's instant: for an event,
 *   when the platform learned it (the dispatcher's clock as it read the change; a late record's
 *   event time may be long past); for a tick, the clock. Nothing here reads a clock, a socket or a file.
 * - A `maintenance.started` / `maintenance.ended` event is also the gate's signal: the CIs it
 *   names (all of them, before any policy hides those it may not read) are covered from the
 *   first to the last of their overlapping modes. It is sent to the policies that select it
 *   first, then the gate releases what the mode held.
 * - A tick settles flapping keys whose window has passed (and forgets quiet ones), sends the
 *   repeats due, then hands over the groups closed by `now`. An event hands over only the closed group of the (policy,
 *   receiver) it joins: call `route` with a tick at `nextDueAt(state)`.
 * - A `problem.flapping` about a CI under maintenance is dropped.
 * - The state is plain data (JSON-safe) so the dispatcher may snapshot it. Each input copies the
 *   records of the policies it touches; a dispatcher with very many open problems may instead keep
 *   the per-key states in its own maps and call the exported steps directly, in the same order.
 */
import type { NotificationEvent } from '../../schemas/notification-events.schema.js';
import { DEFAULT_FLAPPING, flapDueAt, type FlapInput, flapKey, type FlappingOptions, type FlapState, flapStep } from './flapping.js';
import { addToGroup, emptyGrouping, flushGroups, type GroupingState, MAX_GROUP_EVENTS, nextFlushAt, type RoutedMessage } from './grouping.js';
import { type GateInput, gateStep, isCovered, openGate, type ProblemGate } from './maintenance-gate.js';
import { type CmdbView, isProblemEvent, listsKind, matchPolicies, type PolicyRule, type ProblemEvent, type ProblemFlappingEvent } from './policy-match.js';
import { repeatDueAt, repeatStep, type RepeatState, type RepeatUntil } from './repeat.js';

export * from './flapping.js';
export * from './grouping.js';
export * from './maintenance-gate.js';
export * from './policy-match.js';
export * from './repeat.js';

export interface RouterConfig {
  policies: readonly PolicyRule[];
  cmdb: CmdbView;
  flapping?: FlappingOptions;
  maxGroupEvents?: number;
  /**
   * A receiver that must be told an open problem again every so many seconds until it resolves,
   * acknowledged or not, whatever its policy's repeat interval (an Alertmanager: its alerts
   * expire unless pushed again); null for the others.
   */
  resendSeconds?: (receiverId: number) => number | null;
}

/** What routing keeps for one policy. */
export interface PolicyRouteState {
  /** By `triggerId:ciId`. */
  flaps: Record<string, FlapState>;
  /** By `receiverId:problemId`. */
  gates: Record<string, ProblemGate>;
  /** By `receiverId:problemId`. */
  repeats: Record<string, RepeatState>;
}

export interface RouteState {
  /** CI id → the active maintenance modes covering it. */
  covering: Record<string, number[]>;
  /** By policy id. */
  policies: Record<string, PolicyRouteState>;
  grouping: GroupingState;
}

export type RouteInput = { kind: 'event'; event: NotificationEvent } | { kind: 'tick' };

export interface RouteOutcome {
  state: RouteState;
  /** In the order they must leave. */
  messages: RoutedMessage[];
}

export interface Router {
  route(state: RouteState, input: RouteInput, now: number): RouteOutcome;
  /** The inputs in order, each at its instant: the same outcome as routing them one by one. */
  routeAll(state: RouteState, inputs: ReadonlyArray<{ input: RouteInput; at: number }>): RouteOutcome;
  /** The earliest instant a tick has something to do; null: nothing waits. */
  nextDueAt(state: RouteState): number | null;
}

/**
 * The state to start from. `covering` (CI id → active mode ids) seeds the maintenance the
 * dispatcher's view shows active now: the maintenance events of modes that began before it
 * started are not replayed.
 */
export const emptyRoute = (covering: Record<string, number[]> = {}): RouteState => ({ covering, policies: {}, grouping: emptyGrouping() });

const EMPTY_POLICY: PolicyRouteState = { flaps: {}, gates: {}, repeats: {} };

export function createRouter(config: RouterConfig): Router {
  const flapping = config.flapping ?? DEFAULT_FLAPPING;
  const maxGroupEvents = config.maxGroupEvents ?? MAX_GROUP_EVENTS;
  /** How often, and until what, one receiver of the policy is told an open problem again. */
  const repeatOf = (policy: PolicyRule, receiverId: number): [number | null, RepeatUntil] => {
    const resend = config.resendSeconds?.(receiverId) ?? null;
    return resend !== null ? [resend, 'resolved'] : [policy.repeatIntervalSeconds, 'acknowledged'];
  };

  /**
   * One run's work (one input, or a batch of them): a copy of the state it changes, and the
   * messages it makes. A per-key record (gates, repeats, flaps) is copied the first time the run
   * changes it and changed in place after that, so a batch costs one copy per record it touches,
   * not one per input; the state given in is never changed.
   */
  class Run {
    covering: Record<string, number[]>;
    policies: Record<string, PolicyRouteState>;
    grouping: GroupingState;
    readonly messages: RoutedMessage[] = [];
    /** Records this run made, which it may change in place. */
    private readonly own = new WeakSet<object>();

    constructor(
      state: RouteState,
      public now: number,
    ) {
      this.covering = state.covering;
      this.policies = state.policies;
      this.grouping = state.grouping;
    }

    put<T>(record: Record<string, T>, key: string, value: T | undefined): Record<string, T> {
      const next = this.own.has(record) ? record : { ...record };
      this.own.add(next);
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    }

    state = (): RouteState => ({ covering: this.covering, policies: this.policies, grouping: this.grouping });
    of = (policy: PolicyRule): PolicyRouteState => this.policies[policy.id] ?? EMPTY_POLICY;
    set(policy: PolicyRule, change: Partial<PolicyRouteState>): void {
      this.policies = { ...this.policies, [policy.id]: { ...this.of(policy), ...change } };
    }
    modesOn = (ciId: number): number[] => this.covering[ciId] ?? [];

    /** The policy's last checks (its kinds), then the receiver's group. */
    send(policy: PolicyRule, receiverId: number, event: NotificationEvent): void {
      if (!listsKind(policy, event.kind)) return;
      const added = addToGroup(this.grouping, { policyId: policy.id, receiverId, windowSeconds: policy.groupWindowSeconds }, event, this.now, maxGroupEvents);
      this.grouping = added.state;
      this.messages.push(...added.messages);
    }

    /** What the gate let through to one receiver: noted for repeats, then sent. */
    told(policy: PolicyRule, receiverId: number, events: readonly ProblemEvent[]): void {
      for (const event of events) {
        const key = `${receiverId}:${event.problem.id}`;
        const repeats = this.of(policy).repeats;
        const next = repeatStep(repeats[key], { kind: 'event', event }, this.now, ...repeatOf(policy, receiverId));
        if (next.state !== repeats[key]) this.set(policy, { repeats: this.put(repeats, key, next.state) });
        this.send(policy, receiverId, event);
      }
    }

    /** One problem's gate for one receiver. */
    gate(policy: PolicyRule, receiverId: number, problemId: string, ciId: number, input: GateInput): void {
      const key = `${receiverId}:${problemId}`;
      const gates = this.of(policy).gates;
      const before = gates[key];
      if (!before && input.kind !== 'event') return;
      const outcome = gateStep(before ?? openGate(ciId, this.modesOn(ciId)), input);
      if (outcome.state !== before) this.set(policy, { gates: this.put(gates, key, outcome.state) });
      this.told(policy, receiverId, outcome.events);
    }

    /** What flapping let through, to each receiver of the policy. */
    afterFlapping(policy: PolicyRule, events: ReadonlyArray<ProblemEvent | ProblemFlappingEvent>): void {
      for (const event of events) {
        for (const receiverId of policy.receiverIds) {
          if (event.kind === 'problem.flapping') {
            if (this.modesOn(event.configItem.id).length === 0) this.send(policy, receiverId, event);
          } else {
            this.gate(policy, receiverId, event.problem.id, event.problem.configItem.id, { kind: 'event', event });
          }
        }
      }
    }

    flap(policy: PolicyRule, key: string, input: FlapInput): void {
      const flaps = this.of(policy).flaps;
      const outcome = flapStep(flaps[key], input, this.now, flapping);
      if (outcome.state !== flaps[key]) this.set(policy, { flaps: this.put(flaps, key, outcome.state) });
      this.afterFlapping(policy, outcome.events);
    }

    /** A mode started or ended: the covered CIs, then every gate of a problem on them. */
    maintenance(maintenanceId: number, ciIds: readonly number[], started: boolean): void {
      const covering = { ...this.covering };
      for (const ciId of ciIds) {
        const modes = (covering[ciId] ?? []).filter((id) => id !== maintenanceId);
        if (started) modes.push(maintenanceId);
        if (modes.length > 0) covering[ciId] = modes;
        else delete covering[ciId];
      }
      this.covering = covering;
      const on = new Set(ciIds);
      for (const policy of config.policies) {
        for (const [key, gate] of Object.entries(this.of(policy).gates)) {
          if (!on.has(gate.ciId)) continue;
          const [receiverId, problemId] = splitKey(key);
          this.gate(policy, receiverId, problemId, gate.ciId, { kind: started ? 'maintenance.started' : 'maintenance.ended', maintenanceId });
        }
      }
    }

    event(event: NotificationEvent): void {
      const matches = matchPolicies(config.policies, event, config.cmdb);
      if (event.kind === 'maintenance.started' || event.kind === 'maintenance.ended') {
        for (const { policy, event: seen } of matches) for (const receiverId of policy.receiverIds) this.send(policy, receiverId, seen);
        this.maintenance(
          event.maintenance.id,
          event.maintenance.configItems.map((ci) => ci.id),
          event.kind === 'maintenance.started',
        );
        return;
      }
      for (const { policy, event: seen } of matches) {
        if (isProblemEvent(seen)) this.flap(policy, flapKey(seen), { kind: 'event', event: seen });
        else if (seen.kind === 'problem.flapping') this.afterFlapping(policy, [seen]);
        else for (const receiverId of policy.receiverIds) this.send(policy, receiverId, seen);
      }
    }

    tick(): void {
      for (const policy of config.policies) {
        this.tickFlaps(policy);
        this.tickRepeats(policy);
      }
      const flushed = flushGroups(this.grouping, this.now);
      this.grouping = flushed.state;
      this.messages.push(...flushed.messages);
    }

    /** Settles the keys due, forgets the quiet ones; the others are not touched (one copy per tick). */
    tickFlaps(policy: PolicyRule): void {
      const flaps = { ...this.of(policy).flaps };
      const events: Array<ProblemEvent | ProblemFlappingEvent> = [];
      let changed = false;
      for (const [key, flap] of Object.entries(flaps)) {
        const due = flapDueAt(flap, flapping);
        const quiet = flap.open === null && flap.transitions.every((ts) => ts <= this.now - flapping.windowMinutes * 60_000);
        if (!(due !== null && due <= this.now) && !quiet) continue;
        const outcome = flapStep(flap, { kind: 'tick' }, this.now, flapping);
        if (outcome.state) flaps[key] = outcome.state;
        else delete flaps[key];
        events.push(...outcome.events);
        changed = true;
      }
      if (changed) this.set(policy, { flaps });
      this.afterFlapping(policy, events);
    }

    /** Sends the repeats due (none for a CI under maintenance); drops those of receivers the policy lost. */
    tickRepeats(policy: PolicyRule): void {
      const own = this.of(policy);
      const repeats = { ...own.repeats };
      const receivers = new Set(policy.receiverIds);
      const due: Array<[number, ProblemEvent]> = [];
      let changed = false;
      for (const [key, repeat] of Object.entries(repeats)) {
        const [receiverId] = splitKey(key);
        if (receivers.has(receiverId) && repeat.nextAt > this.now) continue;
        const gate = own.gates[key];
        const outcome = receivers.has(receiverId)
          ? repeatStep(repeat, { kind: 'tick', covered: gate ? isCovered(gate) : false }, this.now, ...repeatOf(policy, receiverId))
          : { state: undefined, events: [] };
        if (outcome.state) repeats[key] = outcome.state;
        else delete repeats[key];
        for (const event of outcome.events) due.push([receiverId, event]);
        changed = true;
      }
      if (changed) this.set(policy, { repeats });
      for (const [receiverId, event] of due) this.send(policy, receiverId, event);
    }
  }

  function routeAll(state: RouteState, inputs: ReadonlyArray<{ input: RouteInput; at: number }>): RouteOutcome {
    const run = new Run(state, inputs[0]?.at ?? 0);
    for (const { input, at } of inputs) {
      run.now = at;
      if (input.kind === 'tick') run.tick();
      else run.event(input.event);
    }
    return { state: run.state(), messages: run.messages };
  }

  return {
    route: (state, input, now) => routeAll(state, [{ input, at: now }]),
    routeAll,
    nextDueAt(state) {
      let next: number | null = nextFlushAt(state.grouping);
      const consider = (due: number | null) => {
        if (due !== null && (next === null || due < next)) next = due;
      };
      for (const policy of config.policies) {
        const own = state.policies[policy.id];
        if (!own) continue;
        for (const flap of Object.values(own.flaps)) consider(flapDueAt(flap, flapping));
        for (const repeat of Object.values(own.repeats)) consider(repeatDueAt(repeat));
      }
      return next;
    },
  };
}

/** `receiverId:problemId` → its parts. */
function splitKey(key: string): [number, string] {
  const at = key.indexOf(':');
  return [Number(key.slice(0, at)), key.slice(at + 1)];
}

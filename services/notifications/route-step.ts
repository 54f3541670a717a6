/**
 * One routing step of the dispatcher (issue #31): events (a batch of the routing consumer) or a
 * tick, through the pure router (pipelines/notifications), on the durable state of
 * route-store.ts.
 *
 *   load ▸ publish the outbox the last step left ▸ route ▸ write state + outbox (compare-and-set)
 *   ▸ publish the new outbox
 *
 * A write that finds the record changed (another dispatcher's step, or this one's ticker) loads
 * again and routes again on what the other wrote, so steps are serial across every process; the
 * events are acked by the caller only after the write. A step that changes nothing writes nothing;
 * one that finds another process's outbox publishes it again (the stream drops the repeats by
 * their message ids) and clears it.
 * Steps of one process are queued, so its consumer and ticker do not race each other.
 */
import type { NotificationEvent } from '../../schemas/notification-events.schema.js';
import type { RouteInput, Router, RouteState } from '../../pipelines/notifications/index.js';
import type { RoutedMessage } from '../../pipelines/notifications/grouping.js';
import type { DeliveryEnvelope } from './notify-envelope.js';
import { RECENT_IDS, type RouteStore, type StoredRoute } from './route-store.js';

/** Writes lost to other steps before this one gives up (its events are then retried). */
const MAX_ATTEMPTS = 50;

export interface TimedEvent {
  event: NotificationEvent;
  /** The event's instant, as routing takes it (its time). */
  at: number;
}

/** What a source (maintenance windows, SLA burn) tells at a tick, and what it then remembers. */
export interface SourceOutcome {
  events: NotificationEvent[];
  seen: Record<string, unknown>;
  /** Route the events for the state they set (which CIs maintenance covers), sending nothing. */
  silent?: boolean;
}

export interface RouteStepDeps {
  store: RouteStore;
  /** The router for the policies and receivers as they are now. */
  router: () => Router;
  /** Publishes deliveries to the stream (each partition's in the order given). */
  publish: (envelopes: readonly DeliveryEnvelope[]) => Promise<void>;
  now: () => number;
  /** Called at each tick with what the sources saw last; null: nothing changed. */
  sources?: (seen: Record<string, unknown>, now: number) => SourceOutcome | null;
}

export interface Routing {
  /** Routes the events in order; resolves once their outcome is written and published. */
  events(events: readonly TimedEvent[]): Promise<void>;
  /** Sends what is due at `now` (closed groups, repeats, settled flapping keys) and what the sources tell. */
  tick(): Promise<void>;
}

interface Draft {
  state: RouteState;
  messages: RoutedMessage[];
  routed: string[];
  sources: Record<string, unknown>;
}

export function createRouting(deps: RouteStepDeps): Routing {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = (work: () => Promise<void>): Promise<void> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };

  function draft(stored: StoredRoute, router: Router, events: readonly TimedEvent[], tick: boolean): Draft {
    const recent = new Set(stored.recent);
    const out: Draft = { state: stored.state, messages: [], routed: [], sources: stored.sources };
    const route = (inputs: Array<{ input: RouteInput; at: number }>) => {
      if (inputs.length === 0) return;
      const routed = router.routeAll(out.state, inputs);
      out.state = routed.state;
      out.messages.push(...routed.messages);
    };
    const fresh: TimedEvent[] = [];
    for (const timed of events) {
      if (recent.has(timed.event.id)) continue;
      recent.add(timed.event.id);
      fresh.push(timed);
    }
    out.routed = fresh.map(({ event }) => event.id);
    route(fresh.map(({ event, at }) => ({ input: { kind: 'event', event }, at })));
    if (tick) {
      const now = deps.now();
      const told = deps.sources?.(stored.sources, now);
      if (told) {
        const before = out.messages.length;
        route(told.events.map((event) => ({ input: { kind: 'event', event }, at: now })));
        if (told.silent) out.messages.length = before;
        out.sources = told.seen;
      }
      const due = router.nextDueAt(out.state);
      if (due !== null && due <= now) route([{ input: { kind: 'tick' }, at: now }]);
    }
    return out;
  }

  // The version whose outbox this process wrote and published itself: not published again.
  let published = -1;

  async function step(events: readonly TimedEvent[], tick: boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const loaded = await deps.store.load();
      const stored = loaded.value;
      // The last step's deliveries, in case it stopped between its write and its publishes.
      if (stored.outbox.length > 0 && loaded.version !== published) await deps.publish(stored.outbox);
      const next = draft(stored, deps.router(), events, tick);
      const unchanged = next.state === stored.state && next.sources === stored.sources && next.routed.length === 0;
      if (unchanged && (stored.outbox.length === 0 || loaded.version === published)) return;
      const firstAt = deps.now();
      const outbox = next.messages.map((message): DeliveryEnvelope => ({ type: 'delivery', message, firstAt }));
      const value: StoredRoute = { state: next.state, outbox, recent: [...stored.recent, ...next.routed].slice(-RECENT_IDS), sources: next.sources };
      if (await deps.store.save(loaded.version, value)) {
        await deps.publish(outbox);
        published = loaded.version + 1;
        return;
      }
      if (attempt >= MAX_ATTEMPTS) throw new Error(`the routing state changed under ${MAX_ATTEMPTS} attempts in a row; the step is retried`);
    }
  }

  return {
    events: (events) => serial(() => step(events, false)),
    tick: () => serial(() => step([], true)),
  };
}

/**
 * The dispatcher's routing state, durable (issue #31): one record of the keyed store (LMDB
 * embedded, Redis distributed), written by compare-and-set, so a restart — or another
 * dispatcher — goes on from the groups, gates, repeats and flapping counts as they were.
 *
 * Besides the router's state, the record holds:
 * - `outbox`: the deliveries the step that wrote it made. They are published after the write
 *   and again by the next step before it routes anything: a dispatcher killed between its write
 *   and its publishes loses none, and the stream drops the repeat by its message id.
 * - `recent`: the ids of the events routed lately, so an event delivered again (its ack lost in
 *   a crash or a JetStream restart) is not routed twice (counted twice as flapping, grouped
 *   twice after its group left).
 * - `sources`: what the maintenance and SLA sources last saw, from which they tell what changed.
 */
import { emptyRoute, type RouteState } from '../../pipelines/notifications/index.js';
import type { KeyedRecord, KeyedStore } from '../runtime/adapters/keyed/keyed-store.port.js';
import type { DeliveryEnvelope } from './notify-envelope.js';

export const ROUTE_KEY = 'notifications:route';
/** Event ids kept in `recent`: more than any batch the routing consumer is handed at once. */
export const RECENT_IDS = 2000;

export interface StoredRoute {
  state: RouteState;
  outbox: DeliveryEnvelope[];
  recent: string[];
  sources: Record<string, unknown>;
}

export interface LoadedRoute {
  /** The record's version (0: never written). */
  version: number;
  value: StoredRoute;
}

export interface RouteStore {
  load(): Promise<LoadedRoute>;
  /** Writes `value` when the record is still at `expected`; false when another step wrote first. */
  save(expected: number, value: StoredRoute): Promise<boolean>;
}

export const emptyStoredRoute = (): StoredRoute => ({ state: emptyRoute(), outbox: [], recent: [], sources: {} });

export function createRouteStore(keyed: KeyedStore): RouteStore {
  // The last record read or written: read again only when its version moved (another process).
  let known = new Map<string, KeyedRecord<StoredRoute>>();
  return {
    async load() {
      const record = (await keyed.get<StoredRoute>([ROUTE_KEY], known)).get(ROUTE_KEY);
      if (!record) return { version: 0, value: emptyStoredRoute() };
      known = new Map([[ROUTE_KEY, record]]);
      return { version: record.version, value: { ...emptyStoredRoute(), ...record.value } };
    },
    async save(expected, value) {
      const result = await keyed.put([{ key: ROUTE_KEY, expected, value }]);
      if (result.ok) known = new Map([[ROUTE_KEY, { version: expected + 1, value }]]);
      return result.ok;
    },
  };
}

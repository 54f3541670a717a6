/**
 * The dispatcher's routing state, durable (issue #31): records of the keyed store (LMDB
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
 *
 * Layout. The per-key records of each policy (flapping counts, gates, repeats) grow with the keys
 * that opened within the flapping window, and a step changes few of them: written whole, they
 * were 2 MB packed on the event loop at every routing step of the notifications bench (19 % of
 * its main thread). So they live in ROUTE_SHARDS records, `notifications:route:<n>`, each entry
 * in the shard its (policy, map, key) hashes to, and a step writes the head and the shards it
 * changed, all in one compare-and-set. The head (`notifications:route`) holds the rest. A store
 * reads the shards only when another writer moved the head; the one-record layout of earlier
 * versions is read as it is and written in shards by the next step.
 */
import { emptyRoute, type PolicyRouteState, type RouteState } from '../../pipelines/notifications/index.js';
import type { KeyedRecord, KeyedStore, KeyedWrite } from '../runtime/adapters/keyed/keyed-store.port.js';
import type { DeliveryEnvelope } from './notify-envelope.js';

export const ROUTE_KEY = 'notifications:route';
/** Event ids kept in `recent`: more than any batch the routing consumer is handed at once. */
export const RECENT_IDS = 2000;
/**
 * Shards of the per-key records. A routing step of the bench changes about 1 000 entries; over
 * 4 096 shards that touches about a quarter of them, and a step of a few events a few.
 */
export const ROUTE_SHARDS = 4096;

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

type MapName = keyof PolicyRouteState;
const MAPS: readonly MapName[] = ['flaps', 'gates', 'repeats'];

/** A shard: policy id → map → key → entry. */
type Shard = Record<string, Partial<Record<MapName, Record<string, unknown>>>>;

/** The head: the stored route without the policies' per-key records, which are in the shards. */
interface Head extends Omit<StoredRoute, 'state'> {
  state: Omit<RouteState, 'policies'> & { policies?: RouteState['policies'] };
  /** Set by the sharded layout; absent in a record of the one-record layout. */
  shards?: number;
}

export const shardKey = (n: number): string => `${ROUTE_KEY}:${n}`;
const SHARD_KEYS = Array.from({ length: ROUTE_SHARDS }, (_, n) => shardKey(n));

/** FNV-1a of the entry's (policy, map, key): where it is kept. */
function hashShard(policyId: string, map: MapName, key: string): number {
  let h = 0x811c9dc5;
  const text = `${policyId}\u0000${map}\u0000${key}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % ROUTE_SHARDS;
}

/** The policies' per-key records from the shards read. */
function policiesOf(shards: Iterable<KeyedRecord<Shard>>): RouteState['policies'] {
  const policies: RouteState['policies'] = {};
  for (const { value } of shards) {
    for (const [policyId, maps] of Object.entries(value)) {
      const policy = (policies[policyId] ??= { flaps: {}, gates: {}, repeats: {} });
      for (const map of MAPS) Object.assign(policy[map], maps[map]);
    }
  }
  return policies;
}

export function createRouteStore(keyed: KeyedStore): RouteStore {
  /** The route as of the head's version this store last read or wrote. */
  let current: LoadedRoute | undefined;
  /** Read in the one-record layout: the next write writes every shard. */
  let unsharded = false;
  let knownHead = new Map<string, KeyedRecord<Head>>();
  let knownShards = new Map<string, KeyedRecord<Shard>>();
  /** Entry → shard, as hashed already (keys are many, and most are hashed at every step). */
  let shardsOf = new Map<string, number>();
  const shardOf = (policyId: string, map: MapName, key: string): number => {
    const id = `${policyId}\u0000${map}\u0000${key}`;
    let n = shardsOf.get(id);
    if (n === undefined) {
      if (shardsOf.size >= 1_000_000) shardsOf = new Map();
      n = hashShard(policyId, map, key);
      shardsOf.set(id, n);
    }
    return n;
  };

  /** The shards whose entries differ between the two states (every one holding an entry when `before` is unknown). */
  function changedShards(before: RouteState | undefined, after: RouteState): Set<number> {
    const changed = new Set<number>();
    if (!before) {
      for (const k of knownShards.keys()) changed.add(Number(k.slice(ROUTE_KEY.length + 1)));
      for (const [policyId, policy] of Object.entries(after.policies)) for (const map of MAPS) for (const key of Object.keys(policy[map])) changed.add(shardOf(policyId, map, key));
      return changed;
    }
    for (const policyId of new Set([...Object.keys(before.policies), ...Object.keys(after.policies)])) {
      for (const map of MAPS) {
        const old: Record<string, unknown> = before.policies[policyId]?.[map] ?? {};
        const now: Record<string, unknown> = after.policies[policyId]?.[map] ?? {};
        if (old === now) continue;
        for (const key in now) if (now[key] !== old[key]) changed.add(shardOf(policyId, map, key));
        for (const key in old) if (!(key in now)) changed.add(shardOf(policyId, map, key));
      }
    }
    return changed;
  }

  /** The contents of the shards named, from the whole state. */
  function shardsFrom(state: RouteState, wanted: ReadonlySet<number>): Map<number, Shard> {
    const out = new Map<number, Shard>();
    for (const n of wanted) out.set(n, {});
    for (const [policyId, policy] of Object.entries(state.policies)) {
      for (const map of MAPS) {
        for (const [key, entry] of Object.entries(policy[map])) {
          const shard = out.get(shardOf(policyId, map, key));
          if (shard) ((shard[policyId] ??= {})[map] ??= {})[key] = entry;
        }
      }
    }
    return out;
  }

  return {
    async load() {
      const head = (await keyed.get<Head>([ROUTE_KEY], knownHead)).get(ROUTE_KEY);
      if (!head) {
        current = undefined;
        return { version: 0, value: emptyStoredRoute() };
      }
      knownHead = new Map([[ROUTE_KEY, head]]);
      if (current?.version === head.version) return current;
      const { shards, state, ...rest } = head.value;
      if (shards === undefined) {
        unsharded = true;
        current = { version: head.version, value: { ...emptyStoredRoute(), ...rest, state: { ...emptyRoute(), ...state } as RouteState } };
        return current;
      }
      // Another writer moved the head: its shards, reading only those whose version moved.
      knownShards = await keyed.get<Shard>(SHARD_KEYS, knownShards);
      unsharded = false;
      current = { version: head.version, value: { ...emptyStoredRoute(), ...rest, state: { ...state, policies: policiesOf(knownShards.values()) } } };
      return current;
    },

    async save(expected, value) {
      const before = current?.version === expected && !unsharded ? current.value.state : undefined;
      const contents = shardsFrom(value.state, changedShards(before, value.state));
      const { policies: _kept, ...rest } = value.state;
      const head: Head = { ...value, state: rest, shards: ROUTE_SHARDS };
      const writes: KeyedWrite[] = [{ key: ROUTE_KEY, expected, value: head }];
      for (const [n, shard] of contents) writes.push({ key: shardKey(n), expected: knownShards.get(shardKey(n))?.version ?? 0, value: shard });
      const result = await keyed.put(writes);
      if (!result.ok) return false;
      knownHead = new Map([[ROUTE_KEY, { version: expected + 1, value: head }]]);
      for (const w of writes.slice(1)) knownShards.set(w.key, { version: w.expected + 1, value: w.value as Shard });
      current = { version: expected + 1, value };
      unsharded = false;
      return true;
    },
  };
}

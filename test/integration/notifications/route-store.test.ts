/**
 * Issue #31, the routing state's records (services/notifications/route-store.ts) on both real
 * keyed stores, LMDB and Redis: a head and ROUTE_SHARDS shards of per-key records, a step writing
 * the head and the shards it changed in one compare-and-set. A restart, or another dispatcher, is
 * another store handle on the same files (LMDB) or key prefix (Redis).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { emptyRoute, type FlapState, type ProblemGate, type RouteState } from '../../../pipelines/notifications/index.js';
import { createRouteStore, emptyStoredRoute, ROUTE_KEY, ROUTE_SHARDS, type StoredRoute, shardKey } from '../../../services/notifications/route-store.js';
import type { KeyedStore, KeyedWrite } from '../../../services/runtime/adapters/keyed/keyed-store.port.js';
import { openLmdbKeyedStore } from '../../../services/runtime/adapters/keyed/lmdb.adapter.js';
import { openRedisKeyedStore } from '../../../services/runtime/adapters/keyed/redis.adapter.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { missingServices, type RunningService, startRedis } from '../../support/services.js';

const stores: KeyedStore[] = [];
const dirs: string[] = [];
t.teardown(async () => {
  await Promise.all(stores.map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Handle {
  /** Where the store is: another handle on the same space sees the same records. */
  space: string;
  keyed: KeyedStore;
  /** The keys of each put, in order. */
  puts: string[][];
}
type Open = (space?: string) => Promise<Handle>;

/** A handle on a real store, recording the keys of each put. */
function recording(space: string, real: KeyedStore): Handle {
  stores.push(real);
  const puts: string[][] = [];
  const keyed: KeyedStore = {
    ...real,
    get: (keys, known) => real.get(keys, known),
    put: <V>(writes: readonly KeyedWrite<V>[]) => {
      puts.push(writes.map((w) => w.key));
      return real.put(writes);
    },
  };
  return { space, keyed, puts };
}

const openLmdb: Open = async (path = mkdtempSync(join(tmpdir(), 'ops-route-store-'))) => {
  if (!dirs.includes(path)) dirs.push(path);
  return recording(path, await openLmdbKeyedStore({ path }, { logger: silentLogger() }));
};

const flap = (at: number): FlapState => ({ transitions: [at, at + 1000], flappingSince: null, open: null, told: true });
const gate = (ciId: number): ProblemGate => ({ ciId, modes: [], told: true, held: null });

/** Two policies with `keys` flapping counts and gates each, a CI under maintenance. */
function stateOf(keys: number): StoredRoute {
  const state: RouteState = { ...emptyRoute({ '7': [3] }), policies: {} };
  for (const policyId of ['1', '2']) {
    const flaps: Record<string, FlapState> = {};
    const gates: Record<string, ProblemGate> = {};
    for (let i = 0; i < keys; i++) {
      flaps[`5:${i}`] = flap(1_700_000_000_000 + i);
      gates[`${policyId}:problem-${i}`] = gate(i);
    }
    state.policies[policyId] = { flaps, gates, repeats: {} };
  }
  return { ...emptyStoredRoute(), state, recent: ['e1', 'e2'], sources: { maintenance: { seen: [3] } } };
}

/** `route` with one policy's one flapping count changed, another removed: as a router would, copying what it changes. */
function oneStep(route: StoredRoute): StoredRoute {
  const p1 = route.state.policies['1']!;
  const flaps: Record<string, FlapState> = { ...p1.flaps, '5:1': flap(1_800_000_000_000) };
  delete flaps['5:2'];
  return { ...route, state: { ...route.state, policies: { ...route.state.policies, '1': { ...p1, flaps } } }, recent: [...route.recent, 'e3'] };
}

/** The rules, on a store opened by `open`. */
function routeStoreRules(name: string, open: Open): void {
  t.test(`${name}: the state written comes back whole after a restart, its per-key records in shards beside the head`, async (t) => {
    const first = await open();
    const store = createRouteStore(first.keyed);
    t.same(await store.load(), { version: 0, value: emptyStoredRoute() }, 'nothing written yet');
    const route = stateOf(600);
    t.ok(await store.save(0, route), 'written');
    const written = first.puts[0]!;
    t.equal(written[0], ROUTE_KEY, 'the head first');
    t.ok(written.length > 100 && written.length <= ROUTE_SHARDS + 1, `then the shards holding entries (${written.length - 1} of ${ROUTE_SHARDS})`);
    const head = (await first.keyed.get<{ state: Partial<RouteState> }>([ROUTE_KEY])).get(ROUTE_KEY)!;
    t.notOk('policies' in head.value.state, 'the head holds no per-key record');
    const restarted = createRouteStore((await open(first.space)).keyed);
    t.same(await restarted.load(), { version: 1, value: route }, 'a new store on the same files reads it whole');
  });

  t.test(`${name}: a step writes the head and only the shards it changed`, async (t) => {
    const { keyed, puts, space } = await open();
    const store = createRouteStore(keyed);
    await store.save(0, stateOf(600));
    const loaded = await store.load();
    const next = oneStep(loaded.value);
    t.ok(await store.save(loaded.version, next));
    const keys = puts[1]!;
    t.equal(keys[0], ROUTE_KEY);
    t.ok(keys.length >= 2 && keys.length <= 3, `and the shards of the two entries changed (${keys.length - 1})`);
    t.same((await createRouteStore((await open(space)).keyed).load()).value, next, 'read whole after a restart');
    await store.save(2, { ...next, recent: [...next.recent, 'e4'] });
    t.same(puts[2], [ROUTE_KEY], 'a step that changes no per-key record writes the head alone');
  });

  t.test(`${name}: another dispatcher's step is read: the head moved, the shards it changed come with it`, async (t) => {
    const a = await open();
    const b = await open(a.space);
    const storeA = createRouteStore(a.keyed);
    const storeB = createRouteStore(b.keyed);
    await storeA.save(0, stateOf(300));
    const seenByB = await storeB.load();
    const changed = oneStep(seenByB.value);
    t.ok(await storeB.save(seenByB.version, changed), 'B writes a step');
    t.same(await storeA.load(), { version: 2, value: changed }, 'A reads it, changed and removed entries included');
  });

  t.test(`${name}: a step computed from a version another step already replaced is refused, and writes nothing`, async (t) => {
    const a = await open();
    const b = await open(a.space);
    const storeA = createRouteStore(a.keyed);
    const storeB = createRouteStore(b.keyed);
    await storeA.save(0, stateOf(50));
    const fromA = await storeA.load();
    const fromB = await storeB.load();
    t.ok(await storeA.save(fromA.version, oneStep(fromA.value)), 'the first writer wins');
    const late = oneStep({ ...fromB.value, recent: ['late'] });
    t.notOk(await storeB.save(fromB.version, late), 'the second is refused');
    t.same((await createRouteStore((await open(a.space)).keyed).load()).value, oneStep(fromA.value), "the store holds the first writer's step only");
  });

  t.test(`${name}: a record of the one-record layout (earlier versions) is read as it was, and the next step writes it in shards`, async (t) => {
    const { keyed, space } = await open();
    const old = stateOf(200);
    await keyed.put([{ key: ROUTE_KEY, expected: 0, value: old }]);
    const store = createRouteStore(keyed);
    const loaded = await store.load();
    t.same(loaded, { version: 1, value: old }, 'read whole');
    const next = oneStep(loaded.value);
    t.ok(await store.save(1, next));
    const shards = await keyed.get(Array.from({ length: ROUTE_SHARDS }, (_, n) => shardKey(n)));
    t.ok(shards.size > 50, `its per-key records now in shards (${shards.size})`);
    t.same((await createRouteStore((await open(space)).keyed).load()).value, next, 'and read whole from them');
  });
}

routeStoreRules('lmdb', openLmdb);

const skip = missingServices('redis-server');
if (skip) {
  t.test(`redis: the route store rules (${skip})`, { skip }, async () => undefined);
} else {
  let redis: RunningService;
  t.before(async () => {
    redis = await startRedis();
  });
  t.teardown(() => redis?.stop());
  // A key prefix per test: another handle on it is another dispatcher.
  routeStoreRules('redis', async (prefix = `{route-${randomUUID().slice(0, 8)}}:`) =>
    recording(prefix, await openRedisKeyedStore({ url: redis.url, keyPrefix: prefix }, { logger: silentLogger() })),
  );
}

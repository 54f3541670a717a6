/**
 * Issue #31, routing that loses nothing (services/notifications/route-step.ts): the routing state
 * lives in the keyed store (real LMDB here), written by compare-and-set with the deliveries each
 * step made. A "dispatcher" is a routing over its own store handle, as a process has; a restart
 * is a new one on the same files. The clock is injected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type CmdbView, createRouter, type PolicyRule } from '../../../pipelines/notifications/index.js';
import type { NotificationEvent } from '../../../schemas/notification-events.schema.js';
import { openLmdbKeyedStore } from '../../../services/runtime/adapters/keyed/lmdb.adapter.js';
import type { KeyedStore } from '../../../services/runtime/adapters/keyed/keyed-store.port.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import type { DeliveryEnvelope } from '../../../services/notifications/notify-envelope.js';
import { createRouteStore } from '../../../services/notifications/route-store.js';
import { createRouting, type Routing, type TimedEvent } from '../../../services/notifications/route-step.js';

const T0 = Date.parse('2026-11-02T08:00:00.000Z');
const CMDB: CmdbView = { descendantsOf: () => [], labelsOf: () => null, canRead: () => true };
const policy = (groupWindowSeconds: number): PolicyRule => ({
  id: 1,
  ownerWorkGroupId: 10,
  configItems: 'all',
  priorities: [],
  triggerIds: [],
  tags: [],
  kinds: [],
  receiverIds: [1],
  groupWindowSeconds,
  repeatIntervalSeconds: null,
});

/** Problem `name` opened at `at`, on a CI of its own (one CI would soon be flapping). */
const opened = (name: string, at: number, ciId = 7): TimedEvent => {
  const event: NotificationEvent = {
    id: `${name}:opened`,
    time: new Date(at).toISOString(),
    kind: 'problem.opened',
    problem: {
      id: name,
      trigger: { id: 1, name: 'ping lost' },
      configItem: { id: ciId, name: `ci-${ciId}` },
      priority: 'Problem2',
      dateStart: new Date(at).toISOString(),
      dateEnd: null,
      tags: [],
      acknowledged: false,
    },
  };
  return { event, at };
};

const dirs: string[] = [];
const stores: KeyedStore[] = [];
t.teardown(async () => {
  await Promise.all(stores.map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A directory for one test's store. */
function storePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ops-route-step-'));
  dirs.push(dir);
  return dir;
}

interface Dispatcher {
  routing: Routing;
  published: DeliveryEnvelope[];
  /** Makes the next `n` publishes fail, as a bus that went away. */
  failPublishes(n: number): void;
}

/** A routing over its own handle of the store at `path`, publishing into `published`. */
async function dispatcher(path: string, clock: { now: number }, window: number): Promise<Dispatcher> {
  const keyed = await openLmdbKeyedStore({ path }, { logger: silentLogger() });
  stores.push(keyed);
  const published: DeliveryEnvelope[] = [];
  let failing = 0;
  const routing = createRouting({
    store: createRouteStore(keyed),
    router: () => createRouter({ policies: [policy(window)], cmdb: CMDB }),
    publish: async (envelopes) => {
      if (failing > 0) {
        failing--;
        throw new Error('bus unavailable');
      }
      published.push(...envelopes);
    },
    now: () => clock.now,
  });
  return { routing, published, failPublishes: (n) => (failing = n) };
}

const eventIds = (published: DeliveryEnvelope[]) => published.flatMap((d) => d.message.events.map((e) => e.id));

t.test('a group open when its dispatcher stopped closes after the restart, with every event it held', async (t) => {
  const path = storePath();
  const clock = { now: T0 };
  const before = await dispatcher(path, clock, 30);
  await before.routing.events([opened('A', T0), opened('B', T0 + 1000)]);
  t.same(before.published, [], 'the 30 s window is open');

  const after = await dispatcher(path, clock, 30);
  clock.now = T0 + 31_000;
  await after.routing.tick();
  t.same(eventIds(after.published), ['A:opened', 'B:opened'], 'one message with both');
  t.equal(after.published.length, 1);
});

t.test('an event delivered again (its ack lost) is not routed twice', async (t) => {
  const path = storePath();
  const clock = { now: T0 };
  const one = await dispatcher(path, clock, 30);
  await one.routing.events([opened('A', T0)]);
  clock.now = T0 + 31_000;
  await one.routing.tick();
  t.equal(one.published.length, 1, 'the group left');
  await one.routing.events([opened('A', T0)]);
  clock.now = T0 + 62_000;
  await one.routing.tick();
  t.same(eventIds(one.published), ['A:opened'], 'no second group for the same event');
});

t.test('deliveries written but not published (the bus went away) are published by the next step', async (t) => {
  const path = storePath();
  const clock = { now: T0 };
  const one = await dispatcher(path, clock, 0);
  one.failPublishes(1);
  await t.rejects(one.routing.events([opened('A', T0)]), /bus unavailable/);
  t.same(one.published, []);
  await one.routing.tick();
  t.same(eventIds(one.published), ['A:opened'], 'the outbox went out on the next step');
  await one.routing.events([opened('A', T0)]);
  t.same(eventIds(one.published), ['A:opened'], 'the redelivered event is not routed again');

  // Another process finds an outbox it did not publish itself: it publishes it again, once.
  const two = await dispatcher(path, clock, 0);
  one.failPublishes(1);
  await t.rejects(one.routing.events([opened('B', T0)]));
  await two.routing.tick();
  await two.routing.tick();
  t.same(eventIds(two.published), ['B:opened'], 'published by the other dispatcher, then cleared');
});

t.test('two dispatchers routing at once: every event routed once, none lost', async (t) => {
  const path = storePath();
  const clock = { now: T0 };
  const one = await dispatcher(path, clock, 0);
  const two = await dispatcher(path, clock, 0);
  const names = Array.from({ length: 40 }, (_, i) => `P${i}`);
  await Promise.all(names.map((name, i) => (i % 2 === 0 ? one : two).routing.events([opened(name, T0 + i, 100 + i)])));
  // A dispatcher publishes again what it finds another wrote: the stream keeps one per message id.
  const stored = new Map<string, DeliveryEnvelope>();
  for (const d of [...one.published, ...two.published]) stored.set(d.message.deliveryId, d);
  t.same(new Set(eventIds([...stored.values()])), new Set(names.map((n) => `${n}:opened`)), 'every event routed');
  t.equal(stored.size, names.length, 'one message per event');
});

t.test('a step that changes nothing writes nothing', async (t) => {
  const path = storePath();
  const clock = { now: T0 };
  const one = await dispatcher(path, clock, 30);
  await one.routing.tick();
  const keyed = stores.at(-1)!;
  t.same([...(await keyed.get(['notifications:route'])).keys()], [], 'no record written by an idle tick');
});

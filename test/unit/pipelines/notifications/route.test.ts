/**
 * Issue #31, the rules composed (pipelines/notifications/index.ts `createRouter`): match ▸
 * flapping ▸ maintenance gate ▸ repeat ▸ kinds ▸ grouping. Worked timelines: each row the time
 * (mm:ss after 08:00), the input, and the messages out, written `policy→receiver: events`.
 *
 * CMDB: CIs 7 and 8 are readable by workgroup 10, CI 9 is not.
 */
import type { Test } from 'tap';
import t from 'tap';
import type { NotificationEvent, NotifiedProblem } from '../../../../schemas/notification-events.schema.js';
import {
  type CmdbView,
  createRouter,
  emptyRoute,
  type PolicyRule,
  type RoutedMessage,
  type RouteInput,
  type RouteState,
  type RouterConfig,
} from '../../../../pipelines/notifications/index.js';

const T0 = Date.parse('2026-11-02T08:00:00.000Z');
const at = (mmss: string) => {
  const [m, s] = mmss.split(':').map(Number) as [number, number];
  return T0 + (m * 60 + s) * 1000;
};
const CMDB: CmdbView = { descendantsOf: () => [], labelsOf: () => null, canRead: (wg, ci) => wg === 10 && (ci === 7 || ci === 8) };

const policy = (over: Partial<PolicyRule>): PolicyRule => ({
  id: 1,
  ownerWorkGroupId: 10,
  configItems: 'all',
  priorities: [],
  triggerIds: [],
  tags: [],
  kinds: [],
  receiverIds: [1],
  groupWindowSeconds: 30,
  repeatIntervalSeconds: null,
  ...over,
});

/**
 * Turns the rows' shorthand into inputs: `opened A on 7` (trigger 1), `opened A on 7 trigger 2`,
 * `acknowledged A`, `resolved A`,
 * `mode 1 starts on 7,8`, `mode 1 ends`, `tick`. Remembers each problem's CI and each mode's CIs.
 */
function inputs() {
  const cis = new Map<string, number>();
  const triggers = new Map<string, number>();
  const modes = new Map<number, number[]>();
  const problem = (name: string, acknowledged = false): NotifiedProblem => ({
    id: name,
    trigger: { id: triggers.get(name) ?? 1, name: 'ping lost' },
    configItem: { id: cis.get(name)!, name: `ci-${cis.get(name)}` },
    priority: 'Problem2',
    dateStart: new Date(T0).toISOString(),
    dateEnd: null,
    tags: [],
    acknowledged,
  });
  return (input: string, time: number): RouteInput => {
    if (input === 'tick') return { kind: 'tick' };
    const iso = new Date(time).toISOString();
    const mode = /^mode (\d+) (starts on ([\d,]+)|ends)$/.exec(input);
    if (mode) {
      const id = Number(mode[1]);
      if (mode[3]) modes.set(id, mode[3].split(',').map(Number));
      const maintenance = { id, title: `mode ${id}`, windowStart: iso, windowEnd: iso, configItems: modes.get(id)!.map((ci) => ({ id: ci, name: `ci-${ci}` })) };
      const kind = mode[3] ? 'maintenance.started' : 'maintenance.ended';
      return { kind: 'event', event: { id: `mode-${id}:${kind}:${time}`, time: iso, kind, maintenance } };
    }
    const [kind, name, , ci, , trigger] = input.split(' ') as [string, string, string?, string?, string?, string?];
    if (ci) cis.set(name, Number(ci));
    if (trigger) triggers.set(name, Number(trigger));
    const id = `${name}:${kind}:${time}`;
    let event: NotificationEvent;
    if (kind === 'opened') event = { id, time: iso, kind: 'problem.opened', problem: problem(name) };
    else if (kind === 'acknowledged') event = { id, time: iso, kind: 'problem.acknowledged', problem: problem(name, true), by: { id: 7, name: 'Ada' }, comment: null };
    else event = { id, time: iso, kind: 'problem.resolved', problem: problem(name), resolvedBy: 'record', by: null };
    return { kind: 'event', event };
  };
}

function labelOf(e: NotificationEvent): string {
  if (e.kind === 'maintenance.started' || e.kind === 'maintenance.ended') return `${e.kind} ${e.maintenance.id}`;
  if (e.kind === 'problem.flapping') return `flapping ${e.configItem.id}`;
  if (e.kind === 'sla.budget_burning') return e.kind;
  const repeat = e.id.includes(':repeat:') ? ' (repeat)' : '';
  return `${e.kind.slice('problem.'.length)} ${e.problem.id}${repeat}`;
}
const describe = (m: RoutedMessage) => `P${m.policyId}→${m.receiverId}: ${m.events.map(labelOf).join(', ')}`;

type Row = [time: string, input: string, messages: string[]];

function timeline(t: Test, config: RouterConfig, rows: Row[]): { state: RouteState; sent: RoutedMessage[] } {
  const router = createRouter(config);
  const inputOf = inputs();
  let state = emptyRoute();
  const sent: RoutedMessage[] = [];
  for (const [time, input, messages] of rows) {
    const outcome = router.route(state, inputOf(input, at(time)), at(time));
    t.same(outcome.messages.map(describe), messages, `${time} ${input}`);
    sent.push(...outcome.messages);
    state = outcome.state;
  }
  return { state, sent };
}

const ALL = policy({ id: 1, receiverIds: [1] });
/** Only resolves, only CI 7, no grouping. */
const RESOLVES = policy({ id: 2, receiverIds: [2], configItems: { ids: [7], withDescendants: false }, kinds: ['problem.resolved'], groupWindowSeconds: 0 });

const MAINTENANCE_DAY: Row[] = [
  ['00:00', 'mode 1 starts on 7', []],
  ['00:10', 'opened A on 7', []], // covered: held for both policies
  ['00:20', 'opened B on 8', []],
  ['00:30', 'tick', ['P1→1: maintenance.started 1, opened B']], // one group: 30 s after its first event
  ['01:00', 'opened C on 9', []], // workgroup 10 may not read CI 9
  ['01:40', 'resolved B', []],
  ['02:00', 'opened D on 7 trigger 2', []], // born inside the mode...
  ['02:10', 'resolved D', []], // ...and resolved inside it: nothing, to anyone
  ['02:10', 'tick', ['P1→1: resolved B']],
  ['03:20', 'mode 1 ends', []],
  ['03:50', 'tick', ['P1→1: maintenance.ended 1, opened A']], // one opened for A, still open
  ['05:00', 'resolved A', ['P2→2: resolved A']], // P2 was never sent opens, but would have been told: its resolve
  ['05:00', 'resolved C', []],
  ['05:30', 'tick', ['P1→1: resolved A']],
];

t.test('a maintenance day: held, released at the end, grouped, resolves only after openings, read rights', async (t) => {
  const router = createRouter({ policies: [ALL, RESOLVES], cmdb: CMDB });
  const { state } = timeline(t, { policies: [ALL, RESOLVES], cmdb: CMDB }, MAINTENANCE_DAY);
  t.same(
    Object.values(state.policies).map((p) => [p.gates, p.repeats]),
    [
      [{}, {}],
      [{}, {}],
    ],
    'nothing open or held',
  );
  t.same([state.covering, state.grouping], [{}, { groups: {} }], 'no maintenance, no group');
  const later = router.route(state, { kind: 'tick' }, at('15:30'));
  t.same(
    Object.values(later.state.policies).map((p) => p.flaps),
    [{}, {}],
    'ten minutes without a transition: the keys are forgotten',
  );
});

t.test('the same inputs give the same messages and delivery ids (a dispatcher restarted from its inputs)', async (t) => {
  const first = timeline(t, { policies: [ALL, RESOLVES], cmdb: CMDB }, MAINTENANCE_DAY).sent;
  const again = timeline(t, { policies: [ALL, RESOLVES], cmdb: CMDB }, MAINTENANCE_DAY).sent;
  t.same(again, first);
  t.equal(new Set(first.map((m) => m.deliveryId)).size, first.length, 'every message its own id');
});

t.test('routeAll: a batch gives what the inputs one by one give, and leaves the state it was given as it was', async (t) => {
  const config = { policies: [ALL, RESOLVES], cmdb: CMDB };
  const router = createRouter(config);
  const inputOf = inputs();
  const batch = MAINTENANCE_DAY.map(([time, input]) => ({ input: inputOf(input, at(time)), at: at(time) }));
  let state = emptyRoute();
  const oneByOne: RoutedMessage[] = [];
  for (const { input, at: when } of batch) {
    const out = router.route(state, input, when);
    state = out.state;
    oneByOne.push(...out.messages);
  }
  // The second half on a state frozen deep: a change in place would throw.
  const half = Math.floor(batch.length / 2);
  const first = router.routeAll(emptyRoute(), batch.slice(0, half));
  const frozen = structuredClone(first.state);
  const freeze = (value: unknown): void => {
    if (value && typeof value === 'object') {
      Object.freeze(value);
      for (const v of Object.values(value)) freeze(v);
    }
  };
  freeze(frozen);
  const second = router.routeAll(frozen, batch.slice(half));
  t.same([...first.messages, ...second.messages], oneByOne, 'the same messages, in the same order');
  t.same(second.state, state, 'the same state');
});

t.test('a flapping key through the router: one message; under maintenance, not even that', async (t) => {
  const config = { policies: [policy({ groupWindowSeconds: 0 })], cmdb: CMDB };
  const flaps: Row[] = [
    ['00:00', 'opened A on 8', ['P1→1: opened A']],
    ['01:00', 'resolved A', ['P1→1: resolved A']],
    ['02:00', 'opened B on 8', ['P1→1: opened B']],
    ['03:00', 'resolved B', ['P1→1: resolved B']],
    ['04:00', 'opened C on 8', ['P1→1: opened C']],
    ['05:00', 'resolved C', ['P1→1: resolved C', 'P1→1: flapping 8']],
    ['06:00', 'opened D on 8', []],
    ['15:00', 'tick', []],
    ['16:00', 'tick', ['P1→1: opened D']],
  ];
  timeline(t, config, flaps);
  timeline(t, config, [
    ['00:00', 'mode 1 starts on 8', ['P1→1: maintenance.started 1']],
    ...flaps.slice(0, 5).map(([time, input]): Row => [time, input, []]),
    ['05:00', 'resolved C', []], // the flapping message is about a covered CI: dropped
    ['06:00', 'opened D on 8', []],
    ['16:00', 'tick', []], // settled: D's opening goes to the gate, which holds it
    ['20:00', 'mode 1 ends', ['P1→1: maintenance.ended 1', 'P1→1: opened D']],
  ]);
});

t.test('repeats through the router: every interval while open, not under maintenance, with their own ids', async (t) => {
  const config = { policies: [policy({ groupWindowSeconds: 0, repeatIntervalSeconds: 600, kinds: ['problem.opened', 'problem.resolved'] })], cmdb: CMDB };
  const { sent } = timeline(t, config, [
    ['00:00', 'opened A on 7', ['P1→1: opened A']],
    ['10:00', 'tick', ['P1→1: opened A (repeat)']],
    ['15:00', 'mode 1 starts on 7', []], // kinds: no maintenance messages
    ['20:00', 'tick', []],
    ['25:00', 'mode 1 ends', []], // told before the mode: not told again
    ['30:00', 'tick', ['P1→1: opened A (repeat)']],
    ['35:00', 'resolved A', ['P1→1: resolved A']],
    ['40:00', 'tick', []],
  ]);
  t.equal(new Set(sent.map((m) => m.deliveryId)).size, sent.length);
});

t.test('an Alertmanager receiver is told an open problem again every resendSeconds, acknowledged or not, until it resolves', async (t) => {
  const config: RouterConfig = {
    policies: [policy({ groupWindowSeconds: 0, receiverIds: [1, 2], kinds: ['problem.opened', 'problem.acknowledged', 'problem.resolved'] })],
    cmdb: CMDB,
    resendSeconds: (receiverId) => (receiverId === 2 ? 60 : null),
  };
  timeline(t, config, [
    ['00:00', 'opened A on 7', ['P1→1: opened A', 'P1→2: opened A']],
    ['01:00', 'tick', ['P1→2: opened A (repeat)']],
    ['01:30', 'acknowledged A', ['P1→1: acknowledged A', 'P1→2: acknowledged A']],
    ['02:00', 'tick', ['P1→2: opened A (repeat)']],
    ['02:30', 'resolved A', ['P1→1: resolved A', 'P1→2: resolved A']],
    ['03:00', 'tick', []],
  ]);
});

t.test('nextDueAt: the earliest of a group closing, a flapping key settling and a repeat', async (t) => {
  const router = createRouter({ policies: [policy({ repeatIntervalSeconds: 600 })], cmdb: CMDB });
  const inputOf = inputs();
  t.equal(router.nextDueAt(emptyRoute()), null);
  const { state } = router.route(emptyRoute(), inputOf('opened A on 7', at('00:00')), at('00:00'));
  t.equal(router.nextDueAt(state), at('00:30'), 'the group closes first');
  const flushed = router.route(state, { kind: 'tick' }, at('00:30'));
  t.same(flushed.messages.map(describe), ['P1→1: opened A']);
  t.equal(router.nextDueAt(flushed.state), at('10:00'), 'then the repeat');
});

/**
 * Issue #31, grouping (pipelines/notifications/grouping.ts): worked timelines. Each row: the
 * second, what happened (an event added for a receiver of policy 1, or a flush of the clock), and
 * the messages handed over, each written as its events in order. Window: 30 s unless said.
 */
import type { Test } from 'tap';
import t from 'tap';
import type { NotificationEvent } from '../../../../schemas/notification-events.schema.js';
import { addToGroup, deliveryId, emptyGrouping, flushGroups, type GroupingState, nextFlushAt, type RoutedMessage } from '../../../../pipelines/notifications/grouping.js';

const T0 = Date.parse('2026-11-02T08:00:00.000Z');
const at = (seconds: number) => T0 + seconds * 1000;

/** `opened A` or `resolved A`: an event about problem A. */
function eventOf(input: string): NotificationEvent {
  const [kind, name] = input.split(' ') as [string, string];
  const problem = {
    id: name,
    trigger: { id: 1, name: 'disk full' },
    configItem: { id: 1, name: 'db-1' },
    priority: 'Problem2' as const,
    dateStart: new Date(T0).toISOString(),
    dateEnd: null,
    tags: [],
    acknowledged: false,
  };
  if (kind === 'opened') return { id: `${name}:opened`, time: new Date(T0).toISOString(), kind: 'problem.opened', problem };
  return { id: `${name}:resolved`, time: new Date(T0).toISOString(), kind: 'problem.resolved', problem, resolvedBy: 'record', by: null };
}

const describe = (m: RoutedMessage) => `to ${m.receiverId}: ${m.events.map((e) => e.id.replace(/^(\w+):(\w+)$/, '$2 $1')).join(', ')}`;

/** A row: seconds, `flush` or `add <event> for <receiver>` (receiver 1 when not said), the messages. */
type Row = [second: number, input: string, messages: string[]];

function timeline(t: Test, rows: Row[], windowSeconds = 30, maxEvents?: number): { state: GroupingState; sent: RoutedMessage[] } {
  let state = emptyGrouping();
  const sent: RoutedMessage[] = [];
  for (const [second, input, messages] of rows) {
    const add = /^add (\w+ \w+)(?: for (\d+))?$/.exec(input);
    const outcome = add
      ? addToGroup(state, { policyId: 1, receiverId: Number(add[2] ?? 1), windowSeconds }, eventOf(add[1]!), at(second), maxEvents)
      : flushGroups(state, at(second));
    t.same(outcome.messages.map(describe), messages, `${second} s: ${input}`);
    sent.push(...outcome.messages);
    state = outcome.state;
  }
  return { state, sent };
}

t.test('3 problems within 30 s: one message listing them; a 4th after the window: a new message', async (t) => {
  const { state } = timeline(t, [
    [0, 'add opened A', []],
    [10, 'add opened B', []],
    [25, 'add opened C', []],
    [29.9, 'flush', []],
    [30, 'flush', ['to 1: opened A, opened B, opened C']], // closes 30 s after its first event
    [45, 'add opened D', []],
    [60, 'flush', []],
    [75, 'flush', ['to 1: opened D']],
  ]);
  t.same(state, emptyGrouping());
});

t.test('an event after the window, before any flush: the closed group leaves first, so one problem stays in order', async (t) => {
  timeline(t, [
    [0, 'add opened A', []],
    [20, 'add opened B', []],
    [35, 'add resolved A', ['to 1: opened A, opened B']],
    [65, 'flush', ['to 1: resolved A']],
  ]);
});

t.test('opened and resolved within one window: one message, in order', async (t) => {
  timeline(t, [
    [0, 'add opened A', []],
    [5, 'add resolved A', []],
    [30, 'flush', ['to 1: opened A, resolved A']],
  ]);
});

t.test('each receiver has its own group and window; a flush hands over the earliest closing first', async (t) => {
  timeline(t, [
    [0, 'add opened A for 2', []],
    [10, 'add opened A for 1', []],
    [20, 'add opened B for 2', []],
    [40, 'flush', ['to 2: opened A, opened B', 'to 1: opened A']],
  ]);
});

t.test('a window of 0 sends each event alone, at once', async (t) => {
  timeline(
    t,
    [
      [0, 'add opened A', ['to 1: opened A']],
      [0, 'add opened B', ['to 1: opened B']],
    ],
    0,
  );
});

t.test('a group closes at once when full (here 2 events)', async (t) => {
  timeline(
    t,
    [
      [0, 'add opened A', []],
      [1, 'add opened B', ['to 1: opened A, opened B']],
      [2, 'add opened C', []],
      [32, 'flush', ['to 1: opened C']],
    ],
    30,
    2,
  );
});

t.test('the same event twice in an open group is listed once', async (t) => {
  timeline(t, [
    [0, 'add opened A', []],
    [3, 'add opened A', []],
    [30, 'flush', ['to 1: opened A']],
  ]);
});

t.test('deliveryId: same policy, receiver and events, same id; anything else, another', async (t) => {
  const rows: Row[] = [
    [0, 'add opened A', []],
    [10, 'add opened B', []],
    [30, 'flush', ['to 1: opened A, opened B']],
    [40, 'add opened C', []],
    [70, 'flush', ['to 1: opened C']],
  ];
  const first = timeline(t, rows).sent;
  const again = timeline(t, rows).sent;
  t.same(
    again.map((m) => m.deliveryId),
    first.map((m) => m.deliveryId),
    'the same inputs made again (after a crash): the same ids',
  );
  t.match(first[0]!.deliveryId, /^msg_[0-9a-f]{32}$/);
  t.equal(first[0]!.deliveryId, deliveryId(1, 1, ['A:opened', 'B:opened']));
  t.equal(first[1]!.deliveryId, deliveryId(1, 1, ['C:opened']), 'a message of one event: one id per (policy, receiver, event)');
  t.equal(deliveryId(1, 1, ['B:opened', 'A:opened']), deliveryId(1, 1, ['A:opened', 'B:opened']), 'the event ids are sorted');
  const ids = [
    deliveryId(1, 1, ['A:opened']),
    deliveryId(1, 2, ['A:opened']),
    deliveryId(2, 1, ['A:opened']),
    deliveryId(1, 1, ['A:opened', 'B:opened']),
    deliveryId(12, 1, ['A:opened']),
  ];
  t.equal(new Set(ids).size, ids.length, 'another receiver, policy or event set: another id');
});

t.test('nextFlushAt: when the earliest open group closes', async (t) => {
  t.equal(nextFlushAt(emptyGrouping()), null);
  const { state } = timeline(t, [
    [0, 'add opened A for 2', []],
    [10, 'add opened A for 1', []],
  ]);
  t.equal(nextFlushAt(state), at(30));
});

t.test('a message made by a group says so (it keeps its order with its policy’s other groups); one sent alone does not', async (t) => {
  const event = (id: string): NotificationEvent => ({
    id,
    time: new Date(T0).toISOString(),
    kind: 'problem.flapping',
    trigger: { id: 1, name: 't' },
    configItem: { id: 1, name: 'c' },
    transitions: 6,
    windowSeconds: 600,
  });
  const alone = addToGroup(emptyGrouping(), { policyId: 1, receiverId: 2, windowSeconds: 0 }, event('a'), T0);
  t.equal(alone.messages[0]?.grouped, undefined);
  const opened = addToGroup(emptyGrouping(), { policyId: 1, receiverId: 2, windowSeconds: 30 }, event('b'), T0);
  t.equal(flushGroups(opened.state, T0 + 30_000).messages[0]?.grouped, true);
});

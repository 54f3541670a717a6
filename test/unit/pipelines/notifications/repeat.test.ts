/**
 * Issue #31, repeats (pipelines/notifications/repeat.ts): worked timelines of one problem (A)
 * for one receiver, with a repeat interval of 10 minutes. Each row: the minute, what arrived (an
 * event the receiver was let through, or a tick, perhaps while maintenance covers A's CI), and
 * the repeats sent, written as their ids.
 */
import type { Test } from 'tap';
import t from 'tap';
import type { NotifiedProblem } from '../../../../schemas/notification-events.schema.js';
import type { ProblemEvent } from '../../../../pipelines/notifications/policy-match.js';
import { repeatDueAt, type RepeatState, repeatStep, type RepeatUntil } from '../../../../pipelines/notifications/repeat.js';

const MIN = 60_000;
const T0 = Date.parse('2026-11-02T08:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;
const INTERVAL = 600;

const problem = (acknowledged = false): NotifiedProblem => ({
  id: 'A',
  trigger: { id: 1, name: 'disk full' },
  configItem: { id: 7, name: 'db-1' },
  priority: 'Problem1',
  dateStart: new Date(T0).toISOString(),
  dateEnd: null,
  tags: [],
  acknowledged,
});
const OPENED: ProblemEvent = { id: 'A:opened', time: new Date(T0).toISOString(), kind: 'problem.opened', problem: problem() };

function eventOf(input: string): ProblemEvent {
  if (input === 'opened A') return OPENED;
  if (input === 'acknowledged A') return { id: 'A:ack', time: OPENED.time, kind: 'problem.acknowledged', problem: problem(true), by: { id: 7, name: 'Ada' }, comment: null };
  return { id: 'A:resolved', time: OPENED.time, kind: 'problem.resolved', problem: problem(), resolvedBy: 'record', by: null };
}

/** `opened A`, `acknowledged A`, `resolved A`, `tick`, `tick (covered)`. */
function timeline(
  t: Test,
  rows: Array<[minute: number, input: string, sent: string[]]>,
  interval: number | null = INTERVAL,
  until: RepeatUntil = 'acknowledged',
): RepeatState | undefined {
  let state: RepeatState | undefined;
  for (const [minute, input, sent] of rows) {
    const step = input.startsWith('tick') ? { kind: 'tick' as const, covered: input === 'tick (covered)' } : { kind: 'event' as const, event: eventOf(input) };
    const outcome = repeatStep(state, step, at(minute), interval, until);
    t.same(
      outcome.events.map((e) => e.id),
      sent,
      `minute ${minute}: ${input}`,
    );
    state = outcome.state;
  }
  return state;
}

const slot = (minute: number) => `A:opened:repeat:${at(minute)}`;

t.test('a still-open problem is told again every interval, skipped while covered, until acknowledged', async (t) => {
  const last = timeline(t, [
    [0, 'opened A', []],
    [9, 'tick', []],
    [10, 'tick', [slot(10)]],
    [10.5, 'tick', []],
    [25, 'tick', [slot(20)]], // late tick: one repeat for the latest slot, no burst; next at 30
    [30, 'tick (covered)', []], // maintenance covers the CI: skipped, not sent later
    [35, 'tick', []],
    [40.2, 'tick', [slot(40)]], // a late tick keeps the slots
    [45, 'acknowledged A', []], // someone has it: no more repeats
    [50, 'tick', []],
  ]);
  t.equal(last, undefined);
});

t.test('a repeat is the opened again: same problem and kind, the slot as its time, its own id', async (t) => {
  const opened = repeatStep(undefined, { kind: 'event', event: OPENED }, at(0), INTERVAL);
  t.equal(repeatDueAt(opened.state), at(10));
  t.same(repeatStep(opened.state, { kind: 'tick', covered: false }, at(10), INTERVAL).events, [{ ...OPENED, id: slot(10), time: new Date(at(10)).toISOString() }]);
});

t.test('the resolve ends the repeats', async (t) => {
  timeline(t, [
    [0, 'opened A', []],
    [10, 'tick', [slot(10)]],
    [15, 'resolved A', []],
    [20, 'tick', []],
  ]);
});

t.test('no interval: no state, no repeat', async (t) => {
  const last = timeline(
    t,
    [
      [0, 'opened A', []],
      [60, 'tick', []],
    ],
    null,
  );
  t.equal(last, undefined);
});

t.test('an opened telling an acknowledged problem starts no repeats', async (t) => {
  const acked: ProblemEvent = { ...OPENED, problem: problem(true) };
  t.same(repeatStep(undefined, { kind: 'event', event: acked }, at(0), INTERVAL), { state: undefined, events: [] });
});

t.test('until resolved (an Alertmanager): the acknowledgement does not stop the repeats, it is what they tell next', async (t) => {
  const last = timeline(
    t,
    [
      [0, 'opened A', []],
      [10, 'tick', [slot(10)]],
      [15, 'acknowledged A', []],
      [20, 'tick', [slot(20)]],
      [25, 'resolved A', []],
      [30, 'tick', []],
    ],
    INTERVAL,
    'resolved',
  );
  t.equal(last, undefined);
  const opened = repeatStep(undefined, { kind: 'event', event: OPENED }, at(0), INTERVAL, 'resolved');
  const acked = repeatStep(opened.state, { kind: 'event', event: eventOf('acknowledged A') }, at(5), INTERVAL, 'resolved');
  const [repeat] = repeatStep(acked.state, { kind: 'tick', covered: false }, at(10), INTERVAL, 'resolved').events;
  t.equal(repeat?.kind, 'problem.opened');
  t.equal(repeat?.problem.acknowledged, true, 'the repeat tells the problem as acknowledged');
});

t.test('until resolved: an opened telling an acknowledged problem starts the repeats', async (t) => {
  const acked: ProblemEvent = { ...OPENED, problem: problem(true) };
  t.equal(repeatDueAt(repeatStep(undefined, { kind: 'event', event: acked }, at(0), INTERVAL, 'resolved').state), at(10));
});

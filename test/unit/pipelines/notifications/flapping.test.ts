/**
 * Issue #31, flapping (pipelines/notifications/flapping.ts): worked timelines on one key
 * (trigger 1, CI 1). Each row: the minute, what arrived (an event, or a tick of the clock), and
 * what went on. Defaults: more than 5 transitions in 10 minutes.
 */
import type { Test } from 'tap';
import t from 'tap';
import type { NotifiedProblem } from '../../../../schemas/notification-events.schema.js';
import { DEFAULT_FLAPPING, flapDueAt, flapKey, type FlappingOptions, type FlapState, flapStep } from '../../../../pipelines/notifications/flapping.js';
import type { ProblemEvent } from '../../../../pipelines/notifications/policy-match.js';

const MIN = 60_000;
const T0 = Date.parse('2026-11-02T08:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;

const problem = (name: string, acknowledged = false): NotifiedProblem => ({
  id: name,
  trigger: { id: 1, name: 'ping lost' },
  configItem: { id: 1, name: 'router-1' },
  priority: 'Problem2',
  dateStart: new Date(T0).toISOString(),
  dateEnd: null,
  tags: [],
  acknowledged,
});
/** `opened A`, `resolved A`, `acknowledged A`, or `tick`, at a minute. */
type Row = [minute: number, input: string, sent: string[]];

function eventOf(input: string, minute: number): ProblemEvent {
  const [kind, name] = input.split(' ') as [string, string];
  const time = new Date(at(minute)).toISOString();
  if (kind === 'opened') return { id: `${name}:opened`, time, kind: 'problem.opened', problem: problem(name) };
  if (kind === 'acknowledged') return { id: `${name}:ack`, time, kind: 'problem.acknowledged', problem: problem(name, true), by: { id: 7, name: 'Ada' }, comment: null };
  return { id: `${name}:resolved`, time, kind: 'problem.resolved', problem: problem(name), resolvedBy: 'record', by: null };
}

/** `opened A`, or for a flapping message `flapping (6 in 600 s)`; `+ack` when it tells an acknowledged problem. */
function label(event: ReturnType<typeof flapStep>['events'][number]): string {
  if (event.kind === 'problem.flapping') return `flapping (${event.transitions} in ${event.windowSeconds} s)`;
  return `${event.kind.slice('problem.'.length)} ${event.problem.id}${event.problem.acknowledged ? ' +ack' : ''}`;
}

/** Runs the rows on a fresh key and checks each row's output; returns the last state. */
function timeline(t: Test, rows: Row[], options: FlappingOptions = DEFAULT_FLAPPING): FlapState | undefined {
  let state: FlapState | undefined;
  for (const [minute, input, sent] of rows) {
    const outcome = flapStep(state, input === 'tick' ? { kind: 'tick' } : { kind: 'event', event: eventOf(input, minute) }, at(minute), options);
    t.same(outcome.events.map(label), sent, `minute ${minute}: ${input}`);
    state = outcome.state;
  }
  return state;
}

t.test('7 transitions in 10 minutes: one flapping message, quiet, then normal after 10 stable minutes (open: one opened)', async (t) => {
  const state = timeline(t, [
    [0, 'opened A', ['opened A']],
    [1, 'resolved A', ['resolved A']],
    [2, 'opened B', ['opened B']],
    [3, 'resolved B', ['resolved B']],
    [4, 'opened C', ['opened C']], // 5 transitions: not more than 5
    // The 6th: flapping. C's opening went out, so its end does too, before the flapping message.
    [5, 'resolved C', ['resolved C', 'flapping (6 in 600 s)']],
    [6, 'opened D', []], // the 7th: quiet
    [7, 'acknowledged D', []],
    [10, 'tick', []],
    [15.9, 'tick', []], // 9.9 minutes since the last transition
    [16, 'tick', ['opened D +ack']], // stable for 10: normal; D is open, so one opened, as last seen
    [17, 'tick', []],
    [20, 'resolved D', ['resolved D']], // normal again: its end goes out
  ]);
  t.equal(state?.flappingSince, null);
  t.same(state?.transitions, [at(20)], 'counting afresh');
});

t.test('settling closed says nothing; the key is then normal', async (t) => {
  timeline(t, [
    [0, 'opened A', ['opened A']],
    [1, 'resolved A', ['resolved A']],
    [2, 'opened B', ['opened B']],
    [3, 'resolved B', ['resolved B']],
    [4, 'opened C', ['opened C']],
    [5, 'resolved C', ['resolved C', 'flapping (6 in 600 s)']],
    [6, 'opened D', []],
    [7, 'resolved D', []], // D's opening never went out: nor does its end
    [16.5, 'tick', []], // settled at 17: not yet
    [17, 'tick', []], // settled, closed: nothing to say
    [18, 'opened E', ['opened E']],
  ]);
});

t.test('the tipping transition is an opening: held, and only the flapping message goes out', async (t) => {
  timeline(t, [
    [0, 'resolved Z', ['resolved Z']], // an end whose opening came before this timeline
    [1, 'opened A', ['opened A']],
    [2, 'resolved A', ['resolved A']],
    [3, 'opened B', ['opened B']],
    [4, 'resolved B', ['resolved B']],
    [5, 'opened C', ['flapping (6 in 600 s)']],
    [6, 'acknowledged C', []],
    [15, 'tick', ['opened C +ack']],
  ]);
});

t.test('a transition while flapping restarts the 10 stable minutes', async (t) => {
  timeline(t, [
    [0, 'opened A', ['opened A']],
    [1, 'resolved A', ['resolved A']],
    [2, 'opened B', ['opened B']],
    [3, 'resolved B', ['resolved B']],
    [4, 'opened C', ['opened C']],
    [5, 'resolved C', ['resolved C', 'flapping (6 in 600 s)']],
    [14, 'opened D', []], // 9 minutes after the last: still flapping, the clock restarts
    [15, 'tick', []],
    [23.9, 'tick', []],
    [24, 'tick', ['opened D']],
  ]);
});

t.test('5 transitions in any 10 minutes is not flapping: the window slides', async (t) => {
  timeline(t, [
    [0, 'opened A', ['opened A']],
    [2, 'resolved A', ['resolved A']],
    [4, 'opened B', ['opened B']],
    [6, 'resolved B', ['resolved B']],
    [8, 'opened C', ['opened C']],
    [10, 'resolved C', ['resolved C']], // (0, 10]: 2, 4, 6, 8, 10 — five
    [12, 'opened D', ['opened D']], // (2, 12]: five
  ]);
});

t.test('both limits are configurable: more than 2 transitions in 1 minute', async (t) => {
  timeline(
    t,
    [
      [0, 'opened A', ['opened A']],
      [0.5, 'resolved A', ['resolved A']],
      [0.75, 'opened B', ['flapping (3 in 60 s)']],
      [1.5, 'tick', []],
      [1.75, 'tick', ['opened B']],
    ],
    { maxTransitions: 2, windowMinutes: 1 },
  );
});

t.test('the flapping message: id and time of the tipping event, the key, the count and the window', async (t) => {
  let state: FlapState | undefined;
  const sent = [];
  for (const [minute, input] of [
    [0, 'opened A'],
    [1, 'resolved A'],
    [2, 'opened B'],
    [3, 'resolved B'],
    [4, 'opened C'],
    [5, 'resolved C'],
  ] as const) {
    const outcome = flapStep(state, { kind: 'event', event: eventOf(input, minute) }, at(minute));
    state = outcome.state;
    sent.push(...outcome.events);
  }
  t.same(sent.at(-1), {
    id: 'C:resolved:flapping',
    time: new Date(at(5)).toISOString(),
    kind: 'problem.flapping',
    trigger: { id: 1, name: 'ping lost' },
    configItem: { id: 1, name: 'router-1' },
    transitions: 6,
    windowSeconds: 600,
  });
  t.equal(flapDueAt(state), at(15), 'a tick at 15 settles it');
  t.equal(flapKey(eventOf('opened X', 0)), '1:1');
});

t.test('a quiet closed key is forgotten; an open one is kept', async (t) => {
  const opened = flapStep(undefined, { kind: 'event', event: eventOf('opened A', 0) }, at(0));
  const resolved = flapStep(opened.state, { kind: 'event', event: eventOf('resolved A', 1) }, at(1));
  t.ok(resolved.state, 'two transitions within the window are remembered');
  t.ok(flapStep(resolved.state, { kind: 'tick' }, at(10.5)).state, 'the opening left the window, the close did not');
  t.equal(flapStep(resolved.state, { kind: 'tick' }, at(11)).state, undefined, 'closed, nothing in the window: forgotten');
  t.ok(flapStep(opened.state, { kind: 'tick' }, at(60)).state, 'open: kept');
  t.equal(flapDueAt(opened.state), null, 'not flapping: no tick needed');
});

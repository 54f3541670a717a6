/**
 * Issue #31, the maintenance gate (pipelines/notifications/maintenance-gate.ts): worked
 * timelines of one problem (A, on CI 7) for one receiver of one policy. Each row: the time, what
 * arrived (an event about A, or a maintenance mode starting or ending on CI 7), and what went out.
 */
import type { Test } from 'tap';
import t from 'tap';
import type { NotifiedProblem } from '../../../../schemas/notification-events.schema.js';
import { type GateInput, gateStep, isCovered, openGate, type ProblemGate } from '../../../../pipelines/notifications/maintenance-gate.js';

const CI = 7;
const problem = (acknowledged = false): NotifiedProblem => ({
  id: 'A',
  trigger: { id: 1, name: 'disk full' },
  configItem: { id: CI, name: 'db-1' },
  priority: 'Problem1',
  dateStart: '2026-11-02T08:00:00.000Z',
  dateEnd: null,
  tags: [],
  acknowledged,
});
const iso = (hhmm: string) => `2026-11-02T${hhmm}:00.000Z`;

/** `opened A`, `acknowledged A`, `resolved A`, `mode 1 starts`, `mode 1 ends`. */
function inputOf(input: string, time: string): GateInput {
  const mode = /^mode (\d+) (starts|ends)$/.exec(input);
  if (mode) return { kind: mode[2] === 'starts' ? 'maintenance.started' : 'maintenance.ended', maintenanceId: Number(mode[1]) };
  if (input === 'opened A') return { kind: 'event', event: { id: 'A:opened', time: iso(time), kind: 'problem.opened', problem: problem() } };
  if (input === 'acknowledged A')
    return { kind: 'event', event: { id: 'A:ack', time: iso(time), kind: 'problem.acknowledged', problem: problem(true), by: { id: 7, name: 'Ada' }, comment: null } };
  return { kind: 'event', event: { id: 'A:resolved', time: iso(time), kind: 'problem.resolved', problem: problem(), resolvedBy: 'record', by: null } };
}

/** `opened A`, `+ack` when it tells A acknowledged. */
const label = (e: ReturnType<typeof gateStep>['events'][number]) => `${e.kind.slice('problem.'.length)} ${e.problem.id}${e.problem.acknowledged ? ' +ack' : ''}`;

/**
 * Runs the rows on A's gate, opened when A is first seen with the modes `activeAtStart` covering
 * CI 7, and checks each row; returns the last state (undefined: forgotten).
 */
function timeline(t: Test, activeAtStart: number[], rows: Array<[time: string, input: string, sent: string[]]>): ProblemGate | undefined {
  let gate: ProblemGate | undefined = openGate(CI, activeAtStart);
  for (const [time, input, sent] of rows) {
    if (!gate) {
      t.fail(`${time}: the gate was forgotten before ${input}`);
      return undefined;
    }
    const outcome = gateStep(gate, inputOf(input, time));
    t.same(outcome.events.map(label), sent, `${time}: ${input}`);
    gate = outcome.state;
  }
  return gate;
}

t.test('opens during maintenance, still open when it ends: one opened then; resolved later: resolved sent', async (t) => {
  const last = timeline(
    t,
    [1],
    [
      ['08:00', 'opened A', []],
      ['08:05', 'acknowledged A', []], // dropped; the held opened now tells A acknowledged
      ['09:00', 'mode 1 ends', ['opened A +ack']],
      ['09:30', 'resolved A', ['resolved A']],
    ],
  );
  t.equal(last, undefined, 'over for this receiver: forgotten');
});

t.test('the opened sent at the end of the mode is the held event itself (same id and time)', async (t) => {
  const held = gateStep(openGate(CI, [1]), inputOf('opened A', '08:00'));
  const released = gateStep(held.state!, inputOf('mode 1 ends', '09:00'));
  t.same(released.events, [{ id: 'A:opened', time: iso('08:00'), kind: 'problem.opened', problem: problem() }]);
  t.same(released.state, { ciId: CI, modes: [], told: true, held: null });
});

t.test('born and resolved inside maintenance: nothing at all', async (t) => {
  const last = timeline(
    t,
    [1],
    [
      ['08:00', 'opened A', []],
      ['08:05', 'acknowledged A', []],
      ['08:30', 'resolved A', []],
    ],
  );
  t.equal(last, undefined);
});

t.test('opened before maintenance, resolved during it: the resolve is sent (the receiver was told it opened)', async (t) => {
  timeline(
    t,
    [],
    [
      ['08:00', 'opened A', ['opened A']],
      ['08:10', 'mode 1 starts', []],
      ['08:20', 'acknowledged A', []], // nothing else while covered
      ['08:30', 'resolved A', ['resolved A']], // at once, not at the mode's end
    ],
  );
});

t.test('opened before maintenance, still open when it ends: not told again', async (t) => {
  const last = timeline(
    t,
    [],
    [
      ['08:00', 'opened A', ['opened A']],
      ['08:10', 'mode 1 starts', []],
      ['09:00', 'mode 1 ends', []],
      ['09:10', 'acknowledged A', ['acknowledged A +ack']], // uncovered: sent as usual
    ],
  );
  t.same(last, { ciId: CI, modes: [], told: true, held: null });
});

t.test('overlapping modes: the opened goes out when the last covering mode ends', async (t) => {
  const last = timeline(
    t,
    [1],
    [
      ['08:00', 'mode 2 starts', []],
      ['08:05', 'opened A', []],
      ['08:30', 'mode 1 ends', []], // mode 2 still covers CI 7
      ['08:40', 'mode 2 starts', []], // a repeated signal changes nothing
      ['09:00', 'mode 2 ends', ['opened A']],
      ['09:05', 'mode 2 ends', []], // nor does a repeated end
    ],
  );
  t.same(last && isCovered(last), false);
});

t.test('a redelivered opened is not told twice', async (t) => {
  timeline(
    t,
    [],
    [
      ['08:00', 'opened A', ['opened A']],
      ['08:00', 'opened A', []],
      ['08:30', 'resolved A', ['resolved A']],
    ],
  );
});

t.test('an acknowledgement or a resolve of a problem never told goes nowhere, and leaves nothing to remember', async (t) => {
  t.same(gateStep(openGate(CI, []), inputOf('acknowledged A', '08:00')), { state: undefined, events: [] });
  t.same(gateStep(openGate(CI, []), inputOf('resolved A', '08:00')), { state: undefined, events: [] });
});

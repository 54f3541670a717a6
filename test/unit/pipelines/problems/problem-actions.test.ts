/**
 * Issue #30: operators' actions on a key's problems (problem-actions.ts), applied by `applyToKey`
 * after the hits and the close: one test per rule, worked by hand on the whole outcome.
 */

import type { Test } from 'tap';
import t from 'tap';
import { applyToKey, type KeyInput, type KeyState, spansToWrite, type TriggerFacts } from '../../../../pipelines/problems/key-state.js';
import { type ProblemAction, type ProblemActionKind, REMEMBERED_ACTIONS } from '../../../../pipelines/problems/problem-actions.js';
import { type Hit, problemId, type TimelineLimits } from '../../../../pipelines/problems/problem-timeline.js';
import { createControlModel } from '../../../../services/control-plane/slices.js';
import type { PlatformModel } from '../../../../services/control-plane/model.js';
import { rowsOfKey } from '../../../../services/event-worker/problem-stage/key-rows.js';
import { ciRecord, triggerRecord } from '../../../support/model-fixture.js';

const TRIGGER = 1;
const CI = 1;
const MIN = 60_000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;
/** Wide enough that nothing is folded. */
const WIDE: TimelineLimits = { lateWindowMs: 24 * 60 * MIN, maxHits: 1000 };
/** A one-hour late window. */
const HOUR: TimelineLimits = { lateWindowMs: 60 * MIN, maxHits: 100 };
const FACTS: TriggerFacts = { name: 'disk full', influence: { value: 30, maxInfluence: false }, tags: [] };
const BY = { id: 7, name: 'Ada' };

const opening = (id: string, minutes: number): Hit => ({ id, ts: at(minutes), resolve: false, priority: 2, incidents: [] });
const resolving = (id: string, minutes: number): Hit => ({ id, ts: at(minutes), resolve: true, priority: 2, incidents: [] });
const idOf = (hitId: string) => problemId(TRIGGER, CI, hitId);
const act = (id: string, kind: ProblemActionKind, problem: string, minutes: number, text?: string): ProblemAction => ({
  id,
  kind,
  problemId: problem,
  triggerId: TRIGGER,
  ciId: CI,
  by: BY,
  at: at(minutes),
  ...(text === undefined ? {} : { text }),
});
const ackOf = (minutes: number, comment: string | null = null) => ({ by: BY.id, byName: BY.name, at: at(minutes), comment });

/** One step on the key (TRIGGER, CI): hits, or hits and actions. */
function apply(before: KeyState | undefined, input: Hit[] | KeyInput, limits: TimelineLimits = WIDE) {
  return applyToKey(before, TRIGGER, CI, Array.isArray(input) ? { hits: input } : input, FACTS, limits);
}
const acting = (...actions: ProblemAction[]): KeyInput => ({ hits: [], actions });

/** The state a step left; fails the test when the step changed nothing. */
function stateOf(t: Test, outcome: ReturnType<typeof apply>): KeyState {
  if (!outcome.state) {
    t.fail('the step changed nothing');
    throw new Error('no state');
  }
  return outcome.state;
}

const taken = (action: ProblemAction) => ({ actionId: action.id, problemId: action.problemId });
const refused = (action: ProblemAction) => ({ ...taken(action), refused: 'problem.closed' });
/** A step that changed nothing and answered these verdicts. */
const unchanged = (verdicts: object[]) => ({ state: undefined, placed: 0, tooLate: 0, transition: false, verdicts, touched: [], outside: [] });

/** A control model with CI 1 and trigger 1. */
function rowModel(): PlatformModel {
  const m = createControlModel();
  m.load(
    new Map<string, unknown>([
      [`ci:${CI}`, ciRecord(CI, null)],
      [`trigger:${TRIGGER}`, triggerRecord({ id: TRIGGER })],
    ]),
    1,
  );
  return m;
}

t.test('acknowledge an open problem: its notes hold who, when and the comment; the problem is touched and the new state returned', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 10)]));
  const ack = act('x1', 'acknowledge', idOf('a'), 15, 'on it');
  t.same(apply(open, acting(ack)), {
    state: { ...open, notes: { [idOf('a')]: { ack: ackOf(15, 'on it'), comments: 0 } }, actionIds: ['x1'] },
    placed: 0,
    tooLate: 0,
    transition: false,
    verdicts: [taken(ack)],
    touched: [idOf('a')],
    outside: [],
  });
  const bare = stateOf(t, apply(open, acting(act('x2', 'acknowledge', idOf('a'), 16))));
  t.same(bare.notes, { [idOf('a')]: { ack: ackOf(16), comments: 0 } }, 'without a text: comment null');
});

t.test('unacknowledge takes the acknowledgement back and keeps the comment count', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 10)]));
  const noted = stateOf(t, apply(open, acting(act('x1', 'acknowledge', idOf('a'), 15), act('c1', 'comment', idOf('a'), 16, 'hm'))));
  const unack = act('x2', 'unacknowledge', idOf('a'), 17);
  const outcome = apply(noted, acting(unack));
  t.same([outcome.verdicts, outcome.touched, outcome.transition], [[taken(unack)], [idOf('a')], false]);
  t.same(outcome.state?.notes, { [idOf('a')]: { ack: null, comments: 1 } });
  t.same(outcome.state?.actionIds, ['x1', 'c1', 'x2']);
});

t.test('a comment adds one to the problem’s comment count', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 10)]));
  const once = stateOf(t, apply(open, acting(act('c1', 'comment', idOf('a'), 11, 'first'))));
  t.same(once.notes, { [idOf('a')]: { ack: null, comments: 1 } });
  const twice = apply(once, acting(act('c2', 'comment', idOf('a'), 12, 'second')));
  t.same([twice.state?.notes, twice.touched], [{ [idOf('a')]: { ack: null, comments: 2 } }, [idOf('a')]]);
});

t.test('a comment on a closed problem the key still holds is taken and counted', async (t) => {
  const closed = stateOf(t, apply(undefined, [opening('a', 10), resolving('r', 20)]));
  const comment = act('c1', 'comment', idOf('a'), 30, 'post-mortem');
  const outcome = apply(closed, acting(comment));
  t.same([outcome.verdicts, outcome.touched, outcome.outside, outcome.transition], [[taken(comment)], [idOf('a')], [], false]);
  t.same(outcome.state?.notes, { [idOf('a')]: { ack: null, comments: 1 } });
});

t.test('a comment on a problem the key does not hold (folded away, unknown, or no key) is taken and handed back in outside', async (t) => {
  const closed = stateOf(t, apply(undefined, [opening('a', 0), resolving('r', 10)], HOUR));
  const folded = stateOf(t, apply(closed, [opening('b', 200)], HOUR));
  t.same(
    folded.folded.map((p) => p.id),
    [idOf('a')],
    'a is folded out of the window',
  );
  const late = act('c1', 'comment', idOf('a'), 210, 'late note');
  const outcome = apply(folded, acting(late), HOUR);
  t.same([outcome.verdicts, outcome.touched, outcome.outside], [[taken(late)], [], [late]]);
  t.same([outcome.state?.notes, outcome.state?.actionIds], [undefined, ['c1']], 'nothing counted on the key; the action remembered');

  const unknown = act('c2', 'comment', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 210, '?');
  t.same(apply(folded, acting(unknown), HOUR).outside, [unknown], 'an id the key never had');
  t.same(apply(undefined, acting(unknown)), { ...unchanged([taken(unknown)]), outside: [unknown] }, 'a key never seen: handed back, no state');
});

// Fails at the time of writing (key-state.ts applyActions looks the problem up in the window only, not in
// the change's `folded`): the comment goes to `outside`, and the stage then writes the problem's stored
// row (still open) with the comment counted and the same version as the closed row this change writes,
// after it, so the stale open row wins (problem-stage.ts, stored-comments.ts commentedRows).
t.test('a comment on a problem the same input closes and folds is counted on the key, whose rows write it now, not handed back in outside', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 0)], HOUR));
  const comment = act('c1', 'comment', idOf('a'), 200, 'seen');
  const outcome = apply(open, { hits: [resolving('r', 10), opening('b', 200)], actions: [comment] }, HOUR);
  t.same(
    outcome.state?.folded.map((p) => [p.id, p.end]),
    [[idOf('a'), at(10)]],
    'closed and folded by this change, so written by it',
  );
  t.same([outcome.verdicts, outcome.outside, outcome.touched], [[taken(comment)], [], [idOf('a')]]);
  t.same(outcome.state?.notes, { [idOf('a')]: { ack: null, comments: 1 } });
});

t.test('acknowledge, unacknowledge and resolve of a problem that is not open are refused with problem.closed and change nothing', async (t) => {
  const closed = stateOf(t, apply(undefined, [opening('a', 10), resolving('r', 20)]));
  for (const kind of ['acknowledge', 'unacknowledge', 'resolve'] as const) {
    const action = act(`x-${kind}`, kind, idOf('a'), 30);
    t.same(apply(closed, acting(action)), unchanged([refused(action)]), `${kind} of a closed problem`);
    const elsewhere = act(`y-${kind}`, kind, 'ffffffff-ffff-ffff-ffff-ffffffffffff', 30);
    t.same(apply(closed, acting(elsewhere)), unchanged([refused(elsewhere)]), `${kind} of a problem the key does not hold`);
  }
});

t.test('a resolving hit in the same input as an acknowledgement closes the problem first: the acknowledgement is refused', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 10)]));
  const ack = act('x1', 'acknowledge', idOf('a'), 25);
  const outcome = apply(open, { hits: [resolving('r', 20)], actions: [ack] });
  t.same([outcome.verdicts, outcome.touched, outcome.transition, outcome.placed], [[refused(ack)], [], true, 1]);
  t.same([outcome.state?.open, outcome.state?.notes], [null, undefined]);
});

t.test('a resolve by hand ends the problem at max(action.at, lastEventAt + 1) with the hit manual:<actionId>; a later firing opens a new problem', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 10), opening('b', 20)]));
  const manual = (actionId: string, ts: number): Hit => ({ id: `manual:${actionId}`, ts, resolve: true, priority: 2, incidents: [] });
  const early = act('r1', 'resolve', idOf('a'), 15, 'fixed');
  const resolved = apply(open, acting(early));
  const state = stateOf(t, resolved);
  t.same([resolved.verdicts, resolved.touched, resolved.transition], [[taken(early)], [idOf('a')], true]);
  t.same(state.hits.at(-1), manual('r1', at(20) + 1), 'dated before the last record: just after it');
  t.same([state.open, state.changedAt, state.actionIds], [null, at(20) + 1, ['r1']]);
  t.same(spansToWrite(state), [{ id: idOf('a'), start: at(10), end: at(20) + 1, lastEventAt: at(20), priority: 2, incidents: [] }]);
  t.same(stateOf(t, apply(open, acting(act('r2', 'resolve', idOf('a'), 30)))).hits.at(-1), manual('r2', at(30)), 'dated after it: at the action');

  const fired = stateOf(t, apply(state, [opening('c', 40)]));
  t.same(
    spansToWrite(fired).map((p) => [p.id, p.start, p.end]),
    [
      [idOf('a'), at(10), at(20) + 1],
      [idOf('c'), at(40), null],
    ],
    'a new problem, opened by the later record',
  );
});

t.test('a redelivered action (same id) changes nothing and is answered as taken', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 10)]));
  const ack = act('x1', 'acknowledge', idOf('a'), 11);
  const comment = act('c1', 'comment', idOf('a'), 12, 'once');
  const noted = stateOf(t, apply(open, acting(ack, comment)));
  t.same(apply(noted, acting(ack, comment)), unchanged([taken(ack), taken(comment)]), 'the acknowledgement and the comment');
  t.same(apply(open, acting(comment, comment)).state?.notes, { [idOf('a')]: { ack: null, comments: 1 } }, 'twice in one input: counted once');
  const refreshed = stateOf(t, apply(noted, [opening('b', 20)]));
  t.same(apply(refreshed, acting(comment)), unchanged([taken(comment)]), 'after later hits');

  const resolve = act('r1', 'resolve', idOf('a'), 30);
  let resolved = stateOf(t, apply(refreshed, acting(resolve)));
  t.same(apply(resolved, acting(resolve)), unchanged([taken(resolve)]), 'a resolve');
  const more = Array.from({ length: REMEMBERED_ACTIONS }, (_, i) => act(`m${i}`, 'comment', idOf('a'), 31));
  resolved = stateOf(t, apply(resolved, acting(...more)));
  t.same([resolved.actionIds?.length, resolved.actionIds?.includes('r1')], [REMEMBERED_ACTIONS, false], 'only the last 64 ids are kept');
  t.same(apply(resolved, acting(resolve)), unchanged([taken(resolve)]), 'a resolve whose id was forgotten is known by its hit');
});

t.test('notes survive later hits, and are dropped once the problem is no longer held (after the change that folded it)', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 0)], HOUR));
  const noted = stateOf(t, apply(open, acting(act('x1', 'acknowledge', idOf('a'), 1, 'mine'), act('c1', 'comment', idOf('a'), 2)), HOUR));
  const notes = { [idOf('a')]: { ack: ackOf(1, 'mine'), comments: 1 } };
  const closed = stateOf(t, apply(noted, [opening('b', 5), resolving('r', 10)], HOUR));
  t.same(closed.notes, notes, 'after a refresh and a resolve');
  const folding = stateOf(t, apply(closed, [opening('c', 200)], HOUR));
  t.same([folding.folded.map((p) => p.id), folding.notes], [[idOf('a')], notes], 'the change that folds it keeps them, for its rows');
  t.match(rowsOfKey(rowModel(), folding, 3, at(201))[0], {
    id: idOf('a'),
    acknowledged: '{"by":7,"byName":"Ada","at":"2026-11-01T00:01:00.000Z","comment":"mine"}',
    comments_count: 1,
  });
  const after = stateOf(t, apply(folding, [opening('d', 210)], HOUR));
  t.same([after.notes, after.actionIds], [undefined, ['x1', 'c1']], 'the next change drops them; the action ids stay');
});

t.test('rows carry the acknowledgement as JSON (at in ISO) and the comment count; a problem without notes has "" and 0', async (t) => {
  const two = stateOf(t, apply(undefined, [opening('a', 10), resolving('r', 20), opening('b', 30)]));
  const noted = stateOf(t, apply(two, acting(act('x1', 'acknowledge', idOf('b'), 35, 'on it'), act('c1', 'comment', idOf('b'), 36), act('c2', 'comment', idOf('b'), 37))));
  t.same(
    rowsOfKey(rowModel(), noted, 4, at(40)).map((r) => [r.id, r.acknowledged, r.comments_count]),
    [
      [idOf('a'), '', 0],
      [idOf('b'), '{"by":7,"byName":"Ada","at":"2026-11-01T00:35:00.000Z","comment":"on it"}', 2],
    ],
  );
});

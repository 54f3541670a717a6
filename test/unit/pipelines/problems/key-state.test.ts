/** One (trigger, CI) key of the keyed problem stage (DESIGN §7a) as a pure step, and its rows. */

import type { Test } from 'tap';
import t from 'tap';
import { applyToKey, changedSpans, type KeyInput, type KeyState, spansToWrite, type TriggerFacts } from '../../../../pipelines/problems/key-state.js';
import { type Hit, type PriorityNumber, problemId, type TimelineLimits } from '../../../../pipelines/problems/problem-timeline.js';
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

const FACTS: TriggerFacts = { name: 'disk full', influence: { value: 30, maxInfluence: false }, tags: [{ id: 1, name: 'db', colorName: 'red' }] };
const OTHER: TriggerFacts = { name: 'disk nearly full', influence: { value: 60, maxInfluence: false }, tags: [] };

const opening = (id: string, minutes: number, priority: PriorityNumber = 2): Hit => ({ id, ts: at(minutes), resolve: false, priority, incidents: [] });
const resolving = (id: string, minutes: number): Hit => ({ id, ts: at(minutes), resolve: true, priority: 2, incidents: [] });
const idOf = (hitId: string) => problemId(TRIGGER, CI, hitId);
const closeHit = (closeAtMinutes: number, ts: number, priority: PriorityNumber = 2): Hit => ({
  id: `closed:${TRIGGER}:${CI}:${at(closeAtMinutes)}`,
  ts,
  resolve: true,
  priority,
  incidents: [],
});
const closing = (minutes: number, hits: Hit[] = []): KeyInput => ({ hits, closeAt: at(minutes) });

/** One step on the key (TRIGGER, CI); `facts` undefined: the trigger is deleted. */
function apply(before: KeyState | undefined, input: Hit[] | KeyInput, facts: TriggerFacts | undefined, limits: TimelineLimits = WIDE) {
  return applyToKey(before, TRIGGER, CI, Array.isArray(input) ? { hits: input } : input, facts, limits);
}

/** The state a step left; fails the test when the step changed nothing. */
function stateOf(t: Test, outcome: ReturnType<typeof apply>): KeyState {
  if (!outcome.state) {
    t.fail('the step changed nothing');
    throw new Error('no state');
  }
  return outcome.state;
}

/** What a step on hits and closes alone answers of actions: none. */
const NO_ACTIONS = { verdicts: [], touched: [], outside: [] };
const NOTHING = { state: undefined, placed: 0, tooLate: 0, transition: false, ...NO_ACTIONS };

t.test('hits are placed once per key: the first opens the problem, later ones refresh it', async (t) => {
  const first = apply(undefined, [opening('a', 10), opening('b', 20)], FACTS);
  t.same(first, {
    state: {
      triggerId: TRIGGER,
      ciId: CI,
      settledUntil: null,
      carry: null,
      hits: [opening('a', 10), opening('b', 20)],
      trigger: FACTS,
      open: { id: idOf('a'), start: at(10), end: null, lastEventAt: at(20), priority: 2, incidents: [] },
      changedAt: at(10),
      folded: [],
      removedIds: [],
    },
    placed: 2,
    tooLate: 0,
    transition: true,
    ...NO_ACTIONS,
  });
  const state = stateOf(t, first);
  t.same(apply(state, [opening('a', 10), opening('b', 20)], FACTS), NOTHING, 'a redelivered batch changes nothing');
  const mixed = apply(state, [opening('a', 10), opening('c', 30)], FACTS);
  t.same([mixed.placed, mixed.tooLate, mixed.transition], [1, 0, false], 'only the new hit is placed');
  t.same(
    mixed.state?.hits.map((h) => h.id),
    ['a', 'b', 'c'],
  );
  t.same(mixed.state?.open, { id: idOf('a'), start: at(10), end: null, lastEventAt: at(30), priority: 2, incidents: [] });
});

t.test('transition: true for a new key and when the key opens or closes, false for a refresh; changedAt is the last opening or closing', async (t) => {
  const opened = apply(undefined, [opening('a', 10)], FACTS);
  t.same([opened.transition, opened.state?.changedAt], [true, at(10)], 'a new key');
  const refreshed = apply(stateOf(t, opened), [opening('b', 20)], FACTS);
  t.same([refreshed.transition, refreshed.state?.changedAt], [false, at(10)], 'a refresh is no change of state');
  const closed = apply(stateOf(t, refreshed), [resolving('r', 30)], FACTS);
  t.same([closed.transition, closed.state?.changedAt, closed.state?.open], [true, at(30), null], 'closed');
  const resolvedAgain = apply(stateOf(t, closed), [resolving('s', 35)], FACTS);
  t.same([resolvedAgain.placed, resolvedAgain.transition, resolvedAgain.state?.changedAt], [1, false, at(30)], 'a resolve on a closed key: placed, no transition');
  const reopened = apply(stateOf(t, closed), [opening('c', 40)], FACTS);
  t.same([reopened.transition, reopened.state?.changedAt, reopened.state?.open?.id], [true, at(40), idOf('c')], 'opened again');
  const again = apply(stateOf(t, reopened), [opening('d', 50)], FACTS);
  t.same([again.transition, again.state?.changedAt], [false, at(40)]);

  const onlyResolved = apply(undefined, [resolving('r', 10)], FACTS);
  t.same(
    [onlyResolved.placed, onlyResolved.transition, onlyResolved.state?.open, onlyResolved.state?.changedAt],
    [1, true, null, at(10)],
    'a new key that never opened: a transition (Unknown turns Ok), changedAt its first hit',
  );
});

t.test('a late hit that re-orders a problem away lists its id in removedIds, for that change only', async (t) => {
  const first = stateOf(t, apply(undefined, [opening('b', 20)], FACTS));
  const late = apply(first, [opening('a', 10)], FACTS);
  t.same(late.state?.removedIds, [idOf('b')]);
  t.same(late.state?.open, { id: idOf('a'), start: at(10), end: null, lastEventAt: at(20), priority: 2, incidents: [] });
  t.same([late.transition, late.state?.changedAt], [false, at(10)], 'still open: no transition');
  const next = apply(stateOf(t, late), [opening('c', 30)], FACTS);
  t.same(next.state?.removedIds, [], 'only the last change’s');
});

t.test('the late window: closed problems folded out are listed once in folded, an open one is carried, older hits are too late', async (t) => {
  const s1 = apply(undefined, [opening('a', 0), resolving('r', 10)], FACTS, HOUR);
  t.same([s1.state?.folded, s1.state?.settledUntil], [[], null]);
  const s2 = apply(stateOf(t, s1), [opening('b', 200)], FACTS, HOUR);
  t.same(s2.state, {
    triggerId: TRIGGER,
    ciId: CI,
    settledUntil: at(140),
    carry: null,
    hits: [opening('b', 200)],
    trigger: FACTS,
    open: { id: idOf('b'), start: at(200), end: null, lastEventAt: at(200), priority: 2, incidents: [] },
    changedAt: at(200),
    folded: [{ id: idOf('a'), start: at(0), end: at(10), lastEventAt: at(0), priority: 2, incidents: [] }],
    removedIds: [],
  });
  t.equal(s2.transition, true);
  const s3 = apply(stateOf(t, s2), [opening('c', 400)], FACTS, HOUR);
  t.same(s3.state?.folded, [], 'the open problem is carried, not folded');
  t.same(s3.state?.carry, { id: idOf('b'), start: at(200), end: null, lastEventAt: at(200), priority: 2, incidents: [] });
  t.same([s3.state?.settledUntil, s3.state?.hits.map((h) => h.id)], [at(340), ['c']], 'settled up to an hour behind the newest');
  t.same(s3.state?.open, { id: idOf('b'), start: at(200), end: null, lastEventAt: at(400), priority: 2, incidents: [] });
  t.equal(s3.transition, false);
  const state = stateOf(t, s3);
  t.same(apply(state, [opening('x', 100)], FACTS, HOUR), { state: undefined, placed: 0, tooLate: 1, transition: false, ...NO_ACTIONS });
  const mixed = apply(state, [opening('x', 100), opening('y', 410)], FACTS, HOUR);
  t.same([mixed.placed, mixed.tooLate], [1, 1], 'a too-late hit is counted beside the placed ones');
});

t.test('over its budget a key whose hits alternate folds its oldest, and a hit before the settled part is too late', async (t) => {
  const capped: TimelineLimits = { lateWindowMs: 24 * 60 * MIN, maxHits: 2 };
  const s = stateOf(t, apply(undefined, [opening('a', 10), resolving('r', 20), opening('c', 30)], FACTS, capped));
  t.same([s.settledUntil, s.carry?.id, s.hits.map((h) => h.id)], [at(20), idOf('a'), ['r', 'c']], 'a folded, carried open into the settled part');
  t.same(apply(s, [opening('x', 15)], FACTS, capped), { state: undefined, placed: 0, tooLate: 1, transition: false, ...NO_ACTIONS });
  const onTheEdge = apply(s, [opening('y', 20)], FACTS, capped);
  t.same([onTheEdge.placed, onTheEdge.tooLate], [1, 0], 'a hit dated at settledUntil is still placed');
});

t.test('issue #34: 300 firing records over 5 minutes, then a resolve dated 10 s after the first closes the problem at its date', async (t) => {
  const firing = Array.from({ length: 300 }, (_, i): Hit => ({ id: `down-${String(i).padStart(3, '0')}`, ts: at(0) + i * 1000, resolve: false, priority: 2, incidents: [] }));
  const open = stateOf(t, apply(undefined, firing, FACTS));
  t.same(open.settledUntil, null, 'nothing folded: all 300 are within the hour');
  const late = apply(open, [{ id: 'ok', ts: at(0) + 10_000, resolve: true, priority: 2, incidents: [] }], FACTS);
  t.equal(late.tooLate, 0, 'not too late');
  const spans = spansToWrite(stateOf(t, late));
  t.same(
    spans[0],
    { id: idOf('down-000'), start: at(0), end: at(0) + 10_000, lastEventAt: at(0) + 10_000, priority: 2, incidents: [] },
    'closed at the resolve (the record of the same date sorts first by its id)',
  );
  t.equal(spans[1]?.start, at(0) + 11_000, 'the records after it open the next problem');
});

t.test('a close resolves the open problem at closeAt', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('a', 10, 3), opening('b', 20)], FACTS));
  t.same(apply(open, closing(30), FACTS), {
    state: {
      triggerId: TRIGGER,
      ciId: CI,
      settledUntil: null,
      carry: null,
      hits: [opening('a', 10, 3), opening('b', 20), closeHit(30, at(30), 3)],
      trigger: FACTS,
      open: null,
      changedAt: at(30),
      folded: [],
      removedIds: [],
    },
    placed: 0,
    tooLate: 0,
    transition: true,
    ...NO_ACTIONS,
  });
});

t.test('a close dated at or before the open problem’s last event resolves it just after that event', async (t) => {
  // Event ids are hex UUIDs: one sorting after "closed:…" on the close's date must not leave the problem open.
  for (const eventId of ['0a1b2c3d-0000-0000-0000-000000000001', 'f0e1d2c3-0000-0000-0000-000000000001']) {
    for (const closeAt of [5, 10]) {
      const open = stateOf(t, apply(undefined, [opening(eventId, 10)], FACTS));
      const closed = apply(open, closing(closeAt), FACTS).state;
      t.same(
        closed && spansToWrite(closed),
        [{ id: problemId(TRIGGER, CI, eventId), start: at(10), end: at(10) + 1, lastEventAt: at(10), priority: 2, incidents: [] }],
        `event ${eventId} at minute 10, close at minute ${closeAt}: closed 1 ms after the event`,
      );
      t.equal(closed?.open, null);
    }
  }
  const refreshed = stateOf(t, apply(undefined, [opening('a', 10), opening('b', 20)], FACTS));
  t.same(apply(refreshed, closing(15), FACTS).state?.hits.at(-1), closeHit(15, at(20) + 1), 'a close between the start and the last refresh ends the problem after the refresh');
});

t.test('a close on a key with nothing open changes nothing', async (t) => {
  const closed = stateOf(t, apply(undefined, [opening('a', 10), resolving('r', 20)], FACTS));
  t.same(apply(closed, closing(30), FACTS), NOTHING, 'its problem already resolved');
  t.same(apply(undefined, closing(30), FACTS), NOTHING, 'a key never seen');
  const closedByClose = stateOf(t, apply(stateOf(t, apply(undefined, [opening('a', 10)], FACTS)), closing(30), FACTS));
  t.same(apply(closedByClose, closing(30), FACTS), NOTHING, 'a redelivered close');
});

t.test('hits and a close in one call: the hits are placed, then the close after them', async (t) => {
  const fresh = apply(undefined, closing(30, [opening('a', 10)]), FACTS);
  t.same(
    [fresh.placed, fresh.transition, fresh.state?.open, fresh.state?.changedAt, fresh.state && spansToWrite(fresh.state)],
    [1, true, null, at(30), [{ id: idOf('a'), start: at(10), end: at(30), lastEventAt: at(10), priority: 2, incidents: [] }]],
    'a new key opened and closed by one message',
  );
  const open = stateOf(t, apply(undefined, [opening('a', 10)], FACTS));
  const later = apply(open, closing(30, [opening('b', 40)]), FACTS);
  t.same([later.placed, later.transition, later.state?.hits.at(-1)], [1, true, closeHit(30, at(40) + 1)], 'a hit dated after the close: the problem ends just after it');
});

t.test('hits and a close in one call: a problem the hits re-ordered away is still listed as removed', async (t) => {
  const open = stateOf(t, apply(undefined, [opening('b', 20)], FACTS));
  const outcome = apply(open, closing(30, [opening('a', 10)]), FACTS);
  const state = stateOf(t, outcome);
  t.same(state.removedIds, [idOf('b')], 'removed by the hits, not named by the close');
  t.same(spansToWrite(state), [{ id: idOf('a'), start: at(10), end: at(30), lastEventAt: at(20), priority: 2, incidents: [] }]);
  t.equal(outcome.transition, true);
  t.same(
    rowsOfKey(rowModel(), state, 2, at(31)).map(rowShape),
    [
      { id: idOf('a'), is_deleted: 0, date_start: '2026-11-01 00:10:00.000', date_end: '2026-11-01 00:30:00.000', version: 2 },
      { id: idOf('b'), is_deleted: 1, date_start: '1970-01-01 00:00:00.000', date_end: '1970-01-01 00:00:00.000', version: 2 },
    ],
    'its rows: the problem closed, the removed one written as deleted',
  );
});

t.test('hits and a close in one call: a problem the hits folded is still written', async (t) => {
  const closed = stateOf(t, apply(undefined, [opening('a', 0), resolving('r', 10)], FACTS, HOUR));
  const state = stateOf(t, apply(closed, closing(300, [opening('b', 200)]), FACTS, HOUR));
  t.same(state.folded, [{ id: idOf('a'), start: at(0), end: at(10), lastEventAt: at(0), priority: 2, incidents: [] }], 'folded by the hits, kept after the close');
  t.same(rowsOfKey(rowModel(), state, 2, at(301)).map(rowShape), [
    { id: idOf('a'), is_deleted: 0, date_start: '2026-11-01 00:00:00.000', date_end: '2026-11-01 00:10:00.000', version: 2 },
    { id: idOf('b'), is_deleted: 0, date_start: '2026-11-01 03:20:00.000', date_end: '2026-11-01 05:00:00.000', version: 2 },
  ]);
});

t.test('a problem removed and then back is not written as deleted, even when an earlier attempt wrote it (gone)', async (t) => {
  const s1 = stateOf(t, apply(undefined, [opening('b', 20), resolving('r', 25)], FACTS));
  const s2 = stateOf(t, apply(s1, [opening('a', 10)], FACTS));
  t.same(s2.removedIds, [idOf('b')]);
  t.same(
    rowsOfKey(rowModel(), s2, 2, at(26)).map((r) => [r.id, r.is_deleted]),
    [
      [idOf('a'), 0],
      [idOf('b'), 1],
    ],
  );
  const s3 = stateOf(t, apply(s2, [resolving('q', 15)], FACTS));
  t.same(s3.removedIds, [], 'b is live again');
  const unknown = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
  t.same(
    rowsOfKey(rowModel(), s3, 3, at(26), spansToWrite(s3), [idOf('b'), unknown]).map((r) => [r.id, r.is_deleted, r.version]),
    [
      [idOf('a'), 0, 3],
      [idOf('b'), 0, 3],
      [unknown, 1, 3],
    ],
    'a gone id the state still has is written live; one it has not is written as deleted',
  );
});

t.test('a key keeps its trigger’s facts once the trigger is deleted, and so do its rows', async (t) => {
  const first = stateOf(t, apply(undefined, [opening('a', 10)], FACTS));
  t.same(first.trigger, FACTS);
  const afterDelete = stateOf(t, apply(first, [opening('b', 20)], undefined));
  t.same(afterDelete.trigger, FACTS, 'hits after the delete');
  t.same(stateOf(t, apply(afterDelete, closing(30), undefined)).trigger, FACTS, 'the close');
  t.same(stateOf(t, apply(first, [opening('b', 20)], OTHER)).trigger, OTHER, 'a changed trigger: its current facts');
  t.same(stateOf(t, apply(undefined, [opening('a', 10)], undefined)).trigger, { name: '', influence: { value: 0, maxInfluence: false }, tags: [] }, 'never known');

  const [known] = rowsOfKey(rowModel(), afterDelete, 2, at(21));
  t.match(known, { trigger_name: 'trigger 1', influence_value: 45, tags: '[]' }, 'rows: the trigger as the platform knows it now');
  const [kept] = rowsOfKey(rowModel(false), afterDelete, 2, at(21));
  t.match(kept, { trigger_name: 'disk full', influence_value: 30, influence_max: 0, tags: JSON.stringify(FACTS.tags) }, 'rows: the key’s facts once it is deleted');
});

/** A control model with CI 1 and, unless `withTrigger` is false, trigger 1 (influence 45). */
function rowModel(withTrigger = true): PlatformModel {
  const m = createControlModel();
  const records = new Map<string, unknown>([[`ci:${CI}`, ciRecord(CI, null)]]);
  if (withTrigger) records.set(`trigger:${TRIGGER}`, triggerRecord({ id: TRIGGER, influence: { value: 45, maxInfluence: false } }));
  m.load(records, 1);
  return m;
}

const rowShape = (r: { id: string; is_deleted: number; date_start: string; date_end: string | null; version: number }) => ({
  id: r.id,
  is_deleted: r.is_deleted,
  date_start: r.date_start,
  date_end: r.date_end,
  version: r.version,
});

t.test('only the problems a change created or altered are written: a refresh one, a quiet key none', async (t) => {
  const first = apply(undefined, [opening('a', 10), resolving('b', 20), opening('c', 30)], FACTS).state!;
  t.same(
    changedSpans(undefined, first).map((s) => s.id),
    [idOf('a'), idOf('c')],
    'a new key: all its problems',
  );
  const refreshed = apply(first, [opening('d', 31)], FACTS).state!;
  t.same(
    changedSpans(first, refreshed).map((s) => [s.id, s.lastEventAt]),
    [[idOf('c'), at(31)]],
    'the open one, refreshed',
  );
  const closed = apply(refreshed, [resolving('e', 40), resolving('f', 41)], FACTS).state!;
  t.same(
    changedSpans(refreshed, closed).map((s) => [s.id, s.end]),
    [[idOf('c'), at(40)]],
    'closed',
  );
  const quiet = apply(closed, [resolving('g', 42)], FACTS).state!;
  t.same(changedSpans(closed, quiet), [], 'another resolve on a closed key changes no problem');
  const split = apply(quiet, [resolving('h', 15)], FACTS).state!;
  t.same(
    changedSpans(quiet, split).map((s) => [s.id, s.end]),
    [[idOf('a'), at(15)]],
    'a late resolve ends an old problem earlier',
  );
});

t.test('a repeated close changes nothing, even after a later hit opened a new problem', async (t) => {
  const open = apply(undefined, [opening('a', 10)], FACTS).state!;
  const closed = apply(open, closing(12), FACTS).state!;
  const reopened = apply(closed, [opening('b', 20)], FACTS).state!;
  t.ok(reopened.open, 'open again');
  const again = apply(reopened, closing(12), FACTS);
  t.equal(again.state, undefined, 'the close is known by its id');
});

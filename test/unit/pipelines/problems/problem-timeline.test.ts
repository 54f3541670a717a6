/** The life of the problems of one (trigger, CI) key (DESIGN §7) as a pure function of its hits. */
import t from 'tap';
import {
  emptyTimeline,
  type Hit,
  type IncidentRef,
  type KeyTimeline,
  type PriorityNumber,
  placeHits,
  problemId,
  problemsOf,
  type TimelineLimits,
} from '../../../../pipelines/problems/problem-timeline.js';
import { seededRandom as mulberry32 } from '../../../support/random.js';

const TRIGGER = 7;
const CI = 42;
const MIN = 60_000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;
/** Wide enough that nothing is folded. */
const WIDE: TimelineLimits = { lateWindowMs: 24 * 60 * MIN, maxHits: 1000 };

const ref = (id: string, connectorId = 1): IncidentRef => ({ connectorId, connectorName: `connector ${connectorId}`, id, type: 'ticket' });
const opening = (id: string, minutes: number, incidents: IncidentRef[] = [], priority: PriorityNumber = 2): Hit => ({ id, ts: at(minutes), resolve: false, priority, incidents });
const resolving = (id: string, minutes: number): Hit => ({ id, ts: at(minutes), resolve: true, priority: 2, incidents: [] });
const idOf = (hitId: string) => problemId(TRIGGER, CI, hitId);

/** Places the hits one batch after another, and returns the last outcome. */
function place(batches: Hit[][], limits: TimelineLimits = WIDE, from: KeyTimeline = emptyTimeline()) {
  let timeline = from;
  let outcome = placeHits(timeline, [], TRIGGER, CI, limits);
  for (const batch of batches) {
    outcome = placeHits(timeline, batch, TRIGGER, CI, limits);
    timeline = outcome.timeline;
  }
  return outcome;
}

t.test('the first non-resolving hit opens a problem whose id derives from that hit', async (t) => {
  const out = place([[opening('a', 10, [ref('INC-1')], 3)]]);
  t.same(out.problems, [{ id: idOf('a'), start: at(10), end: null, lastEventAt: at(10), priority: 3, incidents: [ref('INC-1')] }]);
  t.equal(out.added, 1);
  t.same(out.removedIds, []);
  t.equal(out.tooLate, 0);
});

t.test('later non-resolving hits refresh the open problem: lastEventAt, incidents merged without duplicates', async (t) => {
  const out = place([[opening('a', 10, [ref('INC-1')], 3)], [opening('b', 20, [ref('INC-1'), ref('INC-2')], 1)], [opening('c', 30, [ref('INC-1', 2)])]]);
  t.same(
    out.problems,
    [
      {
        id: idOf('a'),
        start: at(10),
        end: null,
        lastEventAt: at(30),
        priority: 3,
        incidents: [ref('INC-1'), ref('INC-2'), ref('INC-1', 2)],
      },
    ],
    'one problem; the priority is the opening hit’s; the same id on another connector is another incident',
  );
});

t.test('a resolving hit closes the open problem with dateEnd = its ts; the next opening starts a new one', async (t) => {
  const out = place([[opening('a', 10), opening('b', 20)], [resolving('r', 25)], [opening('c', 40)]]);
  t.same(out.problems, [
    { id: idOf('a'), start: at(10), end: at(25), lastEventAt: at(20), priority: 2, incidents: [] },
    { id: idOf('c'), start: at(40), end: null, lastEventAt: at(40), priority: 2, incidents: [] },
  ]);
});

t.test('a resolve with nothing open does nothing', async (t) => {
  const first = place([[resolving('r', 5)]]);
  t.same(first.problems, []);
  t.equal(first.added, 1, 'the hit is kept on the timeline');
  const again = place([[opening('a', 10), resolving('r1', 20)], [resolving('r2', 30)]]);
  t.same(again.problems, [{ id: idOf('a'), start: at(10), end: at(20), lastEventAt: at(10), priority: 2, incidents: [] }], 'a second resolve moves no end');
});

t.test('a late resolve dated before a later opening leaves that problem open', async (t) => {
  const out = place([[opening('a', 10)], [resolving('r', 5)]]);
  t.same(out.problems, [{ id: idOf('a'), start: at(10), end: null, lastEventAt: at(10), priority: 2, incidents: [] }]);
  t.same(out.removedIds, []);
  t.equal(out.added, 1);
});

t.test('a late resolve inside a problem splits it: the tail is a new problem whose id derives from its first hit', async (t) => {
  const out = place([[opening('a', 10, [ref('INC-1')]), opening('b', 20, [ref('INC-2')]), opening('c', 30, [ref('INC-3')])], [resolving('r', 15)]]);
  t.same(out.problems, [
    { id: idOf('a'), start: at(10), end: at(15), lastEventAt: at(10), priority: 2, incidents: [ref('INC-1')] },
    { id: idOf('b'), start: at(20), end: null, lastEventAt: at(30), priority: 2, incidents: [ref('INC-2'), ref('INC-3')] },
  ]);
  t.same(out.removedIds, [], 'the head keeps the id of the problem that was');
});

t.test('a late opening hit before a problem’s start merges them; the old problem’s id is removed', async (t) => {
  const out = place([[opening('a', 20, [ref('INC-2')])], [opening('z', 10, [ref('INC-1')])]]);
  t.same(out.problems, [{ id: idOf('z'), start: at(10), end: null, lastEventAt: at(20), priority: 2, incidents: [ref('INC-1'), ref('INC-2')] }]);
  t.same(out.removedIds, [idOf('a')]);

  const between = place([[opening('a', 10), resolving('r', 20), opening('b', 30)], [opening('x', 25)]]);
  t.same(
    between.problems.map((p) => [p.id, p.start, p.end]),
    [
      [idOf('a'), at(10), at(20)],
      [idOf('x'), at(25), null],
    ],
    'an opening between a resolve and the next problem takes that problem over',
  );
  t.same(between.removedIds, [idOf('b')]);
});

t.test('a hit already placed (same id) changes nothing: redelivery', async (t) => {
  const first = place([[opening('a', 10), resolving('r', 20)]]);
  const again = placeHits(first.timeline, [opening('a', 10), resolving('r', 20)], TRIGGER, CI, WIDE);
  t.equal(again.added, 0);
  t.equal(again.timeline, first.timeline, 'the very same timeline');
  t.same(again.problems, first.problems);
  t.same(again.removedIds, []);

  const twice = placeHits(emptyTimeline(), [opening('a', 10), opening('a', 10)], TRIGGER, CI, WIDE);
  t.equal(twice.added, 1, 'the same hit twice in one batch counts once');
  t.equal(twice.timeline.hits.length, 1);
});

t.test('hits dated before settledUntil are counted in tooLate and ignored', async (t) => {
  const limits = { lateWindowMs: 60 * MIN, maxHits: 1000 };
  const settled = place([[opening('a', 0)], [opening('b', 100)]], limits);
  t.equal(settled.timeline.settledUntil, at(40), 'the window reaches an hour behind the newest hit');
  const late = placeHits(settled.timeline, [resolving('r', 30), opening('c', 39)], TRIGGER, CI, limits);
  t.equal(late.tooLate, 2);
  t.equal(late.added, 0);
  t.equal(late.timeline, settled.timeline);
  const onTheEdge = placeHits(settled.timeline, [resolving('r', 40)], TRIGGER, CI, limits);
  t.equal(onTheEdge.tooLate, 0, 'a hit at settledUntil itself is placed, though no hit was kept there');
  t.equal(onTheEdge.added, 1);
  t.same(
    onTheEdge.problems.map((p) => [p.start, p.end]),
    [
      [at(0), at(40)],
      [at(100), null],
    ],
    'it closes the problem carried from the folded hits',
  );
});

t.test('settling folds the hits older than the late window behind the newest; the problem open at the cut is carried with its id', async (t) => {
  const limits = { lateWindowMs: 60 * MIN, maxHits: 1000 };
  const out = place([[opening('a', 0, [ref('INC-1')]), opening('b', 30, [ref('INC-2')])], [opening('c', 200)]], limits);
  t.same(
    out.timeline.hits.map((h) => h.id),
    ['c'],
  );
  t.equal(out.timeline.settledUntil, at(140));
  t.same(out.timeline.carry, { id: idOf('a'), start: at(0), end: null, lastEventAt: at(30), priority: 2, incidents: [ref('INC-1'), ref('INC-2')] });
  const whole = [{ id: idOf('a'), start: at(0), end: null, lastEventAt: at(200), priority: 2, incidents: [ref('INC-1'), ref('INC-2')] }];
  t.same(out.problems, whole, 'the rows to write, before folding');
  t.same(problemsOf(out.timeline, TRIGGER, CI), whole, 'the folded timeline shows the same problem');

  const closed = place([[opening('a', 0), resolving('r', 10)], [opening('c', 200)]], limits);
  t.equal(closed.timeline.carry, null, 'a problem closed before the cut is not carried');
  t.same(
    closed.problems.map((p) => p.id),
    [idOf('a'), idOf('c')],
  );
  t.same(
    problemsOf(closed.timeline, TRIGGER, CI).map((p) => p.id),
    [idOf('c')],
  );
});

t.test('late data by time: a key keeps every hit of its window, however many, and places a late resolve among them', async (t) => {
  const limits = { lateWindowMs: 60 * MIN, maxHits: 1024 };
  const hits = Array.from({ length: 600 }, (_, i) => opening(`h${String(i).padStart(3, '0')}`, i * 0.1));
  const out = place([hits], limits);
  t.equal(out.timeline.hits.length, 600, 'all kept');
  t.equal(out.timeline.settledUntil, null);
  const late = placeHits(out.timeline, [resolving('r', 0.05)], TRIGGER, CI, limits);
  t.equal(late.tooLate, 0);
  t.same(
    late.problems.map((p) => [p.start, p.end]),
    [
      [at(0), at(0.05)],
      [at(0.1), null],
    ],
  );
});

t.test(
  'over its budget a key thins runs of alike firing hits, a grain apart, keeping each run’s ends, resolves and hits naming incidents; its problems stay the same',
  async (t) => {
    const limits = { lateWindowMs: 60 * MIN, maxHits: 50 };
    // Two runs of 100 hits a quarter second apart, a resolve between, an incident in the second run.
    const first = Array.from({ length: 100 }, (_, i) => ({ ...opening(`a${String(i).padStart(3, '0')}`, 0), ts: at(0) + i * 250 }));
    const second = Array.from({ length: 100 }, (_, i) => ({ ...opening(`b${String(i).padStart(3, '0')}`, 0, i === 50 ? [ref('INC-9')] : []), ts: at(1) + i * 250 }));
    const all = [...first, { ...resolving('r', 0), ts: at(0) + 30_000 }, ...second];
    const whole = place([all], WIDE);
    const out = place([all], limits);
    t.ok(out.timeline.hits.length <= 50, `within the budget: ${out.timeline.hits.length} hits`);
    t.equal(out.timeline.settledUntil, null, 'nothing folded');
    const ids = new Set(out.timeline.hits.map((h) => h.id));
    for (const kept of ['a000', 'a099', 'r', 'b000', 'b050', 'b099']) t.ok(ids.has(kept), `${kept} kept`);
    t.same(problemsOf(out.timeline, TRIGGER, CI), problemsOf(whole.timeline, TRIGGER, CI), 'the same problems as with every hit');
    const run = out.timeline.hits.filter((h) => h.id.startsWith('a'));
    const gaps = run.slice(1, -1).map((h, i) => h.ts - run[i]!.ts);
    t.ok(gaps.length > 0 && gaps.every((g) => g >= 1000), `inside a run, kept hits are a grain or more apart (but for the last): ${gaps.join(', ')}`);
    const split = placeHits(out.timeline, [{ ...resolving('late', 0), ts: at(0) + 10_100 }], TRIGGER, CI, limits);
    t.equal(split.tooLate, 0);
    const [closed, reopened] = split.problems;
    t.same([closed!.start, closed!.end], [at(0), at(0) + 10_100], 'a late resolve is placed at its own date');
    t.ok(reopened!.start - (at(0) + 10_250) < 4000, 'the problem after it starts within a grain of the record that opened it');
  },
);

t.test('over its budget with hits too varied to thin, the oldest fold; hits sharing the cut’s date stay together', async (t) => {
  const limits = { lateWindowMs: 24 * 60 * MIN, maxHits: 3 };
  const out = place([[opening('a', 0), resolving('r1', 1), opening('c', 2), resolving('r2', 3), opening('e', 4)]], limits);
  t.same(
    out.timeline.hits.map((h) => h.id),
    ['c', 'r2', 'e'],
  );
  t.equal(out.timeline.settledUntil, at(2));
  const tied = place([[opening('a', 0), resolving('b', 0), opening('c', 1)]], { ...limits, maxHits: 2 });
  t.same(
    tied.timeline.hits.map((h) => h.id),
    ['a', 'b', 'c'],
    'the cut would split two hits of the same date',
  );
  t.equal(tied.timeline.settledUntil, null);
});

t.test('problem ids are UUID-shaped, deterministic, and differ by trigger, CI and opening hit', async (t) => {
  const id = problemId(1, 2, 'x');
  t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.equal(problemId(1, 2, 'x'), id);
  t.equal(new Set([id, problemId(2, 2, 'x'), problemId(1, 3, 'x'), problemId(1, 2, 'y'), problemId(12, 3, 'x'), problemId(1, 23, 'x')]).size, 6);
  t.equal(place([[opening('x', 1)]]).problems[0]?.id, problemId(TRIGGER, CI, 'x'), 'placeHits uses the same id');
});

t.test('property: any arrival order and batch split gives the same problems as all hits at once', async (t) => {
  const keys = [
    [1, 10],
    [1, 11],
    [2, 10],
  ] as const;
  const incidentPool = [ref('INC-1'), ref('INC-2'), ref('INC-1', 2)];
  const mismatches: string[] = [];
  let problems = 0;
  let removals = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const rand = mulberry32(seed);
    const int = (n: number) => Math.floor(rand() * n);
    const hits = Array.from({ length: 1 + int(30) }, (_, i) => {
      const [triggerId, ciId] = keys[int(keys.length)]!;
      const resolve = rand() < 0.35;
      const hit: Hit = {
        id: `h${int(1000)}-${i}`,
        ts: at(int(40)), // few distinct dates, so equal dates are ordered by id
        resolve,
        priority: (1 + int(4)) as PriorityNumber,
        incidents: resolve ? [] : incidentPool.filter(() => rand() < 0.3),
      };
      return { triggerId, ciId, hit };
    });
    const problemsByKey = (batches: Array<typeof hits>) => {
      const timelines = new Map<string, KeyTimeline>();
      for (const batch of batches) {
        for (const [triggerId, ciId] of keys) {
          const key = `${triggerId}:${ciId}`;
          const mine = batch.filter((h) => h.triggerId === triggerId && h.ciId === ciId).map((h) => h.hit);
          const out = placeHits(timelines.get(key) ?? emptyTimeline(), mine, triggerId, ciId, WIDE);
          removals += out.removedIds.length;
          timelines.set(key, out.timeline);
        }
      }
      return keys.map(([triggerId, ciId]) => problemsOf(timelines.get(`${triggerId}:${ciId}`) ?? emptyTimeline(), triggerId, ciId));
    };
    const expected = problemsByKey([hits]);
    problems += expected.flat().length;
    for (let round = 0; round < 4; round++) {
      // Shuffle, redeliver some hits, and split into random batches; the last round in date order
      // (each batch then extends the timeline).
      const shuffled = [...hits, ...hits.filter(() => rand() < 0.2)];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      if (round === 3) shuffled.sort((a, b) => a.hit.ts - b.hit.ts || (a.hit.id < b.hit.id ? -1 : 1));
      const batches: Array<typeof hits> = [];
      for (let i = 0; i < shuffled.length;) {
        const size = 1 + int(5);
        batches.push(shuffled.slice(i, i + size));
        i += size;
      }
      const actual = problemsByKey(batches);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push(`seed ${seed} round ${round}`);
    }
  }
  t.same(mismatches, [], '200 sequences × 4 orders');
  t.ok(problems > 400 && removals > 50, `the sequences exercise the timeline (${problems} problems, ${removals} re-ordered away)`);
});

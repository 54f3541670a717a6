/** The problem stage's group runner: what the partition consumers hand over, in groups run one at a time. */
import t from 'tap';
import { createGroupRunner } from '../../../../../services/event-worker/problem-stage/group-runner.js';

interface Gate {
  promise: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A runner that records its groups and how many ran at once; the first group waits for `held`. */
function recordingRunner(held?: Gate) {
  const groups: number[][] = [];
  const errors: unknown[] = [];
  const started = gate();
  let running = 0;
  let most = 0;
  const enqueue = createGroupRunner<number>(
    async (items) => {
      groups.push(items);
      running++;
      most = Math.max(most, running);
      started.open();
      if (groups.length === 1 && held) await held.promise;
      await nextTurn();
      running--;
    },
    (error) => errors.push(error),
  );
  return { enqueue, groups, errors, started: started.promise, most: () => most };
}

t.test('items arriving in the same turn form one group', async (t) => {
  const r = recordingRunner();
  await Promise.all([r.enqueue(1), r.enqueue(2), r.enqueue(3)]);
  t.same(r.groups, [[1, 2, 3]]);
  t.same(r.errors, []);
});

t.test('items arriving while a group runs form the next group; groups run one at a time', async (t) => {
  const held = gate();
  const r = recordingRunner(held);
  let firstDone = false;
  const first = Promise.all([r.enqueue(1), r.enqueue(2)]).then(() => (firstDone = true));
  await r.started;
  const second = [r.enqueue(3)];
  await nextTurn();
  second.push(r.enqueue(4), r.enqueue(5));
  await nextTurn();
  t.same(r.groups, [[1, 2]], 'nothing else runs while the first group does');
  t.notOk(firstDone, 'the first group’s items are pending while it runs');
  held.open();
  await first;
  await Promise.all(second);
  t.same(
    r.groups,
    [
      [1, 2],
      [3, 4, 5],
    ],
    'everything that arrived meanwhile, in arrival order, as one group',
  );
  t.equal(r.most(), 1, 'never two groups at once');
  await r.enqueue(6);
  t.same(r.groups.at(-1), [6], 'an item after the runner went idle starts a new group');
  t.same(r.errors, []);
});

t.test('many items over many turns: every item runs once, in order, one group at a time', async (t) => {
  const r = recordingRunner();
  const done: Array<Promise<void>> = [];
  for (let i = 0; i < 50; i++) {
    done.push(r.enqueue(i));
    if (i % 7 === 0) await nextTurn();
  }
  await Promise.all(done);
  t.same(
    r.groups.flat(),
    Array.from({ length: 50 }, (_, i) => i),
  );
  t.ok(r.groups.length > 1, `${r.groups.length} groups`);
  t.equal(r.most(), 1);
});

t.test('a failing run reports to onError and still resolves its items; the next group runs', async (t) => {
  const errors: unknown[] = [];
  const groups: string[][] = [];
  const failure = new Error('run failure expected by the test');
  const enqueue = createGroupRunner<string>(
    async (items) => {
      groups.push(items);
      if (items.includes('bad')) throw failure;
    },
    (error) => errors.push(error),
  );
  await Promise.all([enqueue('bad'), enqueue('same group')]);
  t.same(errors, [failure], 'reported once');
  await enqueue('next');
  t.same(groups, [['bad', 'same group'], ['next']]);
  t.same(errors, [failure], 'the next group ran without error');

  const syncErrors: unknown[] = [];
  const throwsAtOnce = createGroupRunner<number>(
    () => {
      throw failure;
    },
    (error) => syncErrors.push(error),
  );
  await Promise.all([throwsAtOnce(1), throwsAtOnce(2)]);
  t.same(syncErrors, [failure], 'a run that throws before returning a promise too');
});

/** A clock the test moves: runs take `took` ms of it; sleeping moves it on and is recorded. */
function lingeringRunner(took: number[], maxMs: number) {
  let clock = 0;
  const sleeps: number[] = [];
  const groups: number[][] = [];
  const enqueue = createGroupRunner<number>(
    async (items) => {
      groups.push(items);
      clock += took[groups.length - 1] ?? 0;
    },
    () => undefined,
    {
      maxMs,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    },
  );
  return { enqueue, groups, sleeps, idle: (ms: number) => void (clock += ms) };
}

t.test('linger: the next group starts no sooner than twice what the last one took after it ended', async (t) => {
  const r = lingeringRunner([120, 5], 500);
  await r.enqueue(1);
  t.same(r.sleeps, [], 'the first group starts at once');
  await r.enqueue(2);
  t.same(r.sleeps, [240], 'after a group of 120 ms, the next waits 240 ms from its end');
  r.idle(1000);
  await r.enqueue(3);
  t.same(r.sleeps, [240], 'after an idle second, at once');
  t.same(r.groups, [[1], [2], [3]]);
});

t.test('linger: at most maxMs, and only what is left of it', async (t) => {
  const r = lingeringRunner([900, 100], 500);
  await r.enqueue(1);
  await r.enqueue(2);
  t.same(r.sleeps, [500], 'a group of 900 ms: the next waits maxMs');
  r.idle(60);
  await r.enqueue(3);
  t.same(r.sleeps, [500, 140], 'a group of 100 ms that ended 60 ms ago: 140 ms more');
});

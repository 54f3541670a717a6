import t from 'tap';
import { createStoreWindow } from '../../../../services/event-worker/store-window.js';

/** A store whose end the test decides. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
const turn = () => new Promise((r) => setImmediate(r));

t.test('a second batch is admitted while the first is stored; a third waits for a free slot', async (t) => {
  const window = createStoreWindow<string>(
    2,
    async () => undefined,
    (e) => t.fail(String(e)),
  );
  const a = deferred<string>();
  const b = deferred<string>();
  let firstAdmitted = false;
  let thirdAdmitted = false;
  void window.admit(a.promise).then(() => (firstAdmitted = true));
  await turn();
  t.ok(firstAdmitted, 'one batch in the window: the next may start at once');
  void window.admit(b.promise).then(() => (thirdAdmitted = true));
  await turn();
  t.notOk(thirdAdmitted, 'two in the window: the handler waits');
  a.resolve('a');
  await turn();
  t.ok(thirdAdmitted, 'the first one done frees a slot');
  b.resolve('b');
  await window.drain();
});

t.test('follow-ups run one at a time in admission order, even when a later store ends first', async (t) => {
  const groups: string[][] = [];
  let running = 0;
  const window = createStoreWindow<string>(
    3,
    async (outcomes) => {
      running++;
      t.equal(running, 1, `${outcomes.join(',')}: no other follow-up runs`);
      await turn();
      groups.push(outcomes);
      running--;
    },
    (e) => t.fail(String(e)),
  );
  const slow = deferred<string>();
  const fast = deferred<string>();
  await window.admit(slow.promise);
  await window.admit(fast.promise);
  fast.resolve('fast');
  await turn();
  t.same(groups, [], 'the later batch waits for the earlier one');
  slow.resolve('slow');
  await window.drain();
  t.same(groups.flat(), ['slow', 'fast'], 'in admission order');
});

t.test('batches stored by the time a follow-up starts share it; later ones get the next', async (t) => {
  const groups: number[][] = [];
  const release = deferred<void>();
  const window = createStoreWindow<number>(
    4,
    async (outcomes) => {
      groups.push(outcomes);
      if (groups.length === 1) await release.promise;
    },
    (e) => t.fail(String(e)),
  );
  await window.admit(Promise.resolve(1));
  await turn();
  await window.admit(Promise.resolve(2));
  await window.admit(Promise.resolve(3));
  await turn();
  release.resolve();
  await window.drain();
  t.same(groups, [[1], [2, 3]], 'the first alone (nothing else stored yet), then both stored while it ran');
});

t.test('once draining, admit resolves only when its batch is followed up, and drain waits for every batch', async (t) => {
  const done: number[] = [];
  const window = createStoreWindow<number>(
    2,
    async (outcomes) => void done.push(...outcomes),
    (e) => t.fail(String(e)),
  );
  const first = deferred<number>();
  await window.admit(first.promise);
  const drained = window.drain().then(() => [...done]);
  const late = window.admit(Promise.resolve(2)).then(() => [...done]);
  first.resolve(1);
  t.same(await late, [1, 2], 'admitted while draining: resolved after its own follow-up');
  t.same(await drained, [1, 2], 'drain waited for the batch admitted after it was called too');
});

t.test('a follow-up that throws is reported and does not stall the batches behind it', async (t) => {
  const errors: unknown[] = [];
  const seen: number[] = [];
  const window = createStoreWindow<number>(
    2,
    async (outcomes) => {
      if (outcomes.includes(1)) throw new Error('bug');
      seen.push(...outcomes);
    },
    (e) => errors.push(e),
  );
  await window.admit(Promise.resolve(1));
  await turn();
  await window.admit(Promise.resolve(2));
  await window.drain();
  t.same(seen, [2]);
  t.equal(errors.length, 1);
  t.match(String(errors[0]), /bug/);
});

t.test('a store that rejects is reported, left out of the follow-ups, and frees its slot', async (t) => {
  const errors: unknown[] = [];
  const seen: number[] = [];
  const window = createStoreWindow<number>(
    1,
    async (outcomes) => void seen.push(...outcomes),
    (e) => errors.push(e),
  );
  await window.admit(Promise.reject(new Error('store bug')));
  await window.admit(Promise.resolve(2));
  await window.drain();
  t.same(seen, [2]);
  t.match(String(errors[0]), /store bug/);
});

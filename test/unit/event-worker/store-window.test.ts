import t from 'tap';
import { createStoreWindow } from '../../../services/event-worker/store-window.js';

/** A store whose end the test decides. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
const turn = () => new Promise((r) => setImmediate(r));

t.test('a second batch is admitted while the first is stored; a third waits for a free slot', async (t) => {
  const window = createStoreWindow(2, (e) => t.fail(String(e)));
  const a = deferred<string>();
  const b = deferred<string>();
  let firstAdmitted = false;
  let thirdAdmitted = false;
  void window.admit(a.promise, async () => undefined).then(() => (firstAdmitted = true));
  await turn();
  t.ok(firstAdmitted, 'one batch in the window: the next may start at once');
  void window.admit(b.promise, async () => undefined).then(() => (thirdAdmitted = true));
  await turn();
  t.notOk(thirdAdmitted, 'two in the window: the handler waits');
  a.resolve('a');
  await turn();
  t.ok(thirdAdmitted, 'the first one done frees a slot');
  b.resolve('b');
  await window.drain();
});

t.test('follow-ups run one at a time in admission order, even when a later store ends first', async (t) => {
  const window = createStoreWindow(3, (e) => t.fail(String(e)));
  const order: string[] = [];
  const slow = deferred<string>();
  const fast = deferred<string>();
  let running = 0;
  const follow = async (name: string) => {
    running++;
    t.equal(running, 1, `${name}: no other follow-up runs`);
    await turn();
    order.push(name);
    running--;
  };
  await window.admit(slow.promise, follow);
  await window.admit(fast.promise, follow);
  fast.resolve('fast');
  await turn();
  t.same(order, [], 'the later batch waits for the earlier one');
  slow.resolve('slow');
  await window.drain();
  t.same(order, ['slow', 'fast']);
});

t.test('once draining, admit resolves only when its batch is done, and drain waits for every batch', async (t) => {
  const window = createStoreWindow(2, (e) => t.fail(String(e)));
  const first = deferred<number>();
  const done: number[] = [];
  await window.admit(first.promise, async (n) => void done.push(n));
  const drained = window.drain().then(() => done.length);
  const late = window.admit(Promise.resolve(2), async (n) => void done.push(n)).then(() => [...done]);
  first.resolve(1);
  t.same(await late, [1, 2], 'admitted while draining: resolved after its own follow-up');
  t.equal(await drained, 1, 'drain waited for what was in the window when it was called');
});

t.test('a follow-up that throws is reported and does not stall the batches behind it', async (t) => {
  const errors: unknown[] = [];
  const window = createStoreWindow(2, (e) => errors.push(e));
  const seen: number[] = [];
  await window.admit(Promise.resolve(1), async () => {
    throw new Error('bug');
  });
  await window.admit(Promise.resolve(2), async (n) => void seen.push(n));
  await window.drain();
  t.same(seen, [2]);
  t.equal(errors.length, 1);
  t.match(String(errors[0]), /bug/);
});

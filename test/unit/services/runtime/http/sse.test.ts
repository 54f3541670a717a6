/**
 * Issue #30: the Server-Sent Events channel (services/runtime/http/sse.ts): frames queued by the
 * route and pulled by the server, the bound on what the client has not taken, closing from
 * either side, and the keep-alive comment. The keep-alive timer is observed through a stand-in
 * for setInterval, so no test waits for time to pass.
 */
import type { Test } from 'tap';
import t from 'tap';
import { createSseChannel, type SseOptions, sseFrame } from '../../../../../services/runtime/http/sse.js';

/** A channel without keep-alive, its iterator, and how many times onClose was called. */
function channel(options: Partial<SseOptions> = {}) {
  const closes = { count: 0 };
  const ch = createSseChannel({ maxQueuedBytes: 1000, keepAliveMs: 0, onClose: () => closes.count++, ...options });
  return { ch, it: ch[Symbol.asyncIterator](), closes };
}

const DONE = { done: true, value: undefined };
/** One turn of the event loop: what the server would take from the channel meanwhile. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const chunk = (value: string) => ({ done: false, value });
const disconnectData = (frame: string | undefined) => {
  const m = /^event: disconnect\ndata: (.*)\n\n$/.exec(frame ?? '');
  return m ? (JSON.parse(m[1]!) as { reason: string; detail: string }) : undefined;
};

t.test('sseFrame: an optional id line, the event line, one data line, then a blank line', async (t) => {
  t.equal(sseFrame('problem', '{"a":1}'), 'event: problem\ndata: {"a":1}\n\n');
  t.equal(sseFrame('problem', '{}', '7.1.0'), 'id: 7.1.0\nevent: problem\ndata: {}\n\n');
});

t.test('frames queued before a pull come out in one chunk, in order; a pull with nothing queued waits for the next frame', async (t) => {
  const { ch, it } = channel();
  t.same([ch.send('a\n\n'), ch.send('b\n\n')], [true, true]);
  t.same(await it.next(), chunk('a\n\nb\n\n'));
  const pending = it.next();
  t.equal(ch.send('c\n\n'), true);
  t.same(await pending, chunk('c\n\n'));
});

t.test('up to maxQueuedBytes not yet pulled is taken; what a pull took no longer counts', async (t) => {
  const { ch, it } = channel({ maxQueuedBytes: 20 });
  t.same([ch.send('x'.repeat(10)), ch.send('y'.repeat(10))], [true, true], 'exactly the bound');
  t.same(await it.next(), chunk(`${'x'.repeat(10)}${'y'.repeat(10)}`));
  t.equal(ch.send('z'.repeat(20)), true, 'the bound again, after the pull');
  t.equal(ch.closed, false);
});

t.test('past maxQueuedBytes and still not taken after a turn, the channel ends with one disconnect event (reason slow-consumer), dropping what waited', async (t) => {
  const { ch, it, closes } = channel({ maxQueuedBytes: 20 });
  ch.send('x'.repeat(15));
  t.equal(ch.send('y'.repeat(6)), true, 'a burst may pass the bound within a turn');
  await turn();
  t.same([ch.closed, closes.count], [true, 1]);
  const last = await it.next();
  t.same(disconnectData(last.value), { reason: 'slow-consumer', detail: 'more than 20 bytes waited for this client' }, 'only the disconnect event');
  t.same(await it.next(), DONE);
  t.same([ch.send('z'), closes.count], [false, 1], 'later frames are refused; onClose was called once');
});

// Fails at the time of writing: sse.ts counts a frame's `length` (UTF-16 code units), not its
// bytes, so a frame of multi-byte characters passes a bound it exceeds (up to 3 times over).
t.test('a burst past maxQueuedBytes that the server takes within its turn passes (a bulk change, a replay after Last-Event-ID)', async (t) => {
  const { ch, it } = channel({ maxQueuedBytes: 20 });
  t.same([ch.send('x'.repeat(15)), ch.send('y'.repeat(15)), ch.send('z'.repeat(15))], [true, true, true]);
  t.same(await it.next(), chunk(`${'x'.repeat(15)}${'y'.repeat(15)}${'z'.repeat(15)}`));
  await turn();
  t.equal(ch.closed, false);
  t.equal(ch.send('w'), true);
});

t.test('a burst past 8 times maxQueuedBytes ends the channel at once', async (t) => {
  const { ch, it } = channel({ maxQueuedBytes: 20 });
  for (let i = 0; i < 16; i++) t.equal(ch.send('x'.repeat(10)), true);
  t.equal(ch.send('y'), false, '161 bytes against 8 × 20');
  t.equal(ch.closed, true);
  t.same(disconnectData((await it.next()).value)?.reason, 'slow-consumer');
});

t.test('maxQueuedBytes counts bytes: a frame of multi-byte characters counts its UTF-8 length', async (t) => {
  const { ch } = channel({ maxQueuedBytes: 10 });
  const euros = '€'.repeat(4);
  t.equal(Buffer.byteLength(euros), 12);
  ch.send(euros);
  await turn();
  t.equal(ch.closed, true, '12 bytes against a bound of 10, not taken');
});

t.test('close(last) ends the stream after the frames queued and last; later frames are refused; onClose once', async (t) => {
  const { ch, it, closes } = channel();
  ch.send('a\n\n');
  ch.close('bye\n\n');
  t.same([ch.closed, ch.send('b\n\n'), closes.count], [true, false, 1]);
  t.same(await it.next(), chunk('a\n\nbye\n\n'));
  t.same(await it.next(), DONE);
  ch.close('again\n\n');
  t.same([closes.count, await it.next()], [1, DONE], 'a second close adds nothing');
  const empty = channel();
  const waiting = empty.it.next();
  empty.ch.close();
  t.same(await waiting, DONE, 'closed with nothing queued: a waiting pull ends');
});

t.test('return() (the client went away) closes the channel and calls onClose once, whoever closes it after', async (t) => {
  const { ch, it, closes } = channel();
  const waiting = it.next();
  t.same(await it.return!(), DONE);
  t.same(await waiting, DONE, 'a pull that was waiting ends');
  t.same([ch.closed, closes.count], [true, 1]);
  ch.close('late\n\n');
  t.same([ch.send('x'), closes.count, await it.next()], [false, 1, DONE]);
  const queued = channel();
  queued.ch.send('never read\n\n');
  await queued.it.return!();
  t.same([await queued.it.next(), queued.closes.count], [DONE, 1], 'what was queued is not pulled after return');
});

/** Replaces setInterval while `create` runs, and clearInterval for the test, recording the channel's timer. */
function withFakeInterval(t: Test, create: () => void) {
  const timers: Array<{ tick: () => void; ms: number; cleared: boolean; unref: () => unknown }> = [];
  const realSet = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  globalThis.setInterval = ((tick: () => void, ms: number) => {
    const timer = { tick, ms, cleared: false, unref: () => timer };
    timers.push(timer);
    return timer;
  }) as unknown as typeof setInterval;
  try {
    create();
  } finally {
    globalThis.setInterval = realSet;
  }
  globalThis.clearInterval = ((timer: unknown) => {
    const fake = timers.find((f) => f === timer);
    if (fake) fake.cleared = true;
    else realClear(timer as Parameters<typeof clearInterval>[0]);
  }) as typeof clearInterval;
  t.teardown(() => void (globalThis.clearInterval = realClear));
  return timers;
}

t.test('keepAliveMs 0: no keep-alive timer is set', async (t) => {
  let made: ReturnType<typeof channel> | undefined;
  const timers = withFakeInterval(t, () => (made = channel({ keepAliveMs: 0 })));
  t.same(timers, []);
  made?.ch.close();
});

t.test('keepAliveMs n: a comment line every n ms, counted in the bound, and the timer stopped on close', async (t) => {
  let made: ReturnType<typeof channel> | undefined;
  const timers = withFakeInterval(t, () => (made = channel({ keepAliveMs: 15_000, maxQueuedBytes: 30 })));
  const { ch, it } = made!;
  t.same(
    timers.map((f) => f.ms),
    [15_000],
  );
  timers[0]!.tick();
  t.same(await it.next(), chunk(': keep-alive\n\n'));
  timers[0]!.tick();
  timers[0]!.tick();
  ch.send('x'.repeat(3));
  await turn();
  t.same([ch.closed, timers[0]!.cleared], [true, true], '28 bytes of keep-alives waiting: 3 more pass the bound of 30');
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { BusUnavailableError, type StreamSpec } from '../../services/runtime/adapters/bus/bus.port.js';
import { createMemoryBus } from '../../services/runtime/adapters/bus/memory.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { encode, outcome, Recorder } from '../support/bus-recorder.js';
import { ackAll, busContract, busFixture, type OpenBus } from './bus.contract.js';

const open: OpenBus = async () => ({ bus: createMemoryBus({ logger: silentLogger() }) });

busContract(t, 'memory', open);

/** A bus with a log in a directory of its own, removed after the test. */
const openLogged: OpenBus = async () => {
  const logPath = mkdtempSync(join(tmpdir(), 'ops-bus-log-'));
  return { bus: createMemoryBus({ logger: silentLogger() }, { logPath }), cleanup: async () => rmSync(logPath, { recursive: true, force: true }) };
};

// A logged stream keeps every promise of the port, with publish resolving as JetStream's does.
busContract(t, 'memory, logged stream', openLogged, { inProcess: 'logged' });

// What only the in-process bus promises: publish resolves once a consumer took the message.

t.test('memory: publish resolves only once a consumer acked the message', async (t) => {
  const f = await busFixture(t, open);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const rec = new Recorder();
  f.bus.consume(f.consumer(), async (batch) => {
    for (const m of batch) rec.record('c', m);
    await released;
    for (const m of batch) m.ack();
  });
  let acked = false;
  const publishing = f.publish('one').then((ack) => {
    acked = true;
    return ack;
  });
  await rec.until('the delivery', (s) => s.length === 1);
  await new Promise((resolve) => setImmediate(resolve));
  t.notOk(acked, 'not resolved while the handler holds the message');
  release();
  t.match(await publishing, { stream: f.stream, seq: 1, duplicate: false });
});

t.test('memory: a termed message resolves its publish; a dropped one rejects it', async (t) => {
  const f = await busFixture(t, open);
  f.bus.consume(f.consumer({ maxDeliver: 2 }), async (batch) => {
    for (const m of batch) {
      if (m.msgId === 'bad') m.term();
      else m.nak();
    }
  });
  t.equal((await f.publish('bad')).duplicate, false, 'term: the consumer took responsibility');
  const dropped = await outcome(f.publish('nobody'));
  t.ok(dropped instanceof BusUnavailableError && /maxDeliver/.test(dropped.message), 'dropped after maxDeliver');
  t.equal((await f.bus.stats()).pending[f.stream], 0, 'the dropped message is gone');
  // A retry of a dropped message is stored again, not swallowed as a duplicate.
  const retry = f.publish('nobody');
  t.ok((await outcome(retry)) instanceof BusUnavailableError, 'and delivered (and dropped) again');
});

t.test('memory: a message waits for a consumer; a duplicate shares its outcome; timeoutMs bounds the wait', async (t) => {
  const f = await busFixture(t, open);
  // No consumer ever comes: without timeoutMs the publish would wait for good.
  const late = await outcome(f.bus.publish(f.subject('m'), encode('early'), { msgId: 'early', timeoutMs: 100 }));
  t.ok(late instanceof BusUnavailableError, 'no consumer within timeoutMs: rejected');
  const copy = f.publish('early again', 'early');
  const rec = new Recorder();
  f.bus.consume(f.consumer(), ackAll(rec));
  t.match(await copy, { seq: 1, duplicate: true }, 'the copy resolves when the stored original is acked');
  t.same(rec.texts(), ['early'], "the message outlived its publisher's timeout");
});

t.test('memory: close() stops consumers and rejects the publishes still waiting', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger() });
  await bus.ensureStream({ name: 'CLOSING', subjects: ['closing.>'], duplicateWindowMs: 1000, retention: 'workqueue' });
  let calls = 0;
  bus.consume({ stream: 'CLOSING', durable: 'd', maxBatch: 1, maxWaitMs: 0, ackWaitMs: 1000, filterSubject: 'closing.held' }, async () => {
    calls++;
  });
  const waiting = bus.publish('closing.other', encode('x'), { msgId: 'x' });
  const waitingOutcome = outcome(waiting);
  await bus.close();
  t.ok((await waitingOutcome) instanceof BusUnavailableError, 'a waiting publish is rejected');
  t.ok((await outcome(bus.publish('closing.held', encode('y'), { msgId: 'y' }))) instanceof BusUnavailableError, 'closed bus');
  await t.rejects(bus.ping(), BusUnavailableError);
  t.equal(calls, 0);
});

t.test('memory: streams may not overlap, and a subject without a stream is refused', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger() });
  t.teardown(() => bus.close());
  await bus.ensureStream({ name: 'A', subjects: ['orders.*'], duplicateWindowMs: 1000, retention: 'workqueue' });
  await bus.ensureStream({ name: 'A', subjects: ['orders.*', 'refunds.>'], duplicateWindowMs: 1000, retention: 'workqueue' });
  await t.rejects(bus.ensureStream({ name: 'B', subjects: ['*.eu'], duplicateWindowMs: 1000, retention: 'limits' }), /overlap/);
  await t.rejects(bus.ensureStream({ name: 'A', subjects: ['orders.*'], duplicateWindowMs: 1000, retention: 'limits' }), /retention/);
  await t.rejects(bus.publish('orders.eu.x', encode('z'), { msgId: 'z' }), BusUnavailableError);
  t.throws(() => bus.consume({ stream: 'NOPE', durable: 'd', maxBatch: 1, maxWaitMs: 0, ackWaitMs: 1000 }, async () => {}));
});

// Logged streams: publish waits for the log on disk, and a restart delivers what was not acked.

const LOGGED: StreamSpec = { name: 'LOGGED', subjects: ['logged.>'], duplicateWindowMs: 60_000, retention: 'workqueue', inProcess: 'logged' };

t.test("memory: a logged stream's publish resolves with no consumer at all", async (t) => {
  const logPath = mkdtempSync(join(tmpdir(), 'ops-bus-log-'));
  t.teardown(() => rmSync(logPath, { recursive: true, force: true }));
  const bus = createMemoryBus({ logger: silentLogger() }, { logPath });
  t.teardown(() => bus.close());
  await bus.ensureStream(LOGGED);
  t.match(await bus.publish('logged.a', encode('one'), { msgId: 'one' }), { stream: 'LOGGED', seq: 1, duplicate: false });
  t.match(await bus.publish('logged.a', encode('one again'), { msgId: 'one' }), { seq: 1, duplicate: true }, 'a duplicate too');
  t.equal((await bus.stats()).pending['LOGGED'], 1);
});

t.test("memory: over its paceBytes a logged stream's publish waits for the consumer to bring the backlog under it", async (t) => {
  const logPath = mkdtempSync(join(tmpdir(), 'ops-bus-log-'));
  t.teardown(() => rmSync(logPath, { recursive: true, force: true }));
  const bus = createMemoryBus({ logger: silentLogger() }, { logPath });
  t.teardown(() => bus.close());
  await bus.ensureStream({ ...LOGGED, paceBytes: 250 });
  const body = (x: string) => encode(x.repeat(100));
  for (const x of ['a', 'b', 'c']) await bus.publish('logged.x', body(x), { msgId: x }); // 300 bytes: over the pace
  let waited = false;
  const fourth = bus.publish('logged.x', body('d'), { msgId: 'd' }).then((ack) => ((waited = true), ack));
  await new Promise((resolve) => setImmediate(resolve));
  t.notOk(waited, 'the fourth publish waits');
  t.equal((await bus.stats()).pending['LOGGED'], 3, 'and is not stored yet');
  const late = await outcome(bus.publish('logged.x', body('e'), { msgId: 'e', timeoutMs: 20 }));
  t.ok(late instanceof BusUnavailableError, `a publish that cannot wait that long is refused (${String(late)})`);
  const rec = new Recorder();
  bus.consume({ stream: 'LOGGED', durable: 'd', maxBatch: 1, maxWaitMs: 0, ackWaitMs: 30_000 }, ackAll(rec));
  t.match(await fourth, { stream: 'LOGGED', seq: 4 }, 'once the consumer acked, it is stored');
  await rec.until('four delivered', (s) => s.length === 4);
  t.same(
    rec.texts(),
    ['a', 'b', 'c', 'd'].map((x) => x.repeat(100)),
    'the refused one was never stored',
  );
});

t.test('memory: without a log directory a logged stream waits for a consumer, as any other', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger() });
  t.teardown(() => bus.close());
  await bus.ensureStream(LOGGED);
  const late = await outcome(bus.publish('logged.a', encode('x'), { msgId: 'x', timeoutMs: 50 }));
  t.ok(late instanceof BusUnavailableError, 'no consumer acked it');
});

t.test("memory: publishMany writes a logged stream's messages to its log, and a restart delivers them in order", async (t) => {
  const logPath = mkdtempSync(join(tmpdir(), 'ops-bus-log-'));
  t.teardown(() => rmSync(logPath, { recursive: true, force: true }));
  const first = createMemoryBus({ logger: silentLogger() }, { logPath });
  await first.ensureStream(LOGGED);
  const texts = Array.from({ length: 50 }, (_, i) => `m${i}`);
  await first.publishMany(
    texts.map((text, i) => ({ subject: `logged.${i % 2 === 0 ? 'even' : 'odd'}`, data: encode(text), msgId: text })),
    {},
  );
  t.equal((await first.stats()).pending['LOGGED'], 50, 'resolved with no consumer: every message is in the log');
  await first.close();

  const second = createMemoryBus({ logger: silentLogger() }, { logPath });
  t.teardown(() => second.close());
  await second.ensureStream(LOGGED);
  const rec = new Recorder();
  second.consume({ stream: 'LOGGED', durable: 'd', maxBatch: 100, maxWaitMs: 0, ackWaitMs: 30_000 }, ackAll(rec));
  await rec.until('50 deliveries', (s) => s.length === 50);
  t.same(rec.texts(), texts, 'in the order given, each once');
});

t.test('memory: after a restart, a logged stream delivers again what was not acked, as a redelivery, and only that', async (t) => {
  const logPath = mkdtempSync(join(tmpdir(), 'ops-bus-log-'));
  t.teardown(() => rmSync(logPath, { recursive: true, force: true }));
  const first = createMemoryBus({ logger: silentLogger() }, { logPath });
  await first.ensureStream(LOGGED);
  for (const text of ['a', 'b', 'c', 'd']) await first.publish(`logged.${text === 'd' ? 'other' : 'x'}`, encode(text), { msgId: text });
  const rec = new Recorder();
  let handled!: () => void;
  const done = new Promise<void>((resolve) => (handled = resolve));
  first.consume({ stream: 'LOGGED', durable: 'd', maxBatch: 10, maxWaitMs: 0, ackWaitMs: 30_000 }, async (batch) => {
    for (const m of batch) {
      rec.record('first', m);
      if (m.msgId === 'b') m.ack();
      else if (m.msgId === 'c') m.nak(60_000);
    }
    handled();
  });
  await done;
  t.same(rec.texts(), ['a', 'b', 'c', 'd']);
  await first.close();

  const second = createMemoryBus({ logger: silentLogger() }, { logPath });
  t.teardown(() => second.close());
  await second.ensureStream(LOGGED);
  t.equal((await second.stats()).pending['LOGGED'], 3, 'a, c and d are still there; b was acked');
  t.match(await second.publish('logged.x', encode('a again'), { msgId: 'a' }), { seq: 1, duplicate: true }, 'their ids are still known');
  const after = new Recorder();
  second.consume({ stream: 'LOGGED', durable: 'd', maxBatch: 10, maxWaitMs: 0, ackWaitMs: 30_000 }, ackAll(after, 'second'));
  await after.until('three deliveries', (s) => s.length === 3);
  t.same(
    after.seen.map((s) => [s.text, s.subject]),
    [
      ['a', 'logged.x'],
      ['c', 'logged.x'],
      ['d', 'logged.other'],
    ],
    'in stream order, subjects kept',
  );
  t.same(
    after.seen.map((s) => s.deliveryCount),
    [2, 2, 2],
    'each counted as a redelivery: it may have been delivered before',
  );
  t.match(await second.publish('logged.x', encode('e'), { msgId: 'e' }), { seq: 5 }, 'new messages continue the sequence');
  await after.until('the new one', (s) => s.length === 4);
  await second.close();

  const third = createMemoryBus({ logger: silentLogger() }, { logPath });
  t.teardown(() => third.close());
  await third.ensureStream(LOGGED);
  t.equal((await third.stats()).pending['LOGGED'], 0, 'what the second run acked is gone from the log');
});

import t from 'tap';
import { BusUnavailableError } from '../../services/runtime/adapters/bus/bus.port.js';
import { createMemoryBus } from '../../services/runtime/adapters/bus/memory.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { encode, outcome, Recorder } from '../support/bus-recorder.js';
import { ackAll, busContract, busFixture, type OpenBus } from './bus.contract.js';

const open: OpenBus = async () => ({ bus: createMemoryBus({ logger: silentLogger() }) });

busContract(t, 'memory', open);

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
  const publishing = f.publish('one').then((ack) => ((acked = true), ack));
  await rec.until('the delivery', (s) => s.length === 1);
  await new Promise((resolve) => setImmediate(resolve));
  t.notOk(acked, 'not resolved while the handler holds the message');
  release();
  t.match(await publishing, { stream: f.stream, seq: 1, duplicate: false });
});

t.test('memory: a termed message resolves its publish; a dropped one rejects it', async (t) => {
  const f = await busFixture(t, open);
  f.bus.consume(f.consumer({ maxDeliver: 2 }), async (batch) => {
    for (const m of batch) (m.msgId === 'bad' ? m.term() : m.nak());
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
  const started = Date.now();
  const late = await outcome(f.bus.publish(f.subject('m'), encode('early'), { msgId: 'early', timeoutMs: 100 }));
  t.ok(late instanceof BusUnavailableError, 'no consumer within timeoutMs');
  t.ok(Date.now() - started < 1000, 'rejected at the timeout');
  const copy = f.publish('early again', 'early');
  const rec = new Recorder();
  f.bus.consume(f.consumer(), ackAll(rec));
  t.match(await copy, { seq: 1, duplicate: true }, 'the copy resolves when the stored original is acked');
  t.same(rec.texts(), ['early'], 'the message outlived its publisher\'s timeout');
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

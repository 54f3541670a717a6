import { connect, type Msg, type NatsConnection, type SubscriptionOptions } from 'nats';
import t from 'tap';
import { type BatchHandler, BusUnavailableError } from '../../services/runtime/adapters/bus/bus.port.js';
import { createJetStreamBus } from '../../services/runtime/adapters/bus/jetstream.adapter.js';
import { JetStreamConsumer } from '../../services/runtime/adapters/bus/jetstream-consumer.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { encode, eventually, outcome, Recorder } from '../support/bus-recorder.js';
import { missingServices, type RunningService, startNats } from '../support/services.js';
import { ackAll, busContract, busFixture, type OpenBus } from './bus.contract.js';

const skip = missingServices('nats-server');

if (skip) {
  t.plan(0, `JetStream bus: ${skip}`);
} else {
  let nats: RunningService;
  t.before(async () => {
    nats = await startNats();
  });
  t.teardown(() => nats?.stop());

  const open: OpenBus = async () => ({ bus: await createJetStreamBus({ url: nats.url, name: 'bus-contract' }, { logger: silentLogger() }) });

  busContract(t, 'jetstream', open);

  /** `nc`, but every message for a subscription goes through `through`, which delivers it (or not, or later). */
  const throughDeliveries = (nc: NatsConnection, through: (msg: Msg, deliver: () => void) => void): NatsConnection =>
    new Proxy(nc, {
      get(target, key, receiver) {
        if (key !== 'subscribe') return Reflect.get(target, key, receiver) as unknown;
        return (subject: string, options: SubscriptionOptions) =>
          target.subscribe(subject, { ...options, callback: (err, msg) => through(msg, () => options.callback?.(err, msg)) });
      },
    });

  /** A handler that acks every message and records each batch's size; `all` resolves once `count` came. */
  const batchSizes = (count: number): { handler: BatchHandler; all: Promise<number[]> } => {
    const sizes: number[] = [];
    let done!: (sizes: number[]) => void;
    const all = new Promise<number[]>((resolve) => (done = resolve));
    const handler: BatchHandler = async (batch) => {
      sizes.push(batch.length);
      for (const m of batch) m.ack();
      if (sizes.reduce((n, b) => n + b, 0) >= count) done(sizes);
    };
    return { handler, all };
  };

  t.test('jetstream: a bus that cannot reach JetStream is refused at creation', async (t) => {
    await t.rejects(createJetStreamBus({ url: 'nats://127.0.0.1:1' }, { logger: silentLogger() }));
  });

  t.test("jetstream: over its paceBytes a stream's publish waits for the consumers to bring it under, and is refused when it cannot wait", async (t) => {
    const { bus } = await open();
    t.teardown(() => bus.close());
    const name = `PACED${Date.now()}`;
    const subject = `${name.toLowerCase()}.x`;
    await bus.ensureStream({ name, subjects: [`${name.toLowerCase()}.>`], duplicateWindowMs: 60_000, retention: 'workqueue', maxBytes: 1024 * 1024, paceBytes: 2000 });
    const body = (x: string) => encode(x.repeat(1000));
    for (const x of ['a', 'b', 'c']) await bus.publish(subject, body(x), { msgId: x }); // 3 000 bytes of data: over the pace
    const late = await outcome(bus.publish(subject, body('e'), { msgId: 'e', timeoutMs: 300 }));
    t.ok(late instanceof BusUnavailableError, `a publish that cannot wait for the consumers is refused (${String(late)})`);
    t.equal((await bus.stats()).pending[name], 3, 'and not stored: the stream is nowhere near its own limit');
    let waited = false;
    const fourth = bus.publish(subject, body('d'), { msgId: 'd', timeoutMs: 30_000 }).then((ack) => ((waited = true), ack));
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.notOk(waited, 'a publish that may wait waits');
    const rec = new Recorder();
    bus.consume({ stream: name, durable: 'd', maxBatch: 1, maxWaitMs: 100, ackWaitMs: 30_000 }, ackAll(rec));
    t.match(await fourth, { stream: name, duplicate: false }, 'once the consumer brought the stream under its pace, it is stored');
    await rec.until('four delivered', (s) => s.length === 4);
    t.same(
      rec.texts(),
      ['a', 'b', 'c', 'd'].map((x) => x.repeat(1000)),
      'the refused one was never stored',
    );
  });

  t.test('jetstream: a consumer that may not wait is handed the whole backlog of large messages at once', async (t) => {
    // nats-server 2.9.10 drops a waiting pull that expires while it is still sending, without its
    // closing 408: a consumer sending such pulls got a few of these messages, then stood still.
    const { bus } = await open();
    t.teardown(() => bus.close());
    const name = `LARGE${Date.now()}`;
    const subject = `${name.toLowerCase()}.x`;
    await bus.ensureStream({ name, subjects: [`${name.toLowerCase()}.>`], duplicateWindowMs: 60_000, retention: 'workqueue', maxBytes: 64 * 1024 * 1024 });
    const count = 30;
    for (let i = 0; i < count; i++) await bus.publish(subject, encode(String(i % 10).repeat(500_000)), { msgId: `m${i}` });
    const batches = batchSizes(count);
    bus.consume({ stream: name, durable: 'd', maxBatch: 64, maxWaitMs: 0, ackWaitMs: 30_000 }, batches.handler);
    t.same(await batches.all, [count], 'one batch holds every message that was waiting');
  });

  t.test('jetstream: a pull whose messages are still coming in is not given up, even after the event loop was held up', async (t) => {
    // The consumer gives a pull up when its answer has not come a second after its expiry (the
    // connection dropped); a message reaching a pull given up comes back only after ackWait.
    const nc = await connect({ servers: nats.url });
    t.teardown(() => nc.close());
    const jsm = await nc.jetstreamManager();
    const js = nc.jetstream();
    const name = `HELD${Date.now()}`;
    await jsm.streams.add({ name, subjects: [`${name.toLowerCase()}.>`], max_bytes: 64 * 1024 * 1024 });
    const count = 30;
    for (let i = 0; i < count; i++) await js.publish(`${name.toLowerCase()}.x`, encode(String(i % 10).repeat(500_000)));
    // The same connection, but the first message that reaches a pull holds the event loop for
    // longer than that second, as a long decode would.
    let held = false;
    const holding = throughDeliveries(nc, (msg, deliver) => {
      if (!held && !msg.headers?.code) {
        held = true;
        const until = performance.now() + 1500;
        while (performance.now() < until);
      }
      deliver();
    });
    const batches = batchSizes(count);
    const consumer = new JetStreamConsumer({ stream: name, durable: 'd', maxBatch: 64, maxWaitMs: 0, ackWaitMs: 60_000 }, batches.handler, {
      nc: holding,
      jsm,
      logger: silentLogger(),
      redelivered: () => undefined,
    });
    t.teardown(() => consumer.stop());
    const sizes = await batches.all;
    t.ok(held, 'the event loop was held up while the messages came in');
    t.same(sizes, [count], 'the pull handed over every message that was waiting');
  });

  t.test('jetstream: a message that comes after its pull was given up is handled at once, not after ackWait', async (t) => {
    const nc = await connect({ servers: nats.url });
    t.teardown(() => nc.close());
    const jsm = await nc.jetstreamManager();
    const name = `LATE${Date.now()}`;
    await jsm.streams.add({ name, subjects: [`${name.toLowerCase()}.>`] });
    await nc.jetstream().publish(`${name.toLowerCase()}.x`, encode('late'));
    // The same connection, but the first message reaches the consumer 1.5 s after the server sent
    // it: after its pull (no_wait) was given up, a second past its expiry with no answer.
    let delayed = false;
    const late = throughDeliveries(nc, (msg, deliver) => {
      if (!delayed && !msg.headers?.code) {
        delayed = true;
        setTimeout(deliver, 1500);
      } else deliver();
    });
    let handled!: (deliveries: number[]) => void;
    const delivered = new Promise<number[]>((resolve) => (handled = resolve));
    // An ack wait of an hour: the message comes back within this test only if it is handed back.
    const consumer = new JetStreamConsumer(
      { stream: name, durable: 'd', maxBatch: 64, maxWaitMs: 0, ackWaitMs: 3_600_000 },
      async (batch) => {
        for (const m of batch) m.ack();
        handled(batch.map((m) => m.deliveryCount));
      },
      { nc: late, jsm, logger: silentLogger(), redelivered: () => undefined },
    );
    t.teardown(() => consumer.stop());
    // Taken by the pull open when it came (deliveryCount 1), or handed back and delivered again (2).
    const counts = await delivered;
    t.equal(counts.length, 1, 'the late message was handled');
    t.ok(counts[0]! <= 2, `delivery ${counts[0]}`);
    t.ok(delayed);
  });

  // Last: it takes the server down.
  t.test('jetstream: publish fails within its timeout while nats-server is down, and all works after a restart', async (t) => {
    const f = await busFixture(t, open);
    const rec = new Recorder();
    f.bus.consume(f.consumer(), ackAll(rec));
    await f.publish('before');
    await rec.until('the first message', () => rec.distinct.has('before'));

    await nats.kill(true);
    // Refused rather than left waiting (a publish with no answer would hold the test until tap's
    // own timeout); how soon is not asserted: wall-clock limits make tests flaky on a busy machine.
    const down = await outcome(f.bus.publish(f.subject('m'), encode('down'), { msgId: 'down', timeoutMs: 500 }));
    t.ok(down instanceof BusUnavailableError, `publish refused while the server is down (${String(down)})`);
    await t.rejects(f.bus.ping(), BusUnavailableError);

    await nats.restart();
    // Until the client has reconnected and JetStream has recovered its streams, publish is refused.
    await eventually(
      'a publish accepted after the restart',
      async () => (await f.bus.publish(f.subject('m'), encode('after'), { msgId: 'after', timeoutMs: 1000 })).stream === f.stream,
    );
    await rec.until('the consumer resumed', () => rec.distinct.has('after'));
    await f.bus.ping();
    t.pass('consumer resumed after the restart');
  });
}

/**
 * The one suite both bus adapters pass (DESIGN §2: one interface, two engines). With the
 * in-process bus a publish resolves only once a consumer acked, so consumers are started
 * before publishes are awaited, and publishes nobody awaits have their rejection absorbed.
 */
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import { type BatchHandler, type Bus, BusUnavailableError, type ConsumerSpec, type PublishAck, type StreamSpec } from '../../services/runtime/adapters/bus/bus.port.js';
import { decode, encode, eventually, outcome, Recorder, type Seen } from '../support/bus-recorder.js';

export type OpenBus = () => Promise<{ bus: Bus; cleanup?: () => Promise<void> }>;

export interface BusFixture {
  bus: Bus;
  stream: string;
  subject(suffix: string): string;
  consumer(overrides?: Partial<ConsumerSpec>): ConsumerSpec;
  /** Publishes `text` with `msgId` (default: the text); a rejection nobody awaits is absorbed. */
  publish(text: string, msgId?: string, subject?: string): Promise<PublishAck>;
}

/** A bus closed at the end of the test, with a stream of its own (unique name per test). */
export async function busFixture(t: Test, open: OpenBus, stream: Partial<StreamSpec> = {}): Promise<BusFixture> {
  const { bus, cleanup } = await open();
  t.teardown(async () => {
    await bus.close();
    await cleanup?.();
  });
  const name = `T${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;
  const prefix = name.toLowerCase();
  await bus.ensureStream({ name, subjects: [`${prefix}.>`], duplicateWindowMs: 60_000, retention: 'workqueue', ...stream });
  const subject = (suffix: string): string => `${prefix}.${suffix}`;
  return {
    bus,
    stream: name,
    subject,
    consumer: (overrides = {}) => ({ stream: name, durable: 'workers', maxBatch: 100, maxWaitMs: 20, ackWaitMs: 30_000, ...overrides }),
    publish(text, msgId = text, to = subject('m')) {
      const p = bus.publish(to, encode(text), { msgId, timeoutMs: 15_000 });
      p.catch(() => undefined);
      return p;
    },
  };
}

/** A handler that records every delivery as `consumer` and acks it. */
export const ackAll =
  (rec: Recorder, consumer = 'c'): BatchHandler =>
  async (batch) => {
    for (const m of batch) {
      rec.record(consumer, m);
      m.ack();
    }
  };

/**
 * The first redelivery of `text`. Any deliveryCount above 1 counts: on a loaded machine a
 * JetStream pull may end before a redelivery reaches it, and the message comes back once more
 * (nats-server 2.9 has even been seen to count 3, then 1 again).
 */
const redeliveryOf = (rec: Recorder, text: string): Seen | undefined => rec.seen.find((s) => s.text === text && s.deliveryCount > 1);

/** `stream`: settings every test's stream gets (e.g. the in-process bus's `logged`). */
export function busContract(t: Test, name: string, open: OpenBus, stream: Partial<StreamSpec> = {}): void {
  t.test(`${name}: one consumer gets 1000 messages in publish order, published before it started`, async (t) => {
    const f = await busFixture(t, open, stream);
    const texts = Array.from({ length: 1000 }, (_, i) => `m${i}`);
    const acks = Promise.all(texts.map((x) => f.publish(x)));
    const rec = new Recorder();
    f.bus.consume(f.consumer(), ackAll(rec));
    await rec.until('1000 deliveries', (s) => s.length >= 1000);
    t.same(rec.texts(), texts, 'delivered in publish order, each once');
    const seqs = (await acks).map((a) => a.seq);
    t.ok(
      seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!),
      'stream sequence follows publish order',
    );
    t.ok(
      (await acks).every((a) => a.stream === f.stream && !a.duplicate),
      'acks name the stream, no duplicates',
    );
    await eventually('no message pending', async () => (await f.bus.stats()).pending[f.stream] === 0);
  });

  t.test(`${name}: stats name each durable consumer with what it has not acknowledged yet`, async (t) => {
    const f = await busFixture(t, open, stream);
    const held: Array<{ ack(): void }> = [];
    f.bus.consume(f.consumer({ durable: 'holder', maxBatch: 10 }), async (batch) => {
      held.push(...batch);
    });
    void Promise.all(['a', 'b', 'c'].map((x) => f.publish(x)));
    const lagOf = async (): Promise<number | undefined> => (await f.bus.stats()).consumers.find((c) => c.stream === f.stream && c.consumer === 'holder')?.pending;
    await eventually('three delivered, none acked', async () => held.length === 3 && (await lagOf()) === 3);
    held[0]!.ack();
    await eventually('two left', async () => (await lagOf()) === 2);
    for (const m of held.slice(1)) m.ack();
    await eventually('none left', async () => (await lagOf()) === 0);
    t.equal(await lagOf(), 0);
  });

  for (const settle of ['ack', 'term'] as const) {
    t.test(`${name}: a message ${settle === 'ack' ? 'acked' : 'termed'} is not delivered again`, async (t) => {
      const f = await busFixture(t, open, stream);
      const rec = new Recorder();
      f.bus.consume(f.consumer({ ackWaitMs: 300 }), async (batch) => {
        for (const m of batch) {
          rec.record('c', m);
          if (m.msgId === 'settled') m[settle]();
          else if (m.deliveryCount > 1) m.ack();
        }
      });
      const settled = f.publish('settled');
      void f.publish('sentinel');
      // The sentinel comes back after ackWait: an unsettled message would have come back with it.
      // (Any redelivery counts: on a loaded machine a pull may end before a delivery reaches it,
      // and the sentinel comes back once more.)
      await rec.until('the sentinel redelivered', () => rec.seen.some((s) => s.text === 'sentinel' && s.deliveryCount > 1));
      t.equal(rec.count('settled'), 1, `the ${settle}ed message was delivered once`);
      t.equal((await settled).duplicate, false);
    });
  }

  t.test(`${name}: a nak'ed message comes back with deliveryCount 2, at once or after its delay`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    const nakedAt = new Map<string, number>();
    f.bus.consume(f.consumer(), async (batch) => {
      for (const m of batch) {
        const s = rec.record('c', m);
        if (m.deliveryCount > 1) m.ack();
        else {
          nakedAt.set(s.text, Date.now());
          m.nak(s.text === 'later' ? 300 : undefined);
        }
      }
    });
    const now = f.publish('now');
    const later = f.publish('later');
    await rec.until('both redelivered', () => redeliveryOf(rec, 'now') !== undefined && redeliveryOf(rec, 'later') !== undefined);
    const back = redeliveryOf(rec, 'later')!;
    t.ok(back.at - nakedAt.get('later')! >= 250, `nak(300) held the message (${back.at - nakedAt.get('later')!} ms)`);
    t.same(
      ['now', 'later'].map((x) => rec.seen.find((s) => s.text === x)?.deliveryCount),
      [1, 1],
      'each first delivered with deliveryCount 1',
    );
    await Promise.all([now, later]);
    t.ok((await f.bus.stats()).redeliveries >= 2, 'redeliveries are counted');
  });

  t.test(`${name}: a message not acked within ackWaitMs comes back; working() holds it`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    const ackWaitMs = 300;
    const idleBack = rec.until('the idle message redelivered', () => redeliveryOf(rec, 'idle') !== undefined);
    idleBack.catch(() => undefined);
    // Two consumers: while one holds 'busy', the other is free to receive the redelivery.
    const handler =
      (consumer: string): BatchHandler =>
      async (batch) => {
        for (const m of batch) rec.record(consumer, m);
        for (const m of batch) {
          if (m.msgId === 'idle' && m.deliveryCount > 1) m.ack();
          if (m.msgId !== 'busy') continue;
          const beat = setInterval(() => m.working(), 50);
          await idleBack.finally(() => clearInterval(beat));
          m.ack();
        }
      };
    f.bus.consume(f.consumer({ ackWaitMs, maxBatch: 10 }), handler('one'));
    f.bus.consume(f.consumer({ ackWaitMs, maxBatch: 10 }), handler('two'));
    const busy = f.publish('busy');
    const idle = f.publish('idle');
    await idleBack;
    const [first, second] = rec.seen.filter((s) => s.text === 'idle');
    t.ok(second!.at - first!.at >= ackWaitMs * 0.9, `redelivered after ackWait (${second!.at - first!.at} ms)`);
    t.equal(rec.count('busy'), 1, 'working() kept the busy message from being redelivered');
    await Promise.all([busy, idle]);
  });

  t.test(`${name}: a message id seen within the duplicate window is stored once`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    f.bus.consume(f.consumer(), ackAll(rec));
    const [first, again] = await Promise.all([f.publish('original', 'id-1'), f.publish('copy', 'id-1')]);
    t.equal(first.duplicate, false);
    t.equal(again.duplicate, true, 'the second publish is acknowledged as a duplicate');
    t.equal(again.seq, first.seq, 'a duplicate names the sequence of the stored message');
    t.equal((await f.publish('late copy', 'id-1')).duplicate, true, 'still a duplicate once the original was acked');
    await f.publish('next', 'id-2');
    await rec.until('the next message', () => rec.distinct.has('next'));
    t.same(rec.texts(), ['original', 'next'], 'the copies were never delivered');
  });

  t.test(`${name}: publishMany: each subject's messages in the order given, a message id seen before stored once`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    f.bus.consume(f.consumer(), ackAll(rec));
    await f.publish('before', 'id-before');
    const items = Array.from({ length: 300 }, (_, i) => ({ subject: f.subject(`p${i % 3}`), data: encode(`p${i % 3}-${i}`), msgId: `id-${i}` }));
    await f.bus.publishMany(
      [...items, { subject: f.subject('p0'), data: encode('copy in the batch'), msgId: 'id-0' }, { subject: f.subject('p1'), data: encode('copy of before'), msgId: 'id-before' }],
      { timeoutMs: 15_000 },
    );
    await rec.until('301 deliveries', (s) => s.length >= 301);
    for (const p of ['p0', 'p1', 'p2']) {
      const texts = items.map((item) => decode(item.data)).filter((x) => x.startsWith(`${p}-`));
      t.same(
        rec.texts().filter((x) => x.startsWith(`${p}-`)),
        texts,
        `${p}: delivered in the order given, each once`,
      );
    }
    t.notOk(rec.distinct.has('copy in the batch') || rec.distinct.has('copy of before'), 'the repeated ids were not stored');
    await f.bus.publishMany([], {});
    await f.publish('after', 'id-after');
    await rec.until('the message after', () => rec.distinct.has('after'));
    t.equal(rec.texts().length, 302, 'nothing else was delivered');
  });

  t.test(`${name}: two consumers of one durable share 2000 messages, none lost, none twice`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    const handler =
      (consumer: string): BatchHandler =>
      async (batch) => {
        for (const m of batch) rec.record(consumer, m);
        await new Promise((resolve) => setImmediate(resolve));
        for (const m of batch) m.ack();
      };
    f.bus.consume(f.consumer({ maxBatch: 50 }), handler('one'));
    f.bus.consume(f.consumer({ maxBatch: 50 }), handler('two'));
    const texts = Array.from({ length: 2000 }, (_, i) => `s${i}`);
    const acks = Promise.all(texts.map((x) => f.publish(x)));
    await rec.until('2000 distinct deliveries', () => rec.distinct.size >= 2000);
    await acks;
    const firsts = rec.seen.filter((s) => s.deliveryCount === 1);
    t.equal(firsts.length, 2000, 'each message delivered once as new');
    t.equal(new Set(firsts.map((s) => s.text)).size, 2000, 'no first delivery went to both consumers');
    t.ok(rec.texts('one').length > 0 && rec.texts('two').length > 0, 'both consumers got work');
  });

  t.test(`${name}: maxAckPending 1: two consumers of one durable never hold two messages at once, and take them in publish order`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    let held = 0;
    let most = 0;
    const sizes = new Set<number>();
    const handler =
      (consumer: string): BatchHandler =>
      async (batch) => {
        sizes.add(batch.length);
        for (const m of batch) rec.record(consumer, m);
        held += batch.length;
        most = Math.max(most, held);
        // Held over a timer, so the other consumer's pull has every chance to get a message meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 1));
        held -= batch.length;
        for (const m of batch) m.ack();
      };
    f.bus.consume(f.consumer({ maxBatch: 1, maxAckPending: 1 }), handler('one'));
    f.bus.consume(f.consumer({ maxBatch: 1, maxAckPending: 1 }), handler('two'));
    const texts = Array.from({ length: 30 }, (_, i) => `o${i}`);
    const acks = Promise.all(texts.map((x) => f.publish(x)));
    await rec.until('30 deliveries', (s) => s.length >= 30);
    await acks;
    t.equal(most, 1, 'never two messages held at once');
    t.same(rec.texts(), texts, 'each delivered once, in publish order');
    t.same([...sizes], [1], 'one message per handler call');
  });

  t.test(`${name}: maxAckPending 1: while one message is held nothing else goes out; once it is acked the next does`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler =
      (consumer: string): BatchHandler =>
      async (batch) => {
        for (const m of batch) {
          rec.record(consumer, m);
          if (m.msgId === 'first') await released;
          m.ack();
        }
      };
    f.bus.consume(f.consumer({ maxBatch: 1, maxAckPending: 1 }), handler('one'));
    f.bus.consume(f.consumer({ maxBatch: 1, maxAckPending: 1 }), handler('two'));
    const acks = ['first', 'second', 'third'].map((x) => f.publish(x));
    await rec.until('the first message held', (s) => s.length >= 1);
    // (A bus that wrongly lets the others out acks them, and never holds three: stop waiting then too.)
    await eventually('all three stored', async () => rec.seen.length > 1 || (await f.bus.stats()).pending[f.stream] === 3);
    // What is checked is an absence: give the other consumer ten of its pulls (maxWaitMs 20) to
    // (wrongly) get a message. A slow machine can only make this pass wrongly, never fail wrongly.
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.same(rec.texts(), ['first'], 'nothing else went out while the first was held');
    release();
    await rec.until('all three', () => rec.distinct.size >= 3);
    t.same(rec.texts(), ['first', 'second', 'third'], 'then the others, in publish order, each once');
    await Promise.all(acks);
  });

  t.test(`${name}: a stream at maxMessages refuses publishes with BusUnavailableError`, async (t) => {
    const f = await busFixture(t, open, { ...stream, maxMessages: 5 });
    const held = ['a', 'b', 'c', 'd', 'e'].map((x) => f.publish(x));
    const refused = await outcome(f.publish('f'));
    t.ok(refused instanceof BusUnavailableError, `the sixth publish is refused (${String(refused)})`);
    const rec = new Recorder();
    f.bus.consume(f.consumer(), ackAll(rec));
    await Promise.all(held);
    await eventually('the stream drained', async () => (await f.bus.stats()).pending[f.stream] === 0);
    await f.publish('f');
    await rec.until('f delivered', () => rec.distinct.has('f'));
    t.same(rec.texts(), ['a', 'b', 'c', 'd', 'e', 'f'], 'the refused message was not stored');
  });

  t.test(`${name}: a stream at maxBytes refuses publishes with BusUnavailableError`, async (t) => {
    // Three messages of 1 000 bytes fit under 3 500 (JetStream also counts a message's subject and
    // headers, some tens of bytes); a fourth would pass it.
    const f = await busFixture(t, open, { ...stream, maxBytes: 3500 });
    const body = (x: string) => x.repeat(1000);
    const held = ['a', 'b', 'c'].map((x) => f.publish(body(x), x));
    const refused = await outcome(f.publish(body('d'), 'd'));
    t.ok(refused instanceof BusUnavailableError, `the fourth publish is refused (${String(refused)})`);
    const rec = new Recorder();
    f.bus.consume(f.consumer(), ackAll(rec));
    await Promise.all(held);
    await eventually('the stream drained', async () => (await f.bus.stats()).pending[f.stream] === 0);
    await f.publish(body('d'), 'd again');
    await rec.until('d delivered', () => rec.distinct.has(body('d')));
    t.same(rec.texts(), ['a', 'b', 'c', 'd'].map(body), 'the refused message was not stored');
  });

  t.test(`${name}: stop() waits for the handler in progress; its unacked messages go to another consumer`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = f.bus.consume(f.consumer({ maxBatch: 10 }), async (batch) => {
      for (const m of batch) rec.record('first', m);
      await released;
    });
    const texts = ['x', 'y', 'z'];
    const acks = texts.map((x) => f.publish(x));
    await rec.until('the first consumer holds a batch', (s) => s.length > 0);
    let stopped = false;
    const stopping = first.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    t.notOk(stopped, 'stop() waits for the handler');
    release();
    await stopping;
    const held = rec.texts('first');
    f.bus.consume(f.consumer({ maxBatch: 10 }), ackAll(rec, 'second'));
    await rec.until('all with the second consumer', () => texts.every((x) => rec.texts('second').includes(x)));
    for (const x of held) {
      t.equal(rec.seen.find((s) => s.consumer === 'second' && s.text === x)?.deliveryCount, 2, `${x} came back at once`);
    }
    await Promise.all(acks);
  });

  t.test(`${name}: when a handler throws, what it left unsettled comes back`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    let failed: { acked: string; left: string[] } | undefined;
    f.bus.consume(f.consumer({ maxBatch: 3, maxWaitMs: 200 }), async (batch) => {
      for (const m of batch) rec.record('c', m);
      if (failed) {
        for (const m of batch) m.ack();
        return;
      }
      const [head, ...rest] = batch;
      head!.ack();
      failed = { acked: decode(head!.data), left: rest.map((m) => decode(m.data)) };
      throw new Error('handler failure expected by the test');
    });
    const acks = ['p', 'q', 'r'].map((x) => f.publish(x));
    await rec.until('the failed batch redelivered', () => failed?.left.every((x) => redeliveryOf(rec, x) !== undefined) ?? false);
    t.equal(failed!.left.length, 2, 'the whole batch was handed over at once');
    t.equal(rec.count(failed!.acked), 1, 'the message acked before the throw is not redelivered');
    await Promise.all(acks);
  });

  t.test(`${name}: after maxDeliver deliveries a message is not delivered again`, async (t) => {
    const f = await busFixture(t, open, stream);
    const rec = new Recorder();
    f.bus.consume(f.consumer({ maxDeliver: 3 }), async (batch) => {
      for (const m of batch) {
        rec.record('c', m);
        if (m.msgId === 'poison') m.nak();
        else m.ack();
      }
    });
    void f.publish('poison');
    await rec.until('three deliveries of poison', () => rec.count('poison') >= 3);
    await f.publish('after');
    await rec.until('the next message', () => rec.distinct.has('after'));
    t.same(
      rec.seen.filter((s) => s.text === 'poison').map((s) => s.deliveryCount),
      [1, 2, 3],
    );
  });

  t.test(`${name}: limits retention: each durable gets every message; a filter narrows what it gets`, async (t) => {
    const f = await busFixture(t, open, { ...stream, retention: 'limits' });
    const rec = new Recorder();
    f.bus.consume(f.consumer({ durable: 'all' }), ackAll(rec, 'all'));
    f.bus.consume(f.consumer({ durable: 'keep', filterSubject: f.subject('keep.*') }), ackAll(rec, 'keep'));
    const acks = [f.publish('k1', 'k1', f.subject('keep.1')), f.publish('s1', 's1', f.subject('skip.1')), f.publish('k2', 'k2', f.subject('keep.2'))];
    await Promise.all(acks);
    await rec.until('all three with "all", both kept with "keep"', () => rec.texts('all').length === 3 && rec.texts('keep').length === 2);
    t.same(rec.texts('all'), ['k1', 's1', 'k2']);
    t.same(rec.texts('keep'), ['k1', 'k2']);
    const k2 = rec.seen.find((s) => s.text === 'k2');
    t.equal(k2?.msgId, 'k2', 'the message id travels with the message');
    t.equal(k2?.subject, f.subject('keep.2'), 'and so does its subject');
  });

  t.test(`${name}: durables filtered on one subject each (partitions) get their own messages, in publish order, before and after they start`, async (t) => {
    const f = await busFixture(t, open, { ...stream, retention: 'limits' });
    const partitions = 8;
    const partitionOf = (i: number): number => (i * 5 + (i >> 3)) % partitions;
    const expected = new Map<number, string[]>();
    const publishRange = (from: number, to: number): void => {
      for (let i = from; i < to; i++) {
        const p = partitionOf(i);
        expected.set(p, [...(expected.get(p) ?? []), `m${i}`]);
        void f.publish(`m${i}`, `m${i}`, f.subject(`part.${p}`));
      }
    };
    publishRange(0, 400);
    const rec = new Recorder();
    const held: Array<{ ack(): void }> = [];
    for (let p = 0; p < partitions; p++) {
      const durable = `part-${p}`;
      f.bus.consume(f.consumer({ durable, filterSubject: f.subject(`part.${p}`), maxBatch: 7 }), async (batch) => {
        for (const m of batch) {
          rec.record(durable, m);
          // Partition 3 keeps what it gets: it stays pending, and the others go on.
          if (p === 3) held.push(m);
          else m.ack();
        }
      });
    }
    f.bus.consume(f.consumer({ durable: 'every', filterSubject: f.subject('part.*') }), ackAll(rec, 'every'));
    await rec.until('the first 400, each once per partition and once for "every"', () => rec.texts('every').length === 400 && rec.seen.length === 800);
    publishRange(400, 480);
    await rec.until('all 480', () => rec.texts('every').length === 480 && rec.seen.length === 960);
    for (let p = 0; p < partitions; p++) t.same(rec.texts(`part-${p}`), expected.get(p), `partition ${p}: its messages only, in publish order`);
    const pendingOf = async (durable: string): Promise<number | undefined> => (await f.bus.stats()).consumers.find((c) => c.stream === f.stream && c.consumer === durable)?.pending;
    t.equal(await pendingOf('part-3'), expected.get(3)!.length, 'the partition holding its messages has them all pending');
    t.equal(await pendingOf('part-4'), 0, 'a partition that acked has none');
    for (const m of held) m.ack();
    await eventually('none pending once acked', async () => (await pendingOf('part-3')) === 0);
  });
}

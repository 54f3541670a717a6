/**
 * The one suite both bus adapters pass for feeds: streams every reader reads whole, from a given
 * sequence, kept for a while (the problem changes behind Server-Sent Events). Every wait is on
 * a predicate with a deadline, never a sleep.
 */
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import type { Bus, FeedMessage, FeedSpec, FeedTail, PublishAck } from '../../services/runtime/adapters/bus/bus.port.js';
import { decode, encode, eventually } from '../support/bus-recorder.js';
import type { OpenBus } from './bus.contract.js';

/** What a tail was handed, awaited by predicate. */
export class FeedReader {
  readonly seen: FeedMessage[] = [];
  private readonly waiters = new Set<() => void>();

  readonly handler = (message: FeedMessage): void => {
    this.seen.push(message);
    for (const w of this.waiters) w();
  };

  texts(): string[] {
    return this.seen.map((m) => decode(m.data));
  }

  seqs(): number[] {
    return this.seen.map((m) => m.seq);
  }

  /** Resolves once `predicate` holds; rejects after `timeoutMs` saying what was awaited and seen. */
  until(what: string, predicate: (seen: FeedMessage[]) => boolean, timeoutMs = 15_000): Promise<void> {
    if (predicate(this.seen)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (!predicate(this.seen)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (seen: ${this.seen.map((m) => `${m.seq}:${decode(m.data)}`).join(', ')})`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }
}

export interface FeedFixture {
  bus: Bus;
  spec: FeedSpec;
  subject: string;
  /** Publishes `text` with `msgId` (default: the text). */
  publish(text: string, msgId?: string): Promise<PublishAck>;
  /** A tail from `fromSeq` with a reader of its own. */
  tail(fromSeq: number): { reader: FeedReader; tail: FeedTail };
}

/** A bus closed at the end of the test, with a feed of its own (unique name per test). */
export async function feedFixture(t: Test, open: OpenBus, overrides: Partial<FeedSpec> = {}): Promise<FeedFixture> {
  const { bus, cleanup } = await open();
  t.teardown(async () => {
    await bus.close();
    await cleanup?.();
  });
  const name = `F${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;
  const subject = `${name.toLowerCase()}.changes`;
  const spec: FeedSpec = { name, subjects: [subject], duplicateWindowMs: 60_000, maxAgeMs: 3_600_000, maxMessages: 10_000, ...overrides };
  await bus.ensureFeed(spec);
  return {
    bus,
    spec,
    subject,
    publish: (text, msgId = text) => bus.publish(subject, encode(text), { msgId, timeoutMs: 15_000 }),
    tail(fromSeq) {
      const reader = new FeedReader();
      return { reader, tail: bus.tailFeed(name, fromSeq, reader.handler) };
    },
  };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** `maxAgeMs`: the age limit the age case uses, long enough for this adapter to keep it. */
export function feedContract(t: Test, name: string, open: OpenBus, options: { maxAgeMs: number }): void {
  t.test(`${name}: a publish on a feed resolves once stored, with no reader`, async (t) => {
    const f = await feedFixture(t, open);
    const acks = [await f.publish('a'), await f.publish('b'), await f.publish('c')];
    t.same(
      acks.map((a) => [a.stream, a.seq, a.duplicate]),
      [
        [f.spec.name, 1, false],
        [f.spec.name, 2, false],
        [f.spec.name, 3, false],
      ],
      'each stored under the next sequence',
    );
    t.match(await f.bus.feedInfo(f.spec.name), { firstSeq: 1, lastSeq: 3 });
  });

  t.test(`${name}: two tails each receive every message in order, the held ones first`, async (t) => {
    const f = await feedFixture(t, open);
    await f.publish('a');
    await f.publish('b');
    // 0 and 1 both mean "from the first held".
    const one = f.tail(0);
    const two = f.tail(1);
    for (const text of ['c', 'd', 'e']) await f.publish(text);
    for (const { reader } of [one, two]) {
      await reader.until('five messages', (s) => s.length >= 5);
      t.same(reader.texts(), ['a', 'b', 'c', 'd', 'e'], 'every message, once, in order');
      t.same(reader.seqs(), range(1, 5), 'with their sequences');
      t.ok(
        reader.seen.every((m) => m.subject === f.subject && Math.abs(m.storedAt - Date.now()) < 600_000),
        'with their subject and the time they were stored (ms since epoch)',
      );
    }
  });

  t.test(`${name}: a tail from a middle sequence gets that one and every later one`, async (t) => {
    const f = await feedFixture(t, open);
    for (const text of ['a', 'b', 'c', 'd', 'e']) await f.publish(text);
    const { reader } = f.tail(3);
    await f.publish('f');
    await reader.until('c to f', (s) => s.length >= 4);
    t.same(reader.texts(), ['c', 'd', 'e', 'f']);
    t.same(reader.seqs(), range(3, 6));
  });

  t.test(`${name}: a duplicate msgId within the window is stored once and answers duplicate with the original seq`, async (t) => {
    const f = await feedFixture(t, open);
    t.match(await f.publish('x', 'id-x'), { seq: 1, duplicate: false });
    t.match(await f.publish('y', 'id-y'), { seq: 2, duplicate: false });
    t.match(await f.publish('x again', 'id-x'), { stream: f.spec.name, seq: 1, duplicate: true }, 'the original sequence');
    t.match(await f.bus.feedInfo(f.spec.name), { firstSeq: 1, lastSeq: 2 }, 'not stored again');
    const { reader } = f.tail(1);
    await f.publish('z', 'id-z');
    await reader.until('z', (s) => s.some((m) => decode(m.data) === 'z'));
    t.same(reader.texts(), ['x', 'y', 'z'], 'a tail reads the duplicate nowhere');
  });

  t.test(`${name}: feedInfo gives the first and last sequence held, under an epoch that stays the same`, async (t) => {
    const f = await feedFixture(t, open);
    const empty = await f.bus.feedInfo(f.spec.name);
    t.match(empty, { firstSeq: 1, lastSeq: 0 }, 'empty: firstSeq is lastSeq + 1');
    t.ok(typeof empty.epoch === 'string' && empty.epoch.length > 0, 'an epoch');
    await f.publish('a');
    await f.publish('b');
    const two = await f.bus.feedInfo(f.spec.name);
    t.same(two, { epoch: empty.epoch, firstSeq: 1, lastSeq: 2 });
    await f.bus.ensureFeed(f.spec);
    t.same(await f.bus.feedInfo(f.spec.name), two, 'ensureFeed again changes nothing, the epoch included');
  });

  t.test(`${name}: past maxMessages the oldest are dropped (firstSeq moves) and a publish is never refused`, async (t) => {
    const f = await feedFixture(t, open, { maxMessages: 3 });
    const acks: PublishAck[] = [];
    for (let i = 1; i <= 10; i++) acks.push(await f.publish(`m${i}`));
    t.same(
      acks.map((a) => [a.seq, a.duplicate]),
      range(1, 10).map((seq) => [seq, false]),
      'all ten accepted',
    );
    t.match(await f.bus.feedInfo(f.spec.name), { firstSeq: 8, lastSeq: 10 });
    const { reader } = f.tail(1);
    await reader.until('m10', (s) => s.some((m) => m.seq === 10));
    t.same(reader.texts(), ['m8', 'm9', 'm10'], 'a tail from 1 starts at the oldest held');
  });

  t.test(`${name}: messages older than maxAgeMs are dropped`, async (t) => {
    const { maxAgeMs } = options;
    const f = await feedFixture(t, open, { maxAgeMs, duplicateWindowMs: maxAgeMs });
    await f.publish('old 1');
    await f.publish('old 2');
    await eventually('the old messages to age out', async () => (await f.bus.feedInfo(f.spec.name)).firstSeq === 3, 15_000, 50);
    t.match(await f.bus.feedInfo(f.spec.name), { firstSeq: 3, lastSeq: 2 }, 'empty, the sequence kept');
    const { reader } = f.tail(1);
    await f.publish('new');
    await reader.until('the new message', (s) => s.length >= 1);
    t.same(reader.texts(), ['new'], 'a tail from 1 gets none of the aged ones');
    t.same(reader.seqs(), [3]);
  });

  t.test(`${name}: stop() ends delivery to that tail only`, async (t) => {
    const f = await feedFixture(t, open);
    const stopped = f.tail(1);
    const live = f.tail(1);
    await f.publish('a');
    await stopped.reader.until('a', (s) => s.length === 1);
    await stopped.tail.stop();
    await f.publish('b');
    await f.publish('c');
    await live.reader.until('a to c', (s) => s.length === 3);
    t.same(live.reader.texts(), ['a', 'b', 'c'], 'the live tail got everything');
    t.same(stopped.reader.texts(), ['a'], 'the stopped tail nothing after its stop');
  });

  t.test(`${name}: a tail started past lastSeq receives only new messages`, async (t) => {
    const f = await feedFixture(t, open);
    await f.publish('old 1');
    await f.publish('old 2');
    const { reader } = f.tail(100);
    // The tail may take a moment to start (JetStream): publish until it has received something.
    let n = 0;
    await eventually('the tail to receive a new message', async () => {
      await f.publish(`new ${n++}`);
      return reader.seen.length > 0;
    });
    await f.publish('last');
    await reader.until('the last one', (s) => s.some((m) => decode(m.data) === 'last'));
    const first = reader.seen[0]!.seq;
    t.ok(first >= 3, `none of the old ones (first: ${first}), nor a wait for sequence 100`);
    t.same(reader.seqs(), range(first, first + reader.seen.length - 1), 'then every new one in order');
    t.equal(reader.texts().at(-1), 'last');
  });
}

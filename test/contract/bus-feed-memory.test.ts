import t from 'tap';
import { BusUnavailableError, type FeedSpec } from '../../services/runtime/adapters/bus/bus.port.js';
import { createMemoryBus } from '../../services/runtime/adapters/bus/memory.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { encode } from '../support/bus-recorder.js';
import { feedContract, feedFixture } from './bus-feed.contract.js';
import type { OpenBus } from './bus.contract.js';

const open: OpenBus = async () => ({ bus: createMemoryBus({ logger: silentLogger() }) });

feedContract(t, 'memory', open, { maxAgeMs: 200 });

// What only the in-process bus promises, or can show.

const feed = (name: string, subjects: string[]): FeedSpec => ({ name, subjects, duplicateWindowMs: 1000, maxAgeMs: 60_000, maxMessages: 100 });

t.test('memory: the subjects of a feed overlap no stream and no other feed, and names are shared', async (t) => {
  const bus = createMemoryBus({ logger: silentLogger() });
  t.teardown(() => bus.close());
  await bus.ensureStream({ name: 'S', subjects: ['work.>'], duplicateWindowMs: 1000, retention: 'workqueue' });
  await t.rejects(bus.ensureFeed(feed('F', ['work.changes'])), /subjects of feed F overlap with stream S/);
  await bus.ensureFeed(feed('F', ['live.*']));
  await t.rejects(bus.ensureStream({ name: 'S2', subjects: ['live.x'], duplicateWindowMs: 1000, retention: 'limits' }), /subjects of stream S2 overlap with feed F/);
  await t.rejects(bus.ensureFeed(feed('G', ['live.>'])), /subjects of feed G overlap with feed F/);
  await t.rejects(bus.ensureFeed(feed('S', ['other'])), /a stream of that name exists/);
  await bus.ensureFeed(feed('F', ['live.*', 'more']));
  t.match(await bus.publish('more', encode('m'), { msgId: 'm' }), { stream: 'F', seq: 1, duplicate: false }, 'an update takes new subjects');
});

t.test('memory: a feed starts empty under a new epoch on every bus (nothing survives a restart)', async (t) => {
  const first = await feedFixture(t, open);
  await first.publish('a');
  const before = await first.bus.feedInfo(first.spec.name);
  const bus = createMemoryBus({ logger: silentLogger() });
  t.teardown(() => bus.close());
  await bus.ensureFeed(first.spec);
  const after = await bus.feedInfo(first.spec.name);
  t.match(after, { firstSeq: 1, lastSeq: 0 }, 'empty');
  t.not(after.epoch, before.epoch, 'a sequence of the other bus means nothing here');
});

t.test('memory: a tail is called after publish has returned, never inside it', async (t) => {
  const f = await feedFixture(t, open);
  const { reader } = f.tail(1);
  const publishing = f.publish('a');
  t.equal(reader.seen.length, 0, 'not within publish');
  await publishing;
  await reader.until('a', (s) => s.length === 1);
  t.pass('then delivered');
});

t.test('memory: a handler that throws does not end its tail', async (t) => {
  const f = await feedFixture(t, open);
  const texts: string[] = [];
  f.bus.tailFeed(f.spec.name, 1, (m) => {
    texts.push(new TextDecoder().decode(m.data));
    if (texts.length === 1) throw new Error('boom');
  });
  const { reader } = f.tail(1);
  await f.publish('a');
  await f.publish('b');
  await reader.until('b', (s) => s.length === 2);
  t.same(texts, ['a', 'b']);
});

t.test('memory: feeds are not in stats(), since nothing on them is acknowledged', async (t) => {
  const f = await feedFixture(t, open);
  await f.publish('a');
  t.notOk(f.spec.name in (await f.bus.stats()).pending);
});

t.test('memory: close() ends every tail and refuses the feed calls', async (t) => {
  const f = await feedFixture(t, open);
  const { reader, tail } = f.tail(1);
  await f.publish('a');
  await f.bus.close();
  t.equal(reader.seen.length, 0, 'what was scheduled is not delivered after close');
  await t.rejects(f.publish('b'), BusUnavailableError);
  await t.rejects(f.bus.feedInfo(f.spec.name), BusUnavailableError);
  t.throws(() => f.bus.tailFeed(f.spec.name, 1, () => undefined));
  await tail.stop();
  t.equal(reader.seen.length, 0);
});

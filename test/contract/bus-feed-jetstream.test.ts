import { connect } from 'nats';
import t from 'tap';
import { createJetStreamBus } from '../../services/runtime/adapters/bus/jetstream.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { decode, eventually } from '../support/bus-recorder.js';
import { missingServices, type RunningService, startNats } from '../support/services.js';
import { FeedReader, feedContract, feedFixture } from './bus-feed.contract.js';
import type { OpenBus } from './bus.contract.js';

const skip = missingServices('nats-server');

if (skip) {
  t.plan(0, `JetStream bus feeds: ${skip}`);
} else {
  let nats: RunningService;
  t.before(async () => {
    nats = await startNats();
  });
  t.teardown(() => nats?.stop());

  const open: OpenBus = async () => ({ bus: await createJetStreamBus({ url: nats.url, name: 'bus-feed-contract' }, { logger: silentLogger() }) });

  // The server expires by max_age on a timer of its own: 1 s keeps the age case short and sure.
  feedContract(t, 'jetstream', open, { maxAgeMs: 1000 });

  t.test('jetstream: a tail on one connection reads what another publishes, under the same epoch; close() ends it', async (t) => {
    const f = await feedFixture(t, open);
    const other = await open();
    t.teardown(() => other.bus.close());
    const reader = new FeedReader();
    other.bus.tailFeed(f.spec.name, 1, reader.handler);
    await f.publish('a');
    await reader.until('a', (s) => s.length === 1);
    t.same(await other.bus.feedInfo(f.spec.name), await f.bus.feedInfo(f.spec.name), 'one feed, one epoch');
    await other.bus.close();
    const live = f.tail(1);
    await f.publish('b');
    await live.reader.until('a and b', (s) => s.length === 2);
    t.same(reader.texts(), ['a'], 'nothing after its bus closed');
  });

  t.test('jetstream: a feed deleted and created again has a new epoch', async (t) => {
    const f = await feedFixture(t, open);
    await f.publish('a');
    const before = await f.bus.feedInfo(f.spec.name);
    const nc = await connect({ servers: nats.url });
    t.teardown(() => nc.close());
    await (await nc.jetstreamManager()).streams.delete(f.spec.name);
    await f.bus.ensureFeed(f.spec);
    const after = await f.bus.feedInfo(f.spec.name);
    t.not(after.epoch, before.epoch, 'sequences from before mean nothing now');
    t.match(after, { firstSeq: 1, lastSeq: 0 });
  });

  // Last: it takes the server down.
  t.test('jetstream: a tail survives a nats-server restart, without a gap or a repeat', async (t) => {
    const f = await feedFixture(t, open);
    const { reader } = f.tail(1);
    await f.publish('before');
    await reader.until('before', (s) => s.length === 1);

    await nats.kill(true);
    await nats.restart();
    // Until the client has reconnected and JetStream has recovered its streams, publish is refused.
    await eventually('a publish accepted after the restart', async () => (await f.publish('after')).seq === 2);
    await reader.until('after', (s) => s.some((m) => decode(m.data) === 'after'), 30_000);
    t.same(reader.texts(), ['before', 'after']);
    t.same(reader.seqs(), [1, 2]);
  });
}

import t from 'tap';
import { BusUnavailableError } from '../../services/runtime/adapters/bus/bus.port.js';
import { createJetStreamBus } from '../../services/runtime/adapters/bus/jetstream.adapter.js';
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

  t.test('jetstream: a bus that cannot reach JetStream is refused at creation', async (t) => {
    await t.rejects(createJetStreamBus({ url: 'nats://127.0.0.1:1' }, { logger: silentLogger() }));
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

/**
 * Issue #34: one consumer edge, for the event worker. A record batch that cannot be decoded is
 * dead-lettered whole at its first delivery; one that decodes but whose rows the engine refuses
 * (a stream id out of its column's range) fails alone, is delivered again, and is dead-lettered
 * after OPS_MAX_DELIVERIES deliveries. The batches around them are stored, and their problems
 * opened, meanwhile.
 */
import t from 'tap';
import { encodeBatch, batchPart } from '../../../pipelines/records/envelope.js';
import { recordsSubject } from '../../../services/runtime/bus-streams.js';
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import { eventually } from '../../support/bus-recorder.js';
import { ProblemsKit } from '../problems/problems-kit.js';

const k = new ProblemsKit();
t.before(() => k.start(undefined, { env: { OPS_MAX_DELIVERIES: '2' } }));
t.teardown(() => k.stop());

const lettersOf = (consumer: string) =>
  k.p.platform.engines.analytics.query<{ reason: string; payload: string }>(
    'SELECT reason, payload FROM dead_letters WHERE stream_id = 0 AND startsWith(reason, {prefix:String}) ORDER BY reason',
    {
      prefix: `${consumer}:`,
    },
  );

t.test('poison record batches are dead-lettered; the batches around them are stored and open their problems', async (t) => {
  const wg = await k.workGroup();
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  const cis = [await k.ci({ ownerWorkGroup: { id: wg.id } }), await k.ci({ ownerWorkGroup: { id: wg.id } })];
  const bus = k.p.platform.engines.bus;
  const refused = encodeBatch(-1, [batchPart(k.clock, 'json', ['{"msg":"refused"}'])]);
  const poisoned = Promise.all([
    bus.publish(recordsSubject(stream.id), Buffer.from('not a batch'), { msgId: 'poison-undecodable' }),
    bus.publish(recordsSubject(stream.id), Buffer.from(refused), { msgId: 'poison-refused' }),
  ]);
  const at = new Date(k.clock - 60_000).toISOString();
  await k.post(
    stream.key,
    cis.map((ci) => ({ '@timestamp': at, check: 'cpu', host: ci.name, severity: 'major' })),
  );
  await poisoned;
  await eventually('both poison batches dead-lettered', async () => (await lettersOf('event-worker')).length === 2);
  const letters = await lettersOf('event-worker');
  t.match(
    letters[0]!.reason,
    /^event-worker: still failing after 2 deliveries: The analytics store refused the work as given: .*message poison-refused, delivery 2\)$/,
    'refused: after OPS_MAX_DELIVERIES',
  );
  t.equal(letters[0]!.payload, refused, 'kept as it was');
  t.match(letters[1]!.reason, /^event-worker: undecodable batch .*message poison-undecodable, delivery 1\)$/, 'undecodable: at its first delivery');
  t.equal(letters[1]!.payload, 'not a batch');

  const [stored] = await k.p.platform.engines.analytics.query<{ n: string }>('SELECT count() AS n FROM events WHERE stream_id = {s:UInt64}', { s: stream.id });
  t.equal(Number(stored?.n), cis.length, 'every posted record stored once (physical rows)');
  await k.problemsSettled();
  const page = await k.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}`);
  t.same(page.body.items.map((p: any) => p.configItem.id).sort(), cis.map((c) => c.id).sort(), "the records' problems are open");
  const metrics = await k.api('GET', '/metrics', { token: null });
  t.match(metrics.text, /^ops_consumer_messages_total\{consumer="event-worker",outcome="dead_letter"\} 2$/m);
  t.match(metrics.text, /^ops_consumer_messages_total\{consumer="event-worker",outcome="retry"\} 1$/m, 'the refused batch was delivered once more before');
});

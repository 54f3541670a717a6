/**
 * Issue #34: one consumer edge. A message the problem stage cannot process is dead-lettered (at
 * once when it cannot even be decoded, after OPS_MAX_DELIVERIES deliveries when it keeps failing)
 * while the other messages of its partition and of every other partition are processed.
 */
import t from 'tap';
import { partitionOf } from '../../../pipelines/problems/partition.js';
import { hitsSubject } from '../../../services/runtime/bus-streams.js';
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import { eventually } from '../../support/bus-recorder.js';
import { ProblemsKit } from './problems-kit.js';

const k = new ProblemsKit();
t.before(() => k.start(undefined, { env: { OPS_MAX_DELIVERIES: '2' } }));
t.teardown(() => k.stop());

t.test('poison messages in a partition are dead-lettered; the hits around them are placed', async (t) => {
  const wg = await k.workGroup();
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  const cis = [await k.ci({ ownerWorkGroup: { id: wg.id } }), await k.ci({ ownerWorkGroup: { id: wg.id } })];
  const partitions = k.p.platform.config.problemPartitions;
  const subject = hitsSubject(partitionOf(trigger.id, cis[0].id, partitions));
  const bus = k.p.platform.engines.bus;
  // Not a hits message at all, and one that decodes but cannot be placed (its hits are not a list).
  await bus.publish(subject, Buffer.from('not json'), { msgId: 'poison-undecodable' });
  await bus.publish(subject, Buffer.from(JSON.stringify({ keys: [[trigger.id, cis[0].id, 5]], closes: [] })), { msgId: 'poison-unplaceable' });
  const at = new Date(k.clock - 60_000).toISOString();
  await k.post(
    stream.key,
    cis.map((ci) => ({ '@timestamp': at, check: 'cpu', host: ci.name, severity: 'major' })),
  );
  await eventually('both poison messages dead-lettered', async () => {
    const [row] = await k.p.platform.engines.analytics.query<{ n: string }>("SELECT count() AS n FROM dead_letters WHERE stream_id = 0 AND startsWith(reason, 'problem-stage:')");
    return Number(row?.n) === 2;
  });
  const letters = await k.p.platform.engines.analytics.query<{ reason: string; payload: string }>(
    "SELECT reason, payload FROM dead_letters WHERE stream_id = 0 AND startsWith(reason, 'problem-stage:') ORDER BY payload",
  );
  t.match(letters[0]!.reason, /^problem-stage: not a hits message: .*message poison-undecodable, delivery 1\)$/, 'undecodable: at its first delivery');
  t.equal(letters[0]!.payload, 'not json', 'kept as it was');
  t.match(letters[1]!.reason, /^problem-stage: still failing after 2 deliveries: .*message poison-unplaceable, delivery 2\)$/, 'unplaceable: after OPS_MAX_DELIVERIES');
  await k.problemsSettled();
  const page = await k.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}`);
  t.same(page.body.items.map((p: any) => p.configItem.id).sort(), cis.map((c) => c.id).sort(), "the records' problems, in the poisoned partition and elsewhere");
  const metrics = await k.api('GET', '/metrics', { token: null });
  t.match(metrics.text, /^ops_consumer_messages_total\{consumer="problem-stage",outcome="dead_letter"\} 2$/m);
});

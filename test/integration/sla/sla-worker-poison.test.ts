/**
 * Issue #34: one consumer edge, for the SLA worker. A job that cannot be read is dead-lettered at
 * its first delivery, kept as it came; the reports ordered around it are calculated.
 */
import t from 'tap';
import { SLA_JOBS_SUBJECT } from '../../../services/runtime/bus-streams.js';
import { eventually } from '../../support/bus-recorder.js';
import { SlaKit } from './sla-kit.js';

const k = new SlaKit();
t.before(() => k.startWith());
t.teardown(() => k.stop());

t.test('an SLA job that cannot be read is dead-lettered; the reports around it are calculated', async (t) => {
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }] });
  const range = { start: new Date(k.clock - 86_400_000).toISOString(), end: new Date(k.clock).toISOString() };
  const first = await k.ordered({ template: { id: template.id }, range });
  await k.p.platform.engines.bus.publish(SLA_JOBS_SUBJECT, Buffer.from('{"reportId":42}'), { msgId: 'poison-job' }).catch(() => undefined);
  const second = await k.ordered({ template: { id: template.id }, range });
  for (const id of [first, second]) t.equal((await k.finished(id)).status, 'Ok', `report ${id} calculated`);
  const letters = () =>
    k.p.platform.engines.analytics.query<{ reason: string; payload: string }>("SELECT reason, payload FROM dead_letters WHERE stream_id = 0 AND startsWith(reason, 'sla-worker:')");
  await eventually('the job dead-lettered', async () => (await letters()).length === 1);
  const [letter] = await letters();
  t.match(letter!.reason, /^sla-worker: not an SLA job \(subject sla\.jobs, message poison-job, delivery 1\)$/);
  t.equal(letter!.payload, '{"reportId":42}', 'kept as it was');
  const metrics = await k.api('GET', '/metrics', { token: null });
  t.match(metrics.text, /^ops_consumer_messages_total\{consumer="sla-worker",outcome="dead_letter"\} 1$/m);
});

/**
 * Issue #30 acceptance in the distributed mode (JetStream, Redis, the ClickHouse server
 * connector): the problem list, actions and live changes cases as on the embedded platform, and
 * an SSE subscriber on a second API process seeing a change made through the first (changes
 * travel on the bus, not in one process's memory).
 */
import t from 'tap';
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import { type DistributedServers, startDistributed } from '../../support/distributed.js';
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { missingServices } from '../../support/services.js';
import { openSse } from '../../support/sse.js';
import { problemsApiCases } from '../problems/problems-api.cases.js';
import { ProblemsKit } from '../problems/problems-kit.js';
import { problemsStreamCases } from '../problems/problems-stream.cases.js';

const skip = missingServices('nats-server', 'redis-server');
if (skip) {
  t.plan(0, skip);
} else {
  let servers: DistributedServers;
  const k = new ProblemsKit();
  let second: TestPlatform;
  t.before(async () => {
    servers = await startDistributed();
    const env = servers.env();
    await k.start(undefined, { env });
    second = await startTestPlatform({ env, parts: ['api'], now: () => k.clock });
  });
  t.teardown(async () => {
    await Promise.allSettled([k.p?.stop(), second?.stop()]);
    await servers?.stop();
  });

  t.test('an SSE subscriber on a second API process sees the changes made through the first', async (t) => {
    const wg = await k.workGroup();
    const stream = await k.stream();
    const trigger = await k.trigger(stream.id);
    const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
    const sse = await openSse(`${second.base}${PROBLEMS}/stream?triggerIds=${trigger.id}`, { authorization: `Bearer ${ADMIN_TOKEN}` });
    t.teardown(() => sse.close());
    await k.post(stream.key, [{ '@timestamp': new Date(k.clock - 60_000).toISOString(), check: 'cpu', host: ci.name, severity: 'major' }]);
    const [opened] = await sse.until('opened on the second process', (e) => e.length >= 1);
    const id = JSON.parse(opened!.data).id as string;
    const acked = await k.api('POST', `${PROBLEMS}/${id}/acknowledge`, { json: { comment: 'through the first' } });
    t.equal(acked.status, 200, acked.text);
    const events = await sse.until('acknowledged on the second process', (e) => e.length >= 2);
    t.same(
      events.map((e) => e.event),
      ['opened', 'acknowledged'],
    );
    t.match(JSON.parse(events[1]!.data), { id, acknowledged: { comment: 'through the first' } });
    const listed = await second.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}`);
    t.match(listed.body.items, [{ id, acknowledged: { comment: 'through the first' } }], "the second process's open list follows the feed");
  });

  t.test('the problem list, the actions and their codes', async (t) => problemsApiCases(t, k));
  t.test('the live changes', async (t) => problemsStreamCases(t, k));
}

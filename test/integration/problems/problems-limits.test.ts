/**
 * Issue #30: the bounds of acting on problems. A bulk acknowledgement over its bound changes
 * nothing (400 problem.bulk_too_many); an action the problem stage does not confirm in time
 * answers 503 problem.action_pending with Retry-After. Both bounds are made small here.
 */
import t from 'tap';
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import { startTestPlatform } from '../../support/platform.js';
import { ProblemsKit } from './problems-kit.js';
import { createApiPart } from '../../../services/api/api.part.js';

t.test('a bulk acknowledgement matching more than its bound answers 400 and acknowledges nothing', async (t) => {
  const k = new ProblemsKit();
  k.apiHooks = { problemActions: { bulkLimit: 2 } };
  await k.start();
  t.teardown(() => k.stop());
  const wg = await k.workGroup();
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  const cis = [await k.ci({ ownerWorkGroup: { id: wg.id } }), await k.ci({ ownerWorkGroup: { id: wg.id } }), await k.ci({ ownerWorkGroup: { id: wg.id } })];
  await k.post(
    stream.key,
    cis.map((ci) => ({ '@timestamp': new Date(k.clock - 60_000).toISOString(), check: 'cpu', host: ci.name, severity: 'major' })),
  );
  const over = await k.api('POST', `${PROBLEMS}/acknowledge`, { json: { filter: { triggerIds: String(trigger.id) } } });
  t.equal(over.status, 400);
  t.equal(over.body.code, 'problem.bulk_too_many');
  t.match(over.body.detail, /matches 3 open problems; a bulk acknowledgement takes at most 2/);
  await k.feedSettled();
  const acked = await k.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}&acknowledged=true`);
  t.same(acked.body.items, [], 'nothing was acknowledged');
  const within = await k.api('POST', `${PROBLEMS}/acknowledge`, { json: { filter: { triggerIds: String(trigger.id), configItemIds: `${cis[0].id},${cis[1].id}` } } });
  t.same(within.body, { matched: 2, changed: 2, refused: 0 });
});

t.test('an action the problem stage does not confirm in time answers 503 problem.action_pending with Retry-After', async (t) => {
  // The API alone: nothing takes the action off the bus.
  const p = await startTestPlatform({ parts: ['api'], replace: [createApiPart({ problemActions: { waitMs: 200 } })] });
  t.teardown(() => p.stop());
  const wg = await p.api('POST', '/api/admin/v1/work-groups', { json: { name: 'owners' } });
  const ci = await p.api('POST', '/api/public/sm/v2/rsm/config-items', { json: { name: 'lonely', ownerWorkGroup: { id: wg.body.id } } });
  const id = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
  const start = clickhouseDateTime(Date.now() - 60_000);
  await p.platform.engines.analytics.insert('problems', [
    {
      id,
      trigger_id: 1,
      trigger_name: 'stored by hand',
      ci_id: ci.body.id,
      date_start: start,
      date_end: null,
      last_event_at: start,
      priority: 2,
      tags: '[]',
      incidents: '[]',
      influence_value: 10,
      influence_max: 0,
      with_maintenance: 0,
      version: 1,
      is_deleted: 0,
    },
  ]);
  const got = await p.api('GET', `${PROBLEMS}/${id}`);
  t.equal(got.status, 200, got.text);
  const ack = await p.api('POST', `${PROBLEMS}/${id}/acknowledge`, { json: {} });
  t.equal(ack.status, 503);
  t.equal(ack.body.code, 'problem.action_pending');
  t.equal(ack.headers.get('retry-after'), '1');
});

/**
 * CMDB issue acceptance: two API processes on one Redis. A CI created through one is readable
 * through the other right after the 201; two creates of the same name and type at the same
 * moment, one on each, give one 201 and one 400.
 */
import t from 'tap';
import { type DistributedServers, startDistributed } from '../../support/distributed.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { missingServices } from '../../support/services.js';

const skip = missingServices('nats-server', 'redis-server');
if (skip) {
  t.plan(0, skip);
} else {
  let servers: DistributedServers;
  let a: TestPlatform;
  let b: TestPlatform;
  let owner = 0;
  t.before(async () => {
    servers = await startDistributed();
    const env = servers.env();
    a = await startTestPlatform({ env, parts: ['api'] });
    b = await startTestPlatform({ env, parts: ['api'] });
    const wg = await a.api('POST', '/api/admin/v1/work-groups', { json: { name: 'Replicated' } });
    owner = wg.body.id;
  });
  t.teardown(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await servers?.stop();
  });

  t.test('a CI created through one process is readable through the other right after the 201', async (t) => {
    for (let i = 0; i < 25; i++) {
      const created = await a.api('POST', '/api/public/sm/v2/rsm/config-items', { json: { name: `replica-${i}`, ownerWorkGroup: { id: owner } } });
      t.equal(created.status, 201);
      const read = await b.api('GET', `/api/public/sm/v2/rsm/config-items/${created.body.id}`);
      t.equal(read.status, 200, `CI ${created.body.id} visible on the other process`);
      t.equal(read.body.name, `replica-${i}`);
    }
  });

  t.test('a token issued through one process works on the other at once', async (t) => {
    const user = await a.api('POST', '/api/admin/v1/users', { json: { name: 'replicated-user', workGroupIds: [owner] } });
    const issued = await a.api('POST', `/api/admin/v1/users/${user.body.id}/tokens`, { json: {} });
    const me = await b.api('GET', '/api/admin/v1/me', { token: issued.body.token });
    t.equal(me.status, 200);
    t.equal(me.body.user.name, 'replicated-user');
  });

  t.test('the same name and type created on both processes at once: one 201 and one 400', async (t) => {
    for (let round = 0; round < 10; round++) {
      const body = { json: { name: `contended-${round}`, ownerWorkGroup: { id: owner } } };
      const answers = await Promise.all([a.api('POST', '/api/public/sm/v2/rsm/config-items', body), b.api('POST', '/api/public/sm/v2/rsm/config-items', body)]);
      t.same(answers.map((x) => x.status).sort(), [201, 400], `round ${round}`);
      const refused = answers.find((x) => x.status === 400)!;
      t.match(refused.body.detail, /already exists with the same type/);
    }
    const listA = await a.api('POST', '/api/public/sm/v2/rsm/config-items/filter', { json: { names: Array.from({ length: 10 }, (_, i) => `contended-${i}`) } });
    t.equal(listA.body.length, 10, 'exactly one CI per name');
  });
}

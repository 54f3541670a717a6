/**
 * Issue #32, distributed mode: console sessions live in Redis, beside the journal, so two API
 * processes (on one NATS, Redis and ClickHouse) share them. A session made through one works
 * through the other, a use on one moves the idle deadline the other sees, and a sign-out or a
 * revoked token on one ends it on both.
 */
import t from 'tap';
import { type DistributedServers, startDistributed } from '../../support/distributed.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { missingServices } from '../../support/services.js';
import { CIS, refused, SESSION, signIn, userWithToken, withCookie } from './console-kit.js';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-21T10:00:00.000Z');

const skip = missingServices('nats-server', 'redis-server');
if (skip) {
  t.plan(0, skip);
} else {
  let clock = T0;
  let servers: DistributedServers;
  let a: TestPlatform;
  let b: TestPlatform;
  let group = 0;
  t.before(async () => {
    servers = await startDistributed();
    const env = servers.env();
    a = await startTestPlatform({ env, parts: ['api'], now: () => clock });
    b = await startTestPlatform({ env, parts: ['api'], now: () => clock });
    group = (await a.api('POST', '/api/admin/v1/work-groups', { json: { name: 'Replicated console' } })).body.id;
  });
  t.teardown(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await servers?.stop();
  });

  t.test('a token issued through one process signs in through the other at once, and the session works on both', async (t) => {
    clock = T0;
    const dave = await userWithToken(a, 'dave', { workGroupIds: [group] });
    const { secret, csrf, answer } = await signIn(b, dave.token);
    t.equal(answer.body.user.name, 'dave');
    const onA = await withCookie(a, secret, 'GET', SESSION);
    t.equal(onA.status, 200, 'made on b, read on a');
    t.same(onA.body, answer.body);
    const created = await withCookie(a, secret, 'POST', CIS, { json: { name: 'made-through-a', ownerWorkGroup: { id: group } }, csrf });
    t.equal(created.status, 201, 'a change through a, with the proof b gave');
    refused(t, await withCookie(a, secret, 'POST', CIS, { json: { name: 'no-proof', ownerWorkGroup: { id: group } } }), 403, 'session.csrf_missing');
    t.equal((await withCookie(b, secret, 'GET', `${CIS}/${created.body.id}`)).status, 200, 'read back through b');
  });

  t.test('a use on one process moves the idle deadline the other sees', async (t) => {
    clock = T0;
    const erin = await userWithToken(a, 'erin', { workGroupIds: [group] });
    const { secret } = await signIn(a, erin.token);
    for (let i = 1; i <= 4; i++) {
      clock = T0 + i * 20 * MINUTE;
      const on = i % 2 ? b : a;
      t.equal((await withCookie(on, secret, 'GET', CIS)).status, 200, `used at +${i * 20} min on ${i % 2 ? 'b' : 'a'}`);
    }
    const seen = await withCookie(a, secret, 'GET', SESSION);
    t.equal(seen.body.idleExpiresAt, new Date(T0 + 110 * MINUTE).toISOString(), "a sees the deadline b's and its own uses set");
    clock = T0 + 110 * MINUTE;
    refused(t, await withCookie(b, secret, 'GET', CIS), 401, 'session.idle_expired');
    refused(t, await withCookie(a, secret, 'GET', CIS), 401, 'session.idle_expired');
  });

  t.test('signing out on one process ends the session on the other', async (t) => {
    clock = T0;
    const frank = await userWithToken(a, 'frank', { workGroupIds: [group] });
    const { secret, csrf } = await signIn(a, frank.token);
    t.equal((await withCookie(b, secret, 'GET', CIS)).status, 200);
    t.equal((await withCookie(b, secret, 'DELETE', SESSION, { csrf })).status, 204, 'signed out through b');
    refused(t, await withCookie(a, secret, 'GET', CIS), 401, 'session.none', 'a refuses the old cookie');
    refused(t, await withCookie(a, secret, 'GET', SESSION), 401, 'session.none');
  });

  t.test('revoking the token through one process ends its session on the other', async (t) => {
    clock = T0;
    const gina = await userWithToken(a, 'gina', { workGroupIds: [group] });
    const { secret } = await signIn(b, gina.token);
    t.equal((await withCookie(b, secret, 'GET', CIS)).status, 200);
    t.equal((await a.api('DELETE', `/api/admin/v1/users/${gina.id}/tokens/${gina.tokenId}`)).status, 200);
    // b applies a's change as its journal tail delivers it, a few milliseconds later (as for a Bearer token).
    await b.platform.controlPlane.catchUp();
    refused(t, await withCookie(b, secret, 'GET', CIS), 401, 'auth.token_revoked');
  });
}

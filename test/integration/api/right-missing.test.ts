/**
 * Issue #37: a 403 for a missing platform right says what to ask for. Its detail names the right
 * and the roles that grant it, narrowest first (the least-privileged role before `admin`), and the
 * problem carries them as `right` and `roles`, whichever route refuses.
 */
import t, { type Test } from 'tap';
import { BUILT_IN_ROLES } from '../../../services/control-plane/identity/bootstrap.command.js';
import { PLATFORM_RIGHTS } from '../../../services/control-plane/identity/identity.types.js';
import type { Answer } from '../../support/http.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

const ADMIN_API = '/api/admin/v1';
const MAINT = '/api/public/sm/v1/rsm-maintenance';

let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform({ now: () => Date.parse('2026-11-21T10:00:00.000Z') });
});
t.teardown(() => p.stop());

async function must(answer: Promise<Answer>, status: number): Promise<any> {
  const a = await answer;
  if (a.status !== status) throw new Error(`expected ${status}, got ${a.status} ${a.text}`);
  return a.body;
}

async function userToken(name: string, roles: string[] = []): Promise<{ id: number; token: string }> {
  const user = await must(p.api('POST', `${ADMIN_API}/users`, { json: { name, roles } }), 201);
  return { id: user.id, token: (await must(p.api('POST', `${ADMIN_API}/users/${user.id}/tokens`, { json: {} }), 201)).token };
}

/** A 403 auth.right_missing naming `right` and exactly `roles`, in that order, in its detail and members. */
function namesRoles(t: Test, answer: Answer, right: string, roles: string[]): void {
  t.equal(answer.status, 403, answer.text);
  t.equal(answer.body.code, 'auth.right_missing');
  t.equal(answer.body.right, right);
  t.same(answer.body.roles, roles);
  const named = roles.length === 1 ? roles[0] : `${roles.slice(0, -1).join(', ')} or ${roles.at(-1)}`;
  t.equal(answer.body.detail, `This needs the platform right ${right}, which comes with the role ${named}; ask an administrator for it`);
}

t.test('a 403 names the roles that carry the missing right, narrowest first, in its detail and as right and roles', async (t) => {
  const nobody = await userToken('right-missing-nobody');
  namesRoles(t, await p.api('GET', '/api/public/sm/v1/sla/templates', { token: nobody.token }), 'base-system.sla.read', ['sla-reader', 'admin']);
  namesRoles(t, await p.api('POST', MAINT, { json: {}, token: nobody.token }), 'base-system.rsm-maintenance.write', ['maintenance-writer', 'admin']);
  namesRoles(t, await p.api('GET', `${ADMIN_API}/users`, { token: nobody.token }), 'base-system.admin', ['admin']);
});

t.test('a 403 names a role made by an administrator when it grants the right', async (t) => {
  await must(p.api('PUT', `${ADMIN_API}/roles/auditor`, { json: { description: 'reads SLAs', rights: ['base-system.sla.read'] } }), 201);
  await must(p.api('PUT', `${ADMIN_API}/roles/sla-and-streams`, { json: { rights: ['base-system.sla.read', 'base-system.streams.read'] } }), 201);
  const nobody = await userToken('right-missing-custom');
  namesRoles(t, await p.api('GET', '/api/public/sm/v1/sla/templates', { token: nobody.token }), 'base-system.sla.read', ['auditor', 'sla-reader', 'sla-and-streams', 'admin']);
});

t.test('where base-system.admin also lets the request through, a 403 names the roles of either', async (t) => {
  const slaReader = await userToken('right-missing-sla', ['sla-reader']);
  namesRoles(t, await p.api('GET', `${ADMIN_API}/notifications/receivers`, { token: slaReader.token }), 'base-system.notifications.write', ['notifications-writer', 'admin']);
  namesRoles(t, await p.api('GET', '/api/public/cl/v1/streams/1/events', { token: slaReader.token }), 'base-system.streams.read', ['stream-reader', 'sla-and-streams', 'admin']);
});

t.test('a calendar feed whose owner lost the right: the 403 names the roles as well', async (t) => {
  const owner = await userToken('right-missing-feed', ['maintenance-reader']);
  const feed = await must(p.api('POST', `${MAINT}/calendar-feeds`, { json: {}, token: owner.token }), 201);
  await must(p.api('PATCH', `${ADMIN_API}/users/${owner.id}`, { json: { roles: [] } }), 200);
  namesRoles(t, await p.api('GET', `${MAINT}/calendar.ics?feedToken=${encodeURIComponent(feed.token)}`, { token: null }), 'base-system.rsm-maintenance.read', [
    'maintenance-reader',
    'maintenance-writer',
    'admin',
  ]);
});

t.test('every platform right comes with a built-in role (which cannot be changed or deleted), so a 403 always names one', async (t) => {
  for (const right of PLATFORM_RIGHTS)
    t.ok(
      BUILT_IN_ROLES.some((role) => role.rights.includes(right)),
      right,
    );
});

/**
 * Issue: identity, rights and the admin surface — authentication over HTTP (spec 5), the admin
 * API for users, workgroups, tokens and roles, and secrets kept out of the logs.
 */
import t from 'tap';
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from '../../support/platform.js';

let clock = Date.parse('2026-11-21T10:00:00.000Z');
let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform({ now: () => clock });
});
t.teardown(() => p.stop());

const CI_TYPES = '/api/public/sm/v2/rsm/config-item-types';

async function userWithToken(name: string, roles: string[] = [], workGroupIds: number[] = []): Promise<{ id: number; token: string; tokenId: number }> {
  const user = await p.api('POST', '/api/admin/v1/users', { json: { name, roles, workGroupIds } });
  t.equal(user.status, 201, `user ${name} created`);
  const issued = await p.api('POST', `/api/admin/v1/users/${user.body.id}/tokens`, { json: { name: 'laptop' } });
  t.equal(issued.status, 201);
  return { id: user.body.id, token: issued.body.token, tokenId: issued.body.id };
}

t.test('the bootstrap admin holds OPS_ADMIN_TOKEN and every platform right', async (t) => {
  const me = await p.api('GET', '/api/admin/v1/me');
  t.equal(me.status, 200);
  t.equal(me.body.user.name, 'admin');
  t.same(me.body.user.rights, [
    'base-system.admin',
    'base-system.notifications.write',
    'base-system.rsm-maintenance.read',
    'base-system.rsm-maintenance.write',
    'base-system.sla.read',
    'base-system.streams.read',
  ]);
  t.equal(me.body.token.sha256, undefined, 'the digest is never shown');
});

t.test('401: missing Authorization header', async (t) => {
  const answer = await p.api('GET', CI_TYPES, { token: null });
  t.equal(answer.status, 401);
  t.equal(answer.headers.get('content-type'), 'application/problem+json');
  t.match(answer.body.detail, /missing/);
});

t.test('401: malformed Authorization header', async (t) => {
  for (const value of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer two words', ADMIN_TOKEN]) {
    const answer = await p.api('GET', CI_TYPES, { token: null, headers: { authorization: value } });
    t.equal(answer.status, 401, value.slice(0, 12));
  }
});

t.test('401: unknown token', async (t) => {
  const answer = await p.api('GET', CI_TYPES, { token: `ops_${'x'.repeat(43)}` });
  t.equal(answer.status, 401);
  t.match(answer.body.detail, /not known/);
});

t.test('401: expired token', async (t) => {
  const user = await p.api('POST', '/api/admin/v1/users', { json: { name: 'expiring' } });
  const issued = await p.api('POST', `/api/admin/v1/users/${user.body.id}/tokens`, { json: { expiresAt: new Date(clock + 60_000).toISOString() } });
  t.equal(issued.status, 201);
  t.equal((await p.api('GET', CI_TYPES, { token: issued.body.token })).status, 200);
  clock += 60_000;
  const answer = await p.api('GET', CI_TYPES, { token: issued.body.token });
  t.equal(answer.status, 401);
  t.match(answer.body.detail, /expired/);
});

t.test('a token cannot be issued already expired', async (t) => {
  const answer = await p.api('POST', '/api/admin/v1/users/1/tokens', { json: { expiresAt: new Date(clock - 1000).toISOString() } });
  t.equal(answer.status, 400);
  t.equal(answer.body.errors[0].path, '/expiresAt');
});

t.test('401: revoked token', async (t) => {
  const u = await userWithToken('revoked-user');
  t.equal((await p.api('GET', CI_TYPES, { token: u.token })).status, 200);
  const revoked = await p.api('DELETE', `/api/admin/v1/users/${u.id}/tokens/${u.tokenId}`);
  t.equal(revoked.status, 200);
  t.type(revoked.body.revokedAt, 'string');
  const answer = await p.api('GET', CI_TYPES, { token: u.token });
  t.equal(answer.status, 401);
  t.match(answer.body.detail, /revoked/);
});

t.test('401: token of a disabled or deleted user', async (t) => {
  const u = await userWithToken('leaver');
  t.equal((await p.api('PATCH', `/api/admin/v1/users/${u.id}`, { json: { disabled: true } })).status, 200);
  t.equal((await p.api('GET', CI_TYPES, { token: u.token })).status, 401);
  t.equal((await p.api('PATCH', `/api/admin/v1/users/${u.id}`, { json: { disabled: false } })).status, 200);
  t.equal((await p.api('GET', CI_TYPES, { token: u.token })).status, 200);
  t.equal((await p.api('DELETE', `/api/admin/v1/users/${u.id}`)).status, 204);
  t.equal((await p.api('GET', CI_TYPES, { token: u.token })).status, 401);
});

t.test('a token list never shows secrets', async (t) => {
  const u = await userWithToken('lister');
  const list = await p.api('GET', `/api/admin/v1/users/${u.id}/tokens`);
  t.equal(list.status, 200);
  t.equal(list.body.length, 1);
  t.notMatch(list.text, u.token);
  t.equal(list.body[0].sha256, undefined);
  t.equal(list.body[0].token, undefined);
});

t.test('403: the admin API needs base-system.admin', async (t) => {
  const u = await userWithToken('plain-user');
  const answer = await p.api('GET', '/api/admin/v1/users', { token: u.token });
  t.equal(answer.status, 403);
  t.match(answer.body.detail, /base-system\.admin/);
  t.equal((await p.api('GET', '/api/admin/v1/me', { token: u.token })).status, 200, 'me is open to every user');
});

t.test('a role grants its platform rights; built-in roles cannot change', async (t) => {
  const role = await p.api('PUT', '/api/admin/v1/roles/auditor', { json: { description: 'reads SLA', rights: ['base-system.sla.read'] } });
  t.equal(role.status, 201);
  const u = await userWithToken('auditor-user', ['auditor']);
  const me = await p.api('GET', '/api/admin/v1/me', { token: u.token });
  t.same(me.body.user.rights, ['base-system.sla.read']);
  t.equal((await p.api('PUT', '/api/admin/v1/roles/admin', { json: { rights: [] } })).status, 400);
  t.equal((await p.api('DELETE', '/api/admin/v1/roles/auditor')).status, 409, 'a role in use cannot go');
  t.equal((await p.api('POST', '/api/admin/v1/users', { json: { name: 'x', roles: ['nope'] } })).status, 400);
});

t.test('workgroups: create, members, rename, duplicate names refused, public list #3', async (t) => {
  const wg = await p.api('POST', '/api/admin/v1/work-groups', { json: { name: 'Network' } });
  t.equal(wg.status, 201);
  t.equal((await p.api('POST', '/api/admin/v1/work-groups', { json: { name: 'Network' } })).status, 409);
  const u = await userWithToken('net-engineer');
  const added = await p.api('PUT', `/api/admin/v1/work-groups/${wg.body.id}/members/${u.id}`);
  t.same(added.body.memberIds, [u.id]);
  const me = await p.api('GET', '/api/admin/v1/me', { token: u.token });
  t.same(me.body.user.workGroupIds, [wg.body.id]);
  t.equal((await p.api('PATCH', `/api/admin/v1/work-groups/${wg.body.id}`, { json: { name: 'Networks' } })).status, 200);
  const list = await p.api('GET', '/api/public/sm/v2/rsm/work-groups', { token: u.token });
  t.equal(list.status, 200);
  t.same(
    list.body.find((g: { id: number }) => g.id === wg.body.id),
    { id: wg.body.id, name: 'Networks' },
  );
  const removed = await p.api('DELETE', `/api/admin/v1/work-groups/${wg.body.id}/members/${u.id}`);
  t.same(removed.body.memberIds, []);
  t.equal((await p.api('GET', '/api/admin/v1/work-groups/abc')).status, 400);
  t.equal((await p.api('GET', '/api/admin/v1/work-groups/999999')).status, 404);
});

t.test('public #1 and #2 list CI types and CMDB systems', async (t) => {
  const type = await p.api('POST', '/api/admin/v1/config-item-types', { json: { name: 'Server', description: 'A host' } });
  t.equal(type.status, 201);
  const system = await p.api('POST', '/api/admin/v1/cmdb-systems', { json: { name: 'External CMDB' } });
  t.equal(system.status, 201);
  const types = await p.api('GET', CI_TYPES);
  t.same(
    types.body.map((x: { name: string }) => x.name),
    ['Default', 'Server'],
  );
  t.same(Object.keys(types.body[1]).sort(), ['description', 'id', 'name']);
  const systems = await p.api('GET', '/api/public/sm/v2/rsm/cmdb-systems');
  t.same(systems.body, [{ id: system.body.id, name: 'External CMDB' }]);
});

t.test('streams: created with a key, rotated, status changes, config checked', async (t) => {
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'syslog', config: { parser: { type: 'text', pattern: '(?<host>\\S+) (?<msg>.*)' } } } });
  t.equal(created.status, 201);
  t.equal(created.body.status, 'active');
  t.ok(created.body.key.length >= 32);
  const rotated = await p.api('POST', `/api/admin/v1/streams/${created.body.id}/rotate-key`);
  t.not(rotated.body.key, created.body.key);
  t.equal((await p.api('POST', `/api/admin/v1/streams/${created.body.id}/deactivate`)).body.status, 'inactive');
  t.equal((await p.api('POST', `/api/admin/v1/streams/${created.body.id}/mark-for-deletion`)).body.status, 'pendingDeletion');
  t.equal((await p.api('POST', `/api/admin/v1/streams/${created.body.id}/activate`)).status, 409);
  t.equal((await p.api('DELETE', `/api/admin/v1/streams/${created.body.id}`)).status, 204);
  t.equal((await p.api('GET', `/api/admin/v1/streams/${created.body.id}`)).status, 404);
  const badRegex = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'bad', config: { parser: { type: 'text', pattern: '(unclosed' } } } });
  t.equal(badRegex.status, 400);
  t.equal(badRegex.body.errors[0].path, '/config/parser/pattern');
});

t.test('secrets never appear in the logs', async (t) => {
  const u = await userWithToken('logged-user');
  const stream = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'secret-stream' } });
  await p.api('GET', CI_TYPES, { token: u.token });
  await p.api('GET', CI_TYPES, { token: 'ops_unknown_secret_value_123456' });
  await p.api('GET', `/api/public/cl/v1/stream-data?streamKey=${stream.body.key}`, { token: null });
  const logs = p.logs.join('');
  t.ok(logs.includes('"route"'), 'requests were logged');
  for (const secret of [ADMIN_TOKEN, u.token, 'ops_unknown_secret_value_123456', stream.body.key]) t.notOk(logs.includes(secret), 'secret absent from the log');
});

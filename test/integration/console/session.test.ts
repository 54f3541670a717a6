/**
 * Issue #32, the console's session endpoint (DESIGN §11): a personal token exchanged for an
 * HttpOnly cookie; the cookie taken by every /api route as an alternative to the Bearer header,
 * with the CSRF proof on changes; idle and absolute expiry by the injected clock; sign-out; and
 * the session ending with its token or user. Embedded engines (LMDB); session-replicas.test.ts
 * runs a session across two API processes on Redis.
 */
import { rmSync } from 'node:fs';
import t from 'tap';
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { CIS, cookieSecret, refused, SESSION, signIn, userWithToken, withCookie } from './console-kit.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
let clock = T0;
let p: TestPlatform;
let group = 0;
let alice: { id: number; token: string; tokenId: number };

t.before(async () => {
  p = await startTestPlatform({ now: () => clock, parts: ['api', 'ingress'] });
  group = (await p.api('POST', '/api/admin/v1/work-groups', { json: { name: 'Console' } })).body.id;
  alice = await userWithToken(p, 'alice', { roles: ['maintenance-writer'], workGroupIds: [group] });
});
t.teardown(async () => {
  const dataDir = p.dataDir;
  await p.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const iso = (ms: number): string => new Date(ms).toISOString();

t.test('signing in answers the session and sets an HttpOnly, SameSite=Strict cookie', async (t) => {
  clock = T0;
  const { answer, secret } = await signIn(p, alice.token);
  t.equal(answer.status, 201);
  t.match(secret, /^[A-Za-z0-9_-]{43}$/, 'a random secret');
  t.equal(answer.headers.get('set-cookie'), `ops_session=${secret}; HttpOnly; SameSite=Strict; Path=/`, 'exactly these attributes; not Secure over plain HTTP');
  t.equal(answer.headers.get('cache-control'), 'no-store');
  t.same(answer.body, {
    user: { id: alice.id, name: 'alice' },
    rights: ['base-system.rsm-maintenance.read', 'base-system.rsm-maintenance.write'],
    csrfToken: answer.body.csrfToken,
    idleExpiresAt: iso(T0 + 30 * MINUTE),
    expiresAt: iso(T0 + 12 * HOUR),
  });
  t.match(answer.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
  t.notOk(answer.text.includes(secret), 'the secret is only in the cookie');
  t.notOk(p.logs.join('').includes(secret) || p.logs.join('').includes(alice.token), 'neither the token nor the secret is logged');

  const again = await signIn(p, alice.token);
  t.not(again.secret, secret, 'each sign-in is a new session');
  t.not(again.csrf, answer.body.csrfToken);

  const proxied = await signIn(p, alice.token, { 'x-forwarded-proto': 'https' });
  t.equal(
    proxied.answer.headers.get('set-cookie'),
    `ops_session=${proxied.secret}; HttpOnly; SameSite=Strict; Path=/; Secure`,
    'Secure behind an HTTPS proxy (OPS_COOKIE_SECURE=auto)',
  );
});

t.test('a token that is unknown, revoked or expired, or whose user is disabled, gets 401 with the auth codes and no cookie', async (t) => {
  clock = T0;
  const revoked = await userWithToken(p, 'revoked-holder');
  await p.api('DELETE', `/api/admin/v1/users/${revoked.id}/tokens/${revoked.tokenId}`);
  const expiring = await userWithToken(p, 'expired-holder', { expiresAt: iso(T0 + MINUTE) });
  const disabled = await userWithToken(p, 'disabled-holder');
  await p.api('PATCH', `/api/admin/v1/users/${disabled.id}`, { json: { disabled: true } });
  clock = T0 + 2 * MINUTE;
  const cases: Array<[string, string]> = [
    ['ops_not_a_token_anyone_was_given_0123456789ab', 'auth.token_unknown'],
    [revoked.token, 'auth.token_revoked'],
    [expiring.token, 'auth.token_expired'],
    [disabled.token, 'auth.user_disabled'],
  ];
  for (const [token, code] of cases) {
    const answer = await p.api('POST', SESSION, { token: null, json: { token } });
    refused(t, answer, 401, code);
    t.equal(answer.headers.get('set-cookie'), null, `${code}: no cookie`);
  }
  refused(t, await p.api('POST', SESSION, { token: null, json: {} }), 400, 'http.body_invalid', 'no token');
  refused(t, await p.api('POST', SESSION, { token: null, json: { token: '' } }), 400, 'http.body_invalid', 'an empty token');
});

t.test('GET session answers the session the cookie stands for; without one it is 401', async (t) => {
  clock = T0;
  const { secret, answer } = await signIn(p, alice.token);
  const read = await withCookie(p, secret, 'GET', SESSION);
  t.equal(read.status, 200);
  t.same(read.body, answer.body, 'the same body as at sign-in');
  t.equal(read.headers.get('cache-control'), 'no-store');
  refused(t, await p.api('GET', SESSION, { token: null }), 401, 'session.none', 'no cookie');
  refused(t, await p.api('GET', SESSION, { token: null, headers: { cookie: 'ops_session=forged' } }), 401, 'session.none', 'a malformed cookie');
  refused(t, await p.api('GET', SESSION, { token: null, headers: { cookie: `ops_session=${'A'.repeat(43)}` } }), 401, 'session.none', 'a cookie naming no session');
  refused(t, await p.api('GET', SESSION, { token: ADMIN_TOKEN }), 401, 'session.none', 'a Bearer token is not a session');
});

t.test('the cookie is taken by the public and admin API: reads without CSRF proof, changes with it', async (t) => {
  clock = T0;
  const { secret, csrf } = await signIn(p, alice.token);
  const list = await withCookie(p, secret, 'GET', CIS);
  t.equal(list.status, 200, 'a public read');
  const me = await withCookie(p, secret, 'GET', '/api/admin/v1/me');
  t.equal(me.status, 200);
  t.equal(me.body.user.name, 'alice', 'the session stands for its user');
  t.equal(me.body.token.id, alice.tokenId, 'and for its token');
  refused(t, await withCookie(p, secret, 'GET', '/api/admin/v1/users'), 403, 'auth.right_missing', "the user's rights, no more");

  const body = (name: string) => ({ name, ownerWorkGroup: { id: group } });
  refused(t, await withCookie(p, secret, 'POST', CIS, { json: body('no-proof') }), 403, 'session.csrf_missing');
  refused(t, await withCookie(p, secret, 'POST', CIS, { json: body('wrong-proof'), csrf: `${csrf.slice(0, -1)}x` }), 403, 'session.csrf_mismatch');
  refused(t, await withCookie(p, secret, 'POST', CIS, { json: body('short-proof'), csrf: 'x' }), 403, 'session.csrf_mismatch', 'a proof of another length');
  const other = await signIn(p, alice.token);
  refused(t, await withCookie(p, secret, 'POST', CIS, { json: body('other-proof'), csrf: other.csrf }), 403, 'session.csrf_mismatch', "another session's proof");
  const created = await withCookie(p, secret, 'POST', CIS, { json: body('with-proof'), csrf });
  t.equal(created.status, 201, 'the right proof: the change is made');
  const names = (await p.api('POST', `${CIS}/filter`, { json: { names: ['no-proof', 'wrong-proof', 'short-proof', 'other-proof', 'with-proof'] } })).body.map(
    (ci: { name: string }) => ci.name,
  );
  t.same(names, ['with-proof'], 'the refused changes made nothing');
  const changed = await withCookie(p, secret, 'PUT', `${CIS}/${created.body.id}`, { json: { name: 'renamed', ownerWorkGroup: { id: group } }, csrf });
  t.equal(changed.status, 200, 'PUT with the proof');
  refused(t, await withCookie(p, secret, 'DELETE', `${CIS}/${created.body.id}`), 403, 'session.csrf_missing', 'DELETE without it');
  t.equal((await withCookie(p, secret, 'DELETE', `${CIS}/${created.body.id}`, { csrf })).status, 204, 'DELETE with it');
});

t.test('a Bearer header wins over the cookie and needs no CSRF proof', async (t) => {
  clock = T0;
  const { secret } = await signIn(p, alice.token);
  const both = await p.api('GET', '/api/admin/v1/me', { headers: { cookie: `ops_session=${secret}` } });
  t.equal(both.body.user.name, 'admin', 'the Bearer caller, not the session');
  refused(
    t,
    await p.api('GET', '/api/admin/v1/me', { token: 'ops_unknown_token_value_000000000000', headers: { cookie: `ops_session=${secret}` } }),
    401,
    'auth.token_unknown',
    'a bad Bearer token is not saved by a good cookie',
  );
  const bearer = await p.api('POST', CIS, { token: alice.token, json: { name: 'by-bearer', ownerWorkGroup: { id: group } } });
  t.equal(bearer.status, 201, 'Bearer: a change without X-CSRF-Token');
});

t.test('the stream receivers keep their stream keys: a cookie neither opens nor blocks them', async (t) => {
  clock = T0;
  const { secret } = await signIn(p, ADMIN_TOKEN);
  const answer = await withCookie(p, secret, 'POST', '/api/public/cl/v1/stream-data', { json: { host: 'a' } });
  refused(t, answer, 422, 'ingest.key_missing', 'no stream key: 422 as ever, not a CSRF refusal');
});

t.test('a session ends after OPS_SESSION_IDLE_MINUTES without use; a use moves the deadline, writing it at most once a minute', async (t) => {
  clock = T0;
  const { secret } = await signIn(p, alice.token);
  clock = T0 + 30 * 1000;
  const soon = await withCookie(p, secret, 'GET', SESSION);
  t.equal(soon.body.idleExpiresAt, iso(T0 + 30 * MINUTE), 'a use within the minute does not move it');
  clock = T0 + 29 * MINUTE;
  t.equal((await withCookie(p, secret, 'GET', CIS)).status, 200, 'used after 29 minutes');
  t.equal((await withCookie(p, secret, 'GET', SESSION)).body.idleExpiresAt, iso(T0 + 59 * MINUTE), 'the deadline moved to 30 minutes after that use');
  clock = T0 + 58 * MINUTE;
  t.equal((await withCookie(p, secret, 'GET', CIS)).status, 200, '58 minutes after sign-in, 29 after the last use');
  clock = T0 + 88 * MINUTE - 1;
  t.equal((await withCookie(p, secret, 'GET', CIS)).status, 200, 'a moment before the deadline');
  clock = T0 + 118 * MINUTE;
  const late = await withCookie(p, secret, 'GET', CIS);
  refused(t, late, 401, 'session.idle_expired');
  t.match(late.body.detail, /after 30 minutes without use/);
  refused(t, await withCookie(p, secret, 'GET', SESSION), 401, 'session.idle_expired', 'the session endpoint says so too');
});

t.test('a session ends OPS_SESSION_MAX_HOURS after sign-in however much it is used, and at its token’s expiry if sooner', async (t) => {
  clock = T0;
  const { secret } = await signIn(p, alice.token);
  for (clock = T0 + 20 * MINUTE; clock < T0 + 12 * HOUR; clock += 20 * MINUTE) {
    const answer = await withCookie(p, secret, 'GET', CIS);
    if (answer.status !== 200) t.fail(`refused at ${iso(clock)}: ${answer.text}`);
  }
  clock = T0 + 12 * HOUR - 1;
  t.equal((await withCookie(p, secret, 'GET', CIS)).status, 200, 'used to the last moment');
  clock = T0 + 12 * HOUR;
  const ended = await withCookie(p, secret, 'GET', CIS);
  refused(t, ended, 401, 'session.expired');
  t.match(ended.body.detail, new RegExp(iso(T0 + 12 * HOUR).replace(/\./g, '\\.')));

  clock = T0;
  const shortLived = await userWithToken(p, 'short-lived', { expiresAt: iso(T0 + 2 * HOUR) });
  const session = await signIn(p, shortLived.token);
  t.equal(session.answer.body.expiresAt, iso(T0 + 2 * HOUR), "the token's expiry bounds the session");
  for (clock = T0 + 20 * MINUTE; clock < T0 + 2 * HOUR; clock += 20 * MINUTE) t.equal((await withCookie(p, session.secret, 'GET', CIS)).status, 200, `used at ${iso(clock)}`);
  clock = T0 + 2 * HOUR;
  refused(t, await withCookie(p, session.secret, 'GET', CIS), 401, 'session.expired');
});

t.test('signing out needs the CSRF proof, ends the session and clears the cookie', async (t) => {
  clock = T0;
  const { secret, csrf } = await signIn(p, alice.token);
  const kept = await signIn(p, alice.token);
  refused(t, await withCookie(p, secret, 'DELETE', SESSION), 403, 'session.csrf_missing');
  refused(t, await withCookie(p, secret, 'DELETE', SESSION, { csrf: kept.csrf }), 403, 'session.csrf_mismatch');
  t.equal((await withCookie(p, secret, 'GET', CIS)).status, 200, 'a refused sign-out leaves the session');
  const out = await withCookie(p, secret, 'DELETE', SESSION, { csrf });
  t.equal(out.status, 204);
  t.equal(out.headers.get('set-cookie'), 'ops_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
  t.equal(cookieSecret(out), '', 'the cookie is emptied');
  refused(t, await withCookie(p, secret, 'GET', CIS), 401, 'session.none', 'the old cookie on the API');
  refused(t, await withCookie(p, secret, 'GET', SESSION), 401, 'session.none', 'the old cookie on the session endpoint');
  refused(t, await withCookie(p, secret, 'DELETE', SESSION, { csrf }), 401, 'session.none', 'signing out twice');
  t.equal((await withCookie(p, kept.secret, 'GET', CIS)).status, 200, "the user's other session goes on");
  t.equal((await p.api('GET', CIS, { token: alice.token })).status, 200, 'and the token too');
});

t.test('revoking the token or disabling the user ends its sessions at once', async (t) => {
  clock = T0;
  const bob = await userWithToken(p, 'bob', { workGroupIds: [group] });
  const first = await signIn(p, bob.token);
  t.equal((await withCookie(p, first.secret, 'GET', CIS)).status, 200);
  await p.api('DELETE', `/api/admin/v1/users/${bob.id}/tokens/${bob.tokenId}`);
  refused(t, await withCookie(p, first.secret, 'GET', CIS), 401, 'auth.token_revoked');
  refused(t, await withCookie(p, first.secret, 'GET', SESSION), 401, 'auth.token_revoked', 'on the session endpoint too');

  const carol = await userWithToken(p, 'carol', { workGroupIds: [group] });
  const second = await signIn(p, carol.token);
  await p.api('PATCH', `/api/admin/v1/users/${carol.id}`, { json: { disabled: true } });
  refused(t, await withCookie(p, second.secret, 'GET', CIS), 401, 'auth.user_disabled');
  await p.api('PATCH', `/api/admin/v1/users/${carol.id}`, { json: { disabled: false } });
  t.equal((await withCookie(p, second.secret, 'GET', CIS)).status, 200, 'enabled again: the session, still within its time, works again');
  await p.api('DELETE', `/api/admin/v1/users/${carol.id}`);
  refused(t, await withCookie(p, second.secret, 'GET', CIS), 401, 'auth.user_disabled', 'a deleted user');
});

t.test('a session outlives a restart of the process (embedded: LMDB in the data directory)', async (t) => {
  clock = T0;
  const { secret, answer } = await signIn(p, alice.token);
  const dataDir = p.dataDir;
  await p.stop(false);
  p = await startTestPlatform({ now: () => clock, parts: ['api', 'ingress'], dataDir });
  const read = await withCookie(p, secret, 'GET', SESSION);
  t.equal(read.status, 200);
  t.same(read.body, answer.body);
});

/**
 * Notification receivers (issue #31, docs/notifications.md "Model"): the admin CRUD with one test
 * per rule and per error code — secrets write-only (never answered, never logged), URLs redacted,
 * each 400 naming its field, the outbound address rules at save naming the refused rule, the
 * workgroup ownership and the notifications-writer role — and the delivery log with its replay.
 */
import t from 'tap';
import { fails, HOSTS, NotificationsKit, POLICIES, RECEIVERS, type User, whsec } from './notifications-kit.js';

const k = new NotificationsKit();
let wgA: number;
let wgB: number;
let writerA: User;
let writerB: User;
let plainA: User;
t.before(async () => {
  await k.startWithDns();
  wgA = (await k.workGroup(k.uniq('notify-a'))).id;
  wgB = (await k.workGroup(k.uniq('notify-b'))).id;
  writerA = await k.member(['notifications-writer'], [wgA]);
  writerB = await k.member(['notifications-writer'], [wgB]);
  plainA = await k.member([], [wgA]);
});
t.teardown(() => k.stop());

const SECRET = whsec(7);
const webhook = (extra: Record<string, unknown> = {}) => ({
  type: 'webhook',
  name: k.uniq('hook'),
  ownerWorkGroup: { id: wgA },
  url: 'https://hooks.example.com/ops/in?token=tok-9f8e7d&team=core',
  secrets: [SECRET],
  ...extra,
});

t.test('create a webhook receiver: 201, the defaults filled in, the secrets shown only as a count', async (t) => {
  const at = k.tick();
  const answer = await k.api('POST', RECEIVERS, { json: webhook({ name: 'bridge' }) });
  t.equal(answer.status, 201);
  t.same(answer.body, {
    id: answer.body.id,
    name: 'bridge',
    ownerWorkGroup: { id: wgA },
    enabled: true,
    disabledReason: null,
    rateLimitPerSecond: 10,
    maxAgeHours: 24,
    createdAt: at,
    updatedAt: at,
    type: 'webhook',
    url: 'https://hooks.example.com/ops/in?token=***&team=***',
    secretsCount: 1,
  });
  t.same((await k.api('GET', `${RECEIVERS}/${answer.body.id}`)).body, answer.body, 'read back the same');
});

t.test('write-only secrets are never returned: not by create, read, list or PATCH, of any type', async (t) => {
  const secrets = [whsec(11), whsec(12, 32)];
  const hidden = ['tok-9f8e7d', 'alice', 'pa55word', 'R0UT1NGKEY0123456789', 'T0AAA', 'XXXXsecretpath', 'sig-0a1b2c', 'hunter2', ...secrets];
  const made = [
    await k.make(RECEIVERS, webhook({ secrets, url: 'https://alice:pa55word@hooks.example.com/in?token=tok-9f8e7d' })),
    await k.make(RECEIVERS, { type: 'slack', name: k.uniq('slack'), ownerWorkGroup: { id: wgA }, url: 'https://hooks.slack.com/services/T0AAA/B0BBB/XXXXsecretpath' }),
    await k.make(RECEIVERS, {
      type: 'teams',
      name: k.uniq('teams'),
      ownerWorkGroup: { id: wgA },
      url: 'https://prod-00.westeurope.logic.azure.com/workflows/1/triggers/manual/paths/invoke?api-version=2016-06-01&sig=sig-0a1b2c',
    }),
    await k.make(RECEIVERS, { type: 'pagerduty', name: k.uniq('pd'), ownerWorkGroup: { id: wgA }, routingKey: 'R0UT1NGKEY0123456789' }),
    await k.make(RECEIVERS, { type: 'alertmanager', name: k.uniq('am'), ownerWorkGroup: { id: wgA }, url: 'https://alice:pa55word@am.example.com/' }),
    await k.make(RECEIVERS, {
      type: 'email',
      name: k.uniq('mail'),
      ownerWorkGroup: { id: wgA },
      smtp: { host: 'smtp.example.com', port: 587, secure: false, user: 'ops', password: 'hunter2' },
      from: 'ops@example.com',
      to: ['oncall@example.com'],
    }),
  ];
  const patched = await k.api('PATCH', `${RECEIVERS}/${made[0].id}`, { json: { secrets: [whsec(13)], url: 'https://alice:pa55word@hooks.example.com/x?token=tok-9f8e7d' } });
  t.equal(patched.status, 200);
  const answers = [...made, patched.body, (await k.api('GET', RECEIVERS)).body, ...(await Promise.all(made.map(async (r) => (await k.api('GET', `${RECEIVERS}/${r.id}`)).body)))];
  const text = JSON.stringify(answers);
  for (const secret of [...hidden, whsec(13)]) t.notOk(text.includes(secret), `${secret.slice(0, 12)}… never in an answer`);
  for (const field of ['secrets', 'routingKey', 'password']) t.notOk(text.includes(`"${field}"`), `no ${field} field`);
  t.same(
    made.map((r) => ('secretsCount' in r ? r.secretsCount : 'hasRoutingKey' in r ? r.hasRoutingKey : (r.smtp?.hasPassword ?? '-'))),
    [2, '-', '-', true, '-', true],
    'only that they are set',
  );
  t.equal(patched.body.secretsCount, 1, 'secrets replaced whole');
});

t.test('redaction: user info, query values and fragments as ***, a Slack path after its first segment', async (t) => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [webhook({ url: 'https://u:p@hooks.example.com/a/b?x=1&y=2#frag' }), 'https://***:***@hooks.example.com/a/b?x=***&y=***#***'],
    [webhook({ url: 'https://hooks.example.com/plain' }), 'https://hooks.example.com/plain'],
    [{ type: 'slack', name: k.uniq('slack'), ownerWorkGroup: { id: wgA }, url: 'https://hooks.slack.com/services/T1/B2/abc' }, 'https://hooks.slack.com/services/***'],
    [{ type: 'pagerduty', name: k.uniq('pd'), ownerWorkGroup: { id: wgA }, routingKey: 'abc' }, 'https://events.pagerduty.com/v2/enqueue'],
    [{ type: 'alertmanager', name: k.uniq('am'), ownerWorkGroup: { id: wgA }, url: 'http://token@am.example.com:9093/' }, 'http://***@am.example.com:9093/'],
  ];
  for (const [body, shown] of cases) t.equal((await k.make(RECEIVERS, body)).url, shown, shown);
});

t.test('secrets are never logged: not the bodies, not the URLs with their credentials', async (t) => {
  const secret = whsec(21);
  const made = await k.make(RECEIVERS, webhook({ secrets: [secret], url: 'https://carol:l0gged-not@hooks.example.com/in?token=never-logged' }));
  await k.api('PATCH', `${RECEIVERS}/${made.id}`, { json: { secrets: ['whsec_short'] } });
  await k.api('POST', RECEIVERS, { json: webhook({ secrets: [secret], url: 'https://internal.example.com/?token=never-logged' }) });
  const logs = k.p.logs.join('');
  t.match(logs, /"route":"admin.createNotificationReceiver"/, 'the requests were logged');
  for (const text of [secret, 'l0gged-not', 'never-logged', 'whsec_short']) t.notOk(logs.includes(text), `${text.slice(0, 12)}… not in the log`);
});

t.test('each type: its own fields and defaults (slack 1 message/s, PagerDuty endpoint, Alertmanager resend 60 s)', async (t) => {
  const slack = await k.make(RECEIVERS, { type: 'slack', name: k.uniq('slack'), ownerWorkGroup: { id: wgA }, url: 'https://hooks.slack.com/services/T1/B2/c' });
  t.equal(slack.rateLimitPerSecond, 1, 'slack: 1 message/s');
  const pd = await k.make(RECEIVERS, { type: 'pagerduty', name: k.uniq('pd'), ownerWorkGroup: { id: wgA }, routingKey: 'key1', rateLimitPerSecond: 2.5, maxAgeHours: 6 });
  t.match(pd, { url: 'https://events.pagerduty.com/v2/enqueue', hasRoutingKey: true, rateLimitPerSecond: 2.5, maxAgeHours: 6 });
  const am = await k.make(RECEIVERS, { type: 'alertmanager', name: k.uniq('am'), ownerWorkGroup: { id: wgA }, url: 'https://am.example.com/' });
  t.equal(am.resendSeconds, 60);
  const mail = await k.make(RECEIVERS, {
    type: 'email',
    name: k.uniq('mail'),
    ownerWorkGroup: { id: wgA },
    smtp: { host: 'smtp.example.com', port: 465, secure: true },
    from: 'ops@example.com',
    to: ['a@example.com', 'b@example.com'],
    enabled: false,
  });
  t.same(mail.smtp, { host: 'smtp.example.com', port: 465, secure: true, user: null, hasPassword: false });
  t.same([mail.enabled, mail.disabledReason, mail.to], [false, null, ['a@example.com', 'b@example.com']]);
});

t.test('PATCH: changes what it names, keeps the write-only values it does not name, clears the SMTP password by null', async (t) => {
  const mail = await k.make(RECEIVERS, {
    type: 'email',
    name: k.uniq('mail'),
    ownerWorkGroup: { id: wgA },
    smtp: { host: 'smtp.example.com', port: 587, secure: false, user: 'ops', password: 'pw' },
    from: 'ops@example.com',
    to: ['a@example.com'],
  });
  const at = k.tick();
  const port = await k.api('PATCH', `${RECEIVERS}/${mail.id}`, { json: { smtp: { port: 2525 }, enabled: false } });
  t.equal(port.status, 200);
  t.match(port.body, {
    smtp: { host: 'smtp.example.com', port: 2525, user: 'ops', hasPassword: true },
    enabled: false,
    disabledReason: null,
    updatedAt: at,
    createdAt: mail.createdAt,
  });
  const cleared = await k.api('PATCH', `${RECEIVERS}/${mail.id}`, { json: { smtp: { user: null, password: null } } });
  t.same(cleared.body.smtp, { host: 'smtp.example.com', port: 2525, secure: false, user: null, hasPassword: false });
});

t.test('400 notification_receiver.invalid names each field: secrets, URLs, a field of another type', async (t) => {
  fails(t, await k.api('POST', RECEIVERS, { json: webhook({ secrets: [whsec(1, 8)] }) }), 400, 'notification_receiver.invalid', '/secrets/0', /not valid/);
  fails(t, await k.api('POST', RECEIVERS, { json: webhook({ secrets: [SECRET, SECRET] }) }), 400, 'notification_receiver.invalid', '/secrets/1');
  fails(t, await k.api('POST', RECEIVERS, { json: webhook({ url: 'ftp://hooks.example.com/x' }) }), 400, 'notification_receiver.invalid', '/url');
  const mail = { type: 'email', name: k.uniq('m'), ownerWorkGroup: { id: wgA }, smtp: { host: 'smtp.example.com', port: 25, secure: false, password: 'x' }, from: 'a@example.com' };
  fails(t, await k.api('POST', RECEIVERS, { json: { ...mail, to: ['b@example.com', 'B@example.com'] } }), 400, 'notification_receiver.invalid', '/to/1');
  fails(t, await k.api('POST', RECEIVERS, { json: { ...mail, to: ['b@example.com'] } }), 400, 'notification_receiver.invalid', '/smtp/user');
  fails(t, await k.api('POST', RECEIVERS, { json: webhook({ ownerWorkGroup: { id: 999_999 } }) }), 400, 'notification_receiver.invalid', '/ownerWorkGroup/id');
  const slack = await k.make(RECEIVERS, { type: 'slack', name: k.uniq('slack'), ownerWorkGroup: { id: wgA }, url: 'https://hooks.slack.com/services/T/B/c' });
  const foreign = await k.api('PATCH', `${RECEIVERS}/${slack.id}`, { json: { secrets: [SECRET], routingKey: 'k' } });
  fails(t, foreign, 400, 'notification_receiver.invalid', '/secrets');
  t.same(
    foreign.body.errors.map((e: { path: string }) => e.path),
    ['/secrets', '/routingKey'],
    'every foreign field, once',
  );
});

t.test('400 http.body_invalid: the schema names the field of the type meant, not the other types’', async (t) => {
  const missing = await k.api('POST', RECEIVERS, { json: { type: 'slack', name: 'x', ownerWorkGroup: { id: wgA } } });
  fails(t, missing, 400, 'http.body_invalid', '/url');
  t.same(missing.body.errors, [{ path: '/url', message: 'is required' }], 'only the Slack receiver’s own field');
  const noSecrets = await k.api('POST', RECEIVERS, { json: webhook({ secrets: [] }) });
  t.same(noSecrets.body.errors, [{ path: '/secrets', message: 'must not have fewer than 1 items' }]);
  const unknown = await k.api('POST', RECEIVERS, { json: { type: 'fax', name: 'x', ownerWorkGroup: { id: wgA } } });
  fails(t, unknown, 400, 'http.body_invalid', '/type');
  t.match(unknown.body.errors, [{ path: '/type', message: /must be one of "webhook", "slack", "teams", "pagerduty", "alertmanager", "email"/ }]);
  fails(t, await k.api('POST', RECEIVERS, { json: webhook({ secrets: ['not-a-secret'] }) }), 400, 'http.body_invalid', '/secrets/0');
});

t.test('400 notification_receiver.type_fixed: the type cannot change', async (t) => {
  const hook = await k.make(RECEIVERS, webhook());
  fails(t, await k.api('PATCH', `${RECEIVERS}/${hook.id}`, { json: { type: 'slack' } }), 400, 'notification_receiver.type_fixed', '/type');
  t.equal((await k.api('PATCH', `${RECEIVERS}/${hook.id}`, { json: { type: 'webhook', name: k.uniq('same-type') } })).status, 200, 'its own type is accepted');
});

t.test('400 notify.address_refused: a URL reaching a refused address names the rule and the field, at create and PATCH', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['https://internal.example.com/hook', '/url', /10\.0\.0\.5 of internal\.example\.com is refused by the private rule/],
    ['http://127.0.0.1:8080/hook', '/url', /refused by the loopback rule/],
    ['http://metadata.example.com/latest', '/url', /169\.254\.169\.254 .* refused by the cloud-metadata rule/],
    ['http://[::1]/hook', '/url', /refused by the loopback rule/],
  ];
  for (const [url, path, rule] of cases) fails(t, await k.api('POST', RECEIVERS, { json: webhook({ url }) }), 400, 'notify.address_refused', path, rule);
  const mail = { type: 'email', name: k.uniq('m'), ownerWorkGroup: { id: wgA }, smtp: { host: '10.1.2.3', port: 25, secure: false }, from: 'a@example.com', to: ['b@example.com'] };
  fails(t, await k.api('POST', RECEIVERS, { json: mail }), 400, 'notify.address_refused', '/smtp/host', /private rule/);
  const hook = await k.make(RECEIVERS, webhook());
  fails(t, await k.api('PATCH', `${RECEIVERS}/${hook.id}`, { json: { url: 'https://internal.example.com/x' } }), 400, 'notify.address_refused', '/url', /private rule/);
  t.equal((await k.api('GET', `${RECEIVERS}/${hook.id}`)).body.url, hook.url, 'unchanged');
  t.notOk(
    JSON.stringify(await k.api('POST', RECEIVERS, { json: webhook({ url: 'https://internal.example.com/x?token=zz-secret' }) })).includes('zz-secret'),
    'the answer does not quote the URL',
  );
  t.equal(HOSTS['hooks.example.com'], '93.184.215.14', 'a public address passes');
});

t.test('400 notify.host_not_found: a host that does not resolve', async (t) => {
  fails(t, await k.api('POST', RECEIVERS, { json: webhook({ url: 'https://nowhere.example.com/' }) }), 400, 'notify.host_not_found', '/url', /nowhere\.example\.com/);
});

t.test('workgroup ownership: a writer manages its workgroups’ receivers and sees only them', async (t) => {
  const mine = await k.make(RECEIVERS, webhook(), writerA.token);
  const theirs = await k.make(RECEIVERS, webhook({ ownerWorkGroup: { id: wgB } }), writerB.token);
  const listed = (await k.api('GET', RECEIVERS, { token: writerA.token })).body.map((r: { id: number }) => r.id);
  t.ok(listed.includes(mine.id) && !listed.includes(theirs.id), 'the list holds its own, not the others’');
  t.ok(listed.length > 0 && (await k.api('GET', RECEIVERS, { token: writerA.token })).body.every((r: any) => r.ownerWorkGroup.id === wgA));
  const all = (await k.api('GET', RECEIVERS)).body.map((r: { id: number }) => r.id);
  t.ok(all.includes(mine.id) && all.includes(theirs.id), 'the admin sees all');
  t.equal((await k.api('PATCH', `${RECEIVERS}/${mine.id}`, { json: { maxAgeHours: 2 }, token: writerA.token })).status, 200);
  t.equal((await k.api('DELETE', `${RECEIVERS}/${mine.id}`, { token: writerA.token })).status, 204);
  t.equal((await k.api('GET', `${RECEIVERS}/${mine.id}`, { token: writerA.token })).status, 404, 'gone');
});

t.test('403 notification.work_group_forbidden: creating for, or moving to, a workgroup the writer is not in', async (t) => {
  fails(
    t,
    await k.api('POST', RECEIVERS, { json: webhook({ ownerWorkGroup: { id: wgB } }), token: writerA.token }),
    403,
    'notification.work_group_forbidden',
    undefined,
    new RegExp(`workgroup ${wgB}`),
  );
  const mine = await k.make(RECEIVERS, webhook(), writerA.token);
  fails(t, await k.api('PATCH', `${RECEIVERS}/${mine.id}`, { json: { ownerWorkGroup: { id: wgB } }, token: writerA.token }), 403, 'notification.work_group_forbidden');
});

t.test('403 notification_receiver.forbidden: another workgroup’s receiver cannot be read, changed or deleted', async (t) => {
  const theirs = await k.make(RECEIVERS, webhook({ ownerWorkGroup: { id: wgB } }));
  for (const [method, path, json] of [
    ['GET', `${RECEIVERS}/${theirs.id}`, undefined],
    ['PATCH', `${RECEIVERS}/${theirs.id}`, { name: 'mine now' }],
    ['DELETE', `${RECEIVERS}/${theirs.id}`, undefined],
    ['GET', `${RECEIVERS}/${theirs.id}/deliveries`, undefined],
  ] as const) {
    fails(t, await k.api(method, path, { token: writerA.token, ...(json ? { json } : {}) }), 403, 'notification_receiver.forbidden');
  }
  t.equal((await k.api('GET', `${RECEIVERS}/${theirs.id}`)).body.name, theirs.name, 'unchanged');
});

t.test('404 notification_receiver.not_found; 400 for an id that is not one', async (t) => {
  fails(t, await k.api('GET', `${RECEIVERS}/999999`), 404, 'notification_receiver.not_found');
  fails(t, await k.api('PATCH', `${RECEIVERS}/999999`, { json: { name: 'x' } }), 404, 'notification_receiver.not_found');
  fails(t, await k.api('DELETE', `${RECEIVERS}/999999`), 404, 'notification_receiver.not_found');
  fails(t, await k.api('GET', `${RECEIVERS}/abc`), 400, 'http.parameter_invalid', '/id');
});

t.test('notifications-writer role: without base-system.notifications.write a member gets 403 auth.right_missing', async (t) => {
  for (const [method, path, json] of [
    ['GET', RECEIVERS, undefined],
    ['POST', RECEIVERS, webhook()],
    ['GET', POLICIES, undefined],
  ] as const) {
    fails(t, await k.api(method, path, { token: plainA.token, ...(json ? { json } : {}) }), 403, 'auth.right_missing', undefined, /base-system\.notifications\.write/);
  }
  const roles = (await k.api('GET', '/api/admin/v1/roles')).body;
  t.same(roles.find((r: { name: string }) => r.name === 'notifications-writer')?.rights, ['base-system.notifications.write'], 'the built-in role');
  t.equal((await k.api('GET', RECEIVERS, { token: writerA.token })).status, 200, 'with the role');
});

t.test('409 notification_receiver.name_taken: a name is unique within its workgroup', async (t) => {
  const name = k.uniq('same-name');
  const first = await k.make(RECEIVERS, webhook({ name }));
  fails(t, await k.api('POST', RECEIVERS, { json: webhook({ name }) }), 409, 'notification_receiver.name_taken', undefined, new RegExp(`id ${first.id}`));
  t.equal((await k.api('POST', RECEIVERS, { json: webhook({ name, ownerWorkGroup: { id: wgB } }) })).status, 201, 'another workgroup may use it');
});

t.test('409 notification_receiver.in_use: deleting or moving a receiver a policy sends to', async (t) => {
  const hook = await k.make(RECEIVERS, webhook());
  const policy = await k.make(POLICIES, { name: k.uniq('p'), ownerWorkGroup: { id: wgA }, configItems: 'all', receiverIds: [hook.id] });
  fails(t, await k.api('DELETE', `${RECEIVERS}/${hook.id}`), 409, 'notification_receiver.in_use', undefined, new RegExp(`policy ${policy.id}`));
  fails(t, await k.api('PATCH', `${RECEIVERS}/${hook.id}`, { json: { ownerWorkGroup: { id: wgB } } }), 409, 'notification_receiver.in_use');
  t.equal((await k.api('DELETE', `${POLICIES}/${policy.id}`)).status, 204);
  t.equal((await k.api('DELETE', `${RECEIVERS}/${hook.id}`)).status, 204, 'free once the policy is gone');
});

t.test('409 notification.work_group_in_use: a workgroup owning a receiver cannot be deleted', async (t) => {
  const wg = await k.workGroup(k.uniq('owning'));
  const hook = await k.make(RECEIVERS, webhook({ ownerWorkGroup: { id: wg.id } }));
  fails(t, await k.api('DELETE', `/api/admin/v1/work-groups/${wg.id}`), 409, 'notification.work_group_in_use', undefined, new RegExp(`receiver ${hook.id}`));
  await k.api('DELETE', `${RECEIVERS}/${hook.id}`);
  t.equal((await k.api('DELETE', `/api/admin/v1/work-groups/${wg.id}`)).status, 204);
});

// ---------------------------------------------------------------------------- the delivery log

const deliveries = (id: number, query = '', token?: string) => k.api('GET', `${RECEIVERS}/${id}/deliveries${query}`, token ? { token } : {});

/**
 * Rows as the dispatcher will write them, inserted straight into the table; `at` in seconds after
 * a minute ago, by the real clock: the table's TTL (30 days) counts by it, whatever the platform's.
 */
const LOG_BASE = Math.floor(Date.now() / 1000) * 1000 - 60_000;
const logAt = (seconds: number): string => new Date(LOG_BASE + seconds * 1000).toISOString();
async function logAttempts(
  receiverId: number,
  rows: Array<{ id: string; deliveryId: string; attempt: number; at: number; status?: string; statusCode?: number | null }>,
): Promise<void> {
  await k.p.platform.engines.analytics.insert(
    'notification_deliveries',
    rows.map((r) => ({
      id: r.id,
      receiver_id: receiverId,
      policy_id: 7,
      delivery_id: r.deliveryId,
      event_kinds: ['problem.opened'],
      attempt: r.attempt,
      status: r.status ?? 'delivered',
      status_code: r.statusCode === undefined ? 204 : r.statusCode,
      error: r.statusCode === null ? 'connect ECONNREFUSED' : null,
      latency_ms: 12,
      at: logAt(r.at).replace('T', ' ').replace('Z', ''),
    })),
  );
}

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

t.test('deliveries: an empty log is an empty page', async (t) => {
  const hook = await k.make(RECEIVERS, webhook());
  const answer = await deliveries(hook.id);
  t.equal(answer.status, 200);
  t.same(answer.body, { items: [], nextCursor: null });
  fails(t, await deliveries(999_999), 404, 'notification_receiver.not_found');
});

t.test('deliveries: newest first, paged by keyset cursor, each attempt once', async (t) => {
  const hook = await k.make(RECEIVERS, webhook());
  const other = await k.make(RECEIVERS, webhook());
  await logAttempts(hook.id, [
    { id: uuid(1), deliveryId: 'msg_a', attempt: 1, at: 0, status: 'retrying', statusCode: null },
    { id: uuid(2), deliveryId: 'msg_a', attempt: 2, at: 10 },
    { id: uuid(3), deliveryId: 'msg_b', attempt: 1, at: 10 },
    { id: uuid(4), deliveryId: 'msg_c', attempt: 1, at: 50 },
  ]);
  await logAttempts(hook.id, [{ id: uuid(4), deliveryId: 'msg_c', attempt: 1, at: 50 }]);
  await logAttempts(other.id, [{ id: uuid(5), deliveryId: 'msg_z', attempt: 1, at: 55 }]);
  const first = await deliveries(hook.id, '?limit=2');
  t.equal(first.status, 200);
  t.same(
    first.body.items.map((d: { id: string }) => d.id),
    [uuid(4), uuid(3)],
  );
  t.type(first.body.nextCursor, 'string');
  const second = await deliveries(hook.id, `?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
  t.same(
    second.body.items.map((d: { id: string }) => d.id),
    [uuid(2), uuid(1)],
  );
  t.equal(second.body.nextCursor, null, 'the last page');
  t.same(second.body.items[1], {
    id: uuid(1),
    receiverId: hook.id,
    policyId: 7,
    deliveryId: 'msg_a',
    eventKinds: ['problem.opened'],
    attempt: 1,
    status: 'retrying',
    statusCode: null,
    error: 'connect ECONNREFUSED',
    latencyMs: 12,
    at: logAt(0),
  });
  t.same(
    (await deliveries(hook.id)).body.items.map((d: { id: string }) => d.id),
    [uuid(4), uuid(3), uuid(2), uuid(1)],
    'one page by default; the attempt inserted twice is listed once',
  );
});

t.test('deliveries: 400 for a cursor the log did not give and a limit out of range', async (t) => {
  const hook = await k.make(RECEIVERS, webhook());
  fails(t, await deliveries(hook.id, '?cursor=bm90LWEtY3Vyc29y'), 400, 'notification_delivery.cursor_invalid');
  fails(t, await deliveries(hook.id, '?limit=0'), 400, 'http.query_invalid', '/limit');
  fails(t, await deliveries(hook.id, '?limit=1.5'), 400, 'http.query_invalid', '/limit');
});

t.test('replay: 202 records the request for the dispatcher; the same one while it waits', async (t) => {
  const hook = await k.make(RECEIVERS, webhook(), writerA.token);
  await logAttempts(hook.id, [{ id: uuid(11), deliveryId: 'msg_replay', attempt: 1, at: 0, status: 'failed', statusCode: 400 }]);
  const at = k.tick();
  const answer = await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/msg_replay/replay`, { token: writerA.token });
  t.equal(answer.status, 202);
  t.same(answer.body, { id: answer.body.id, receiverId: hook.id, policyId: 7, deliveryId: 'msg_replay', requestedBy: { id: writerA.id }, requestedAt: at });
  k.tick();
  const again = await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/msg_replay/replay`);
  t.same([again.status, again.body], [202, answer.body], 'asked again: the same request');
});

t.test('replay: 404 notification_delivery.not_found for a delivery the log does not have; 403 and 400 as elsewhere', async (t) => {
  const hook = await k.make(RECEIVERS, webhook());
  fails(t, await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/msg_never/replay`), 404, 'notification_delivery.not_found', undefined, /msg_never/);
  fails(t, await k.api('POST', `${RECEIVERS}/999999/deliveries/msg_never/replay`), 404, 'notification_receiver.not_found');
  fails(t, await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/msg_never/replay`, { token: writerB.token }), 403, 'notification_receiver.forbidden');
  fails(t, await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/${encodeURIComponent('a b')}/replay`), 400, 'http.parameter_invalid', '/deliveryId');
});

t.test('409 notification_delivery.replays_pending: at most 100 replays wait per receiver', async (t) => {
  const hook = await k.make(RECEIVERS, webhook());
  const rows = Array.from({ length: 101 }, (_, i) => ({ id: uuid(1000 + i), deliveryId: `msg_${i}`, attempt: 1, at: 0 }));
  await logAttempts(hook.id, rows);
  for (let i = 0; i < 100; i++) t.equal((await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/msg_${i}/replay`)).status, 202);
  fails(t, await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/msg_100/replay`), 409, 'notification_delivery.replays_pending', undefined, /100 replays/);
  t.equal((await k.api('POST', `${RECEIVERS}/${hook.id}/deliveries/msg_5/replay`)).status, 202, 'one already waiting is still answered');
  t.equal((await k.api('DELETE', `${RECEIVERS}/${hook.id}`)).status, 204, 'deleting the receiver drops its replays');
});

/**
 * Notification policies (issue #31, docs/notifications.md "Model"): the admin CRUD with one test
 * per rule and per error code — a policy sends only to receivers of its own workgroup and covers
 * only CIs its workgroup may read; the workgroup ownership and the notifications-writer role as
 * for receivers — and the stored policy as routing reads it (PolicyRule).
 */
import t from 'tap';
import { toPolicyRule } from '../../../services/control-plane/notifications/policy-rule.js';
import { CIS } from '../cmdb/cmdb-kit.js';
import { fails, NotificationsKit, POLICIES, RECEIVERS, type User, whsec } from './notifications-kit.js';

const k = new NotificationsKit();
let wgA: number;
let wgB: number;
let writerA: User;
let writerB: User;
let plainA: User;
let receiverA: number;
let receiverA2: number;
let receiverB: number;
let ciA: number;
let ciB: number;
let ciShared: number;
let trigger: number;
t.before(async () => {
  await k.startWithDns();
  wgA = (await k.workGroup(k.uniq('policy-a'))).id;
  wgB = (await k.workGroup(k.uniq('policy-b'))).id;
  writerA = await k.member(['notifications-writer'], [wgA]);
  writerB = await k.member(['notifications-writer'], [wgB]);
  plainA = await k.member([], [wgA]);
  const hook = (wg: number) => ({ type: 'webhook', name: k.uniq('hook'), ownerWorkGroup: { id: wg }, url: 'https://hooks.example.com/in', secrets: [whsec(3)] });
  receiverA = (await k.make(RECEIVERS, hook(wgA))).id;
  receiverA2 = (await k.make(RECEIVERS, hook(wgA))).id;
  receiverB = (await k.make(RECEIVERS, hook(wgB))).id;
  ciA = (await k.ci({ ownerWorkGroup: { id: wgA } })).id;
  ciB = (await k.ci({ ownerWorkGroup: { id: wgB } })).id;
  ciShared = (await k.ci({ ownerWorkGroup: { id: wgB } })).id;
  await k.grant(ciShared, wgA, 'ConfigItem', ['base-system.rsm.basic-read']);
  const stream = await k.api('POST', '/api/admin/v1/streams', { json: { name: k.uniq('policy-stream') } });
  const made = await k.api('POST', '/api/admin/v1/triggers', {
    json: {
      name: k.uniq('trigger'),
      streamIds: [stream.body.id],
      match: [{ field: 'status', op: 'in', values: ['down'] }],
      ci: { by: 'nameField', field: 'host' },
      priority: { value: 2 },
      resolve: { field: 'status', values: ['ok'] },
      influence: { value: 50, maxInfluence: false },
    },
  });
  if (made.status !== 201) throw new Error(made.text);
  trigger = made.body.id;
});
t.teardown(() => k.stop());

const policy = (extra: Record<string, unknown> = {}) => ({ name: k.uniq('policy'), ownerWorkGroup: { id: wgA }, configItems: { ids: [ciA] }, receiverIds: [receiverA], ...extra });

t.test('create a policy: 201, the defaults filled in', async (t) => {
  const at = k.tick();
  const answer = await k.api('POST', POLICIES, { json: policy({ name: 'Core' }) });
  t.equal(answer.status, 201);
  t.same(answer.body, {
    id: answer.body.id,
    name: 'Core',
    ownerWorkGroup: { id: wgA },
    configItems: { ids: [ciA], withDescendants: false },
    priorities: [],
    triggerIds: [],
    tags: [],
    kinds: [],
    receiverIds: [receiverA],
    groupWindowSeconds: 30,
    repeatIntervalSeconds: null,
    enabled: true,
    createdAt: at,
    updatedAt: at,
  });
  t.same((await k.api('GET', `${POLICIES}/${answer.body.id}`)).body, answer.body, 'read back the same');
});

t.test('every field as given; lists keep their order without repeats; the stored policy converts to the routing rule', async (t) => {
  const body = policy({
    configItems: { labels: ['env=prod', 'team', 'env=prod'] },
    priorities: ['Problem2', 'Problem1', 'Problem2'],
    triggerIds: [trigger],
    tags: ['service=billing', 'urgent'],
    kinds: ['problem.opened', 'problem.resolved', 'maintenance.started'],
    receiverIds: [receiverA2, receiverA, receiverA2],
    groupWindowSeconds: 0,
    repeatIntervalSeconds: 3600,
    enabled: false,
  });
  const made = await k.make(POLICIES, body);
  t.match(made, {
    configItems: { labels: ['env=prod', 'team'] },
    priorities: ['Problem2', 'Problem1'],
    receiverIds: [receiverA2, receiverA],
    groupWindowSeconds: 0,
    repeatIntervalSeconds: 3600,
    enabled: false,
  });
  t.same(toPolicyRule(made), {
    id: made.id,
    ownerWorkGroupId: wgA,
    configItems: { labels: ['env=prod', 'team'] },
    priorities: ['Problem2', 'Problem1'],
    triggerIds: [trigger],
    tags: ['service=billing', 'urgent'],
    kinds: ['problem.opened', 'problem.resolved', 'maintenance.started'],
    receiverIds: [receiverA2, receiverA],
    groupWindowSeconds: 0,
    repeatIntervalSeconds: 3600,
  });
  t.equal((await k.make(POLICIES, policy({ configItems: 'all' }))).configItems, 'all', "'all' CIs");
});

t.test('400 notification_policy.invalid: a policy referencing another workgroup’s receiver is refused, for admins too', async (t) => {
  for (const token of [writerA.token, undefined]) {
    const answer = await k.api('POST', POLICIES, { json: policy({ receiverIds: [receiverA, receiverB] }), ...(token ? { token } : {}) });
    fails(t, answer, 400, 'notification_policy.invalid', '/receiverIds/1');
    t.match(answer.body.errors, [{ path: '/receiverIds/1', message: `receiver ${receiverB} is not a receiver of workgroup ${wgA}` }]);
  }
  const unknown = await k.api('POST', POLICIES, { json: policy({ receiverIds: [999_999] }) });
  t.same(unknown.body.errors, [{ path: '/receiverIds/0', message: `receiver 999999 is not a receiver of workgroup ${wgA}` }], 'one that does not exist: the same answer');
  const made = await k.make(POLICIES, policy());
  fails(t, await k.api('PATCH', `${POLICIES}/${made.id}`, { json: { receiverIds: [receiverB] } }), 400, 'notification_policy.invalid', '/receiverIds/0');
});

t.test('400 notification_policy.invalid: the CIs named must be ones the workgroup may read (a grant counts)', async (t) => {
  const answer = await k.api('POST', POLICIES, { json: policy({ configItems: { ids: [ciA, ciB, 999_999], withDescendants: true } }) });
  fails(t, answer, 400, 'notification_policy.invalid');
  t.same(answer.body.errors, [
    { path: '/configItems/ids/1', message: `CI ${ciB} does not exist or workgroup ${wgA} may not read it` },
    { path: '/configItems/ids/2', message: `CI 999999 does not exist or workgroup ${wgA} may not read it` },
  ]);
  t.equal((await k.api('POST', POLICIES, { json: policy({ configItems: { ids: [ciShared] } }), token: writerA.token })).status, 201, 'basic-read by a grant is enough');
  const admins = await k.api('POST', POLICIES, { json: policy({ configItems: { ids: [ciB] } }) });
  fails(t, admins, 400, 'notification_policy.invalid', '/configItems/ids/0');
});

t.test('moving a policy to another workgroup checks its receivers and CIs again', async (t) => {
  const made = await k.make(POLICIES, policy());
  const moved = await k.api('PATCH', `${POLICIES}/${made.id}`, { json: { ownerWorkGroup: { id: wgB } } });
  fails(t, moved, 400, 'notification_policy.invalid', '/receiverIds/0');
  t.ok(
    moved.body.errors.some((e: { path: string }) => e.path === '/configItems/ids/0'),
    'and the CI wgB may not read',
  );
  const ok = await k.api('PATCH', `${POLICIES}/${made.id}`, { json: { ownerWorkGroup: { id: wgB }, receiverIds: [receiverB], configItems: { ids: [ciB] } } });
  t.equal(ok.status, 200);
  t.same([ok.body.ownerWorkGroup, ok.body.receiverIds], [{ id: wgB }, [receiverB]]);
});

t.test('400 notification_policy.invalid: unknown triggers, and labels and tags that are not name or name=value', async (t) => {
  const answer = await k.api('POST', POLICIES, { json: policy({ triggerIds: [trigger, 999_999], tags: ['ok', '=value'], configItems: { labels: ['=x'] } }) });
  fails(t, answer, 400, 'notification_policy.invalid');
  t.same(
    answer.body.errors.map((e: { path: string }) => e.path),
    ['/configItems/labels/0', '/tags/1', '/triggerIds/1'],
  );
});

t.test('400 http.body_invalid: the schema names the field, within the CI selector too', async (t) => {
  const ids = await k.api('POST', POLICIES, { json: policy({ configItems: { ids: ['one'] } }) });
  t.same(ids.body.errors, [{ path: '/configItems/ids/0', message: 'must be integer' }], 'the ids form’s own error');
  const labels = await k.api('POST', POLICIES, { json: policy({ configItems: { labels: [] } }) });
  t.same(labels.body.errors, [{ path: '/configItems/labels', message: 'must not have fewer than 1 items' }], 'the labels form’s own error');
  fails(t, await k.api('POST', POLICIES, { json: policy({ receiverIds: [] }) }), 400, 'http.body_invalid', '/receiverIds');
  fails(t, await k.api('POST', POLICIES, { json: policy({ kinds: ['problem.exploded'] }) }), 400, 'http.body_invalid', '/kinds/0');
  fails(t, await k.api('POST', POLICIES, { json: policy({ priorities: ['P1'] }) }), 400, 'http.body_invalid', '/priorities/0');
  fails(t, await k.api('POST', POLICIES, { json: policy({ repeatIntervalSeconds: 5 }) }), 400, 'http.body_invalid', '/repeatIntervalSeconds');
  fails(t, await k.api('POST', POLICIES, { json: policy({ groupWindowSeconds: 7200 }) }), 400, 'http.body_invalid', '/groupWindowSeconds');
  fails(t, await k.api('POST', POLICIES, { json: { ...policy(), configItems: undefined } }), 400, 'http.body_invalid', '/configItems');
  fails(t, await k.api('POST', POLICIES, { json: policy({ ownerWorkGroup: { id: 999_999 } }) }), 400, 'notification_policy.invalid', '/ownerWorkGroup/id');
});

t.test('PATCH: lists and the CI selector replaced whole; the rest kept', async (t) => {
  const made = await k.make(POLICIES, policy({ priorities: ['Problem1'], repeatIntervalSeconds: 600 }));
  const at = k.tick();
  const answer = await k.api('PATCH', `${POLICIES}/${made.id}`, { json: { configItems: 'all', receiverIds: [receiverA2], repeatIntervalSeconds: null } });
  t.equal(answer.status, 200);
  t.same(answer.body, { ...made, configItems: 'all', receiverIds: [receiverA2], repeatIntervalSeconds: null, updatedAt: at });
  fails(t, await k.api('PATCH', `${POLICIES}/${made.id}`, { json: {} }), 400, 'http.body_invalid');
});

t.test('workgroup ownership: a writer manages its workgroups’ policies and sees only them', async (t) => {
  const mine = await k.make(POLICIES, policy(), writerA.token);
  const theirs = await k.make(POLICIES, policy({ ownerWorkGroup: { id: wgB }, receiverIds: [receiverB], configItems: 'all' }), writerB.token);
  const listed = (await k.api('GET', POLICIES, { token: writerA.token })).body;
  t.ok(
    listed.every((p: any) => p.ownerWorkGroup.id === wgA),
    'only its workgroup’s',
  );
  t.ok(listed.some((p: any) => p.id === mine.id));
  t.ok(
    (await k.api('GET', POLICIES)).body.some((p: any) => p.id === theirs.id),
    'the admin sees all',
  );
  t.equal((await k.api('PATCH', `${POLICIES}/${mine.id}`, { json: { enabled: false }, token: writerA.token })).status, 200);
  t.equal((await k.api('DELETE', `${POLICIES}/${mine.id}`, { token: writerA.token })).status, 204);
  fails(t, await k.api('GET', `${POLICIES}/${mine.id}`, { token: writerA.token }), 404, 'notification_policy.not_found');
});

t.test('403 notification.work_group_forbidden: a policy for a workgroup the writer is not in', async (t) => {
  fails(
    t,
    await k.api('POST', POLICIES, { json: policy({ ownerWorkGroup: { id: wgB }, receiverIds: [receiverB] }), token: writerA.token }),
    403,
    'notification.work_group_forbidden',
  );
  const mine = await k.make(POLICIES, policy(), writerA.token);
  fails(t, await k.api('PATCH', `${POLICIES}/${mine.id}`, { json: { ownerWorkGroup: { id: wgB } }, token: writerA.token }), 403, 'notification.work_group_forbidden');
});

t.test('403 notification_policy.forbidden: another workgroup’s policy cannot be read, changed or deleted', async (t) => {
  const theirs = await k.make(POLICIES, policy({ ownerWorkGroup: { id: wgB }, receiverIds: [receiverB], configItems: 'all' }));
  fails(t, await k.api('GET', `${POLICIES}/${theirs.id}`, { token: writerA.token }), 403, 'notification_policy.forbidden');
  fails(t, await k.api('PATCH', `${POLICIES}/${theirs.id}`, { json: { enabled: false }, token: writerA.token }), 403, 'notification_policy.forbidden');
  fails(t, await k.api('DELETE', `${POLICIES}/${theirs.id}`, { token: writerA.token }), 403, 'notification_policy.forbidden');
  t.equal((await k.api('GET', `${POLICIES}/${theirs.id}`)).body.enabled, true, 'unchanged');
});

t.test('404 notification_policy.not_found', async (t) => {
  fails(t, await k.api('GET', `${POLICIES}/999999`), 404, 'notification_policy.not_found');
  fails(t, await k.api('PATCH', `${POLICIES}/999999`, { json: { enabled: false } }), 404, 'notification_policy.not_found');
  fails(t, await k.api('DELETE', `${POLICIES}/999999`), 404, 'notification_policy.not_found');
});

t.test('notifications-writer role: a member without it gets 403 auth.right_missing on policies', async (t) => {
  const made = await k.make(POLICIES, policy());
  for (const [method, path, json] of [
    ['GET', POLICIES, undefined],
    ['POST', POLICIES, policy()],
    ['GET', `${POLICIES}/${made.id}`, undefined],
    ['PATCH', `${POLICIES}/${made.id}`, { enabled: false }],
    ['DELETE', `${POLICIES}/${made.id}`, undefined],
  ] as const) {
    fails(t, await k.api(method, path, { token: plainA.token, ...(json ? { json } : {}) }), 403, 'auth.right_missing', undefined, /base-system\.notifications\.write/);
  }
});

t.test('409 notification_policy.name_taken: a name is unique within its workgroup', async (t) => {
  const name = k.uniq('same-policy');
  const first = await k.make(POLICIES, policy({ name }));
  fails(t, await k.api('POST', POLICIES, { json: policy({ name }) }), 409, 'notification_policy.name_taken', undefined, new RegExp(`id ${first.id}`));
  const other = await k.make(POLICIES, policy());
  fails(t, await k.api('PATCH', `${POLICIES}/${other.id}`, { json: { name } }), 409, 'notification_policy.name_taken');
  t.equal(
    (await k.api('POST', POLICIES, { json: policy({ name, ownerWorkGroup: { id: wgB }, receiverIds: [receiverB], configItems: 'all' }) })).status,
    201,
    'another workgroup may use it',
  );
});

t.test('409 notification.work_group_in_use: a workgroup owning a policy cannot be deleted', async (t) => {
  const wg = await k.workGroup(k.uniq('policy-owner'));
  const hook = await k.make(RECEIVERS, { type: 'slack', name: 'x', ownerWorkGroup: { id: wg.id }, url: 'https://hooks.slack.com/services/T/B/c' });
  const made = await k.make(POLICIES, { name: 'p', ownerWorkGroup: { id: wg.id }, configItems: 'all', receiverIds: [hook.id] });
  fails(t, await k.api('DELETE', `/api/admin/v1/work-groups/${wg.id}`), 409, 'notification.work_group_in_use', undefined, new RegExp(`policy ${made.id}`));
});

t.test('a CI deleted after the policy was saved stays listed; changing other fields keeps it', async (t) => {
  const ci = (await k.ci({ ownerWorkGroup: { id: wgA } })).id;
  const made = await k.make(POLICIES, policy({ configItems: { ids: [ciA, ci] } }));
  t.equal((await k.api('DELETE', `${CIS}/${ci}`)).status, 204);
  const answer = await k.api('PATCH', `${POLICIES}/${made.id}`, { json: { name: k.uniq('renamed') } });
  t.equal(answer.status, 200);
  t.same(answer.body.configItems, { ids: [ciA, ci], withDescendants: false });
});

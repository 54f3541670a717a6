/**
 * Spec 4.1 #9 (add an access grant), #10 (change one) and #11 (remove one): the success models,
 * the share types and rights of 2.8 and DESIGN §4, and one test per condition of spec 7.1.
 */
import t from 'tap';
import { BASIC_READ, CIS, isProblem, isUnauthorised, Kit, MONITORING_READ, type Named, READ, type User, WRITE } from './cmdb-kit.js';

const k = new Kit();
let wgA: Named;
let wgB: Named;
let userA: User;
let userB: User;
t.before(async () => {
  await k.start();
  ({ wg: wgA, user: userA } = await k.team('grant-a'));
  ({ wg: wgB, user: userB } = await k.team('grant-b'));
});
t.teardown(() => k.stop());

const wgPath = (id: number | string) => `${CIS}/${id}/work-groups`;
const share = (id: number | string, json: unknown, token?: string) => k.api('POST', wgPath(id), token ? { json, token } : { json });
const change = (id: number | string, json: unknown, token?: string) => k.api('PUT', wgPath(id), token ? { json, token } : { json });
const unshare = (id: number | string, sharedId: number | string, token?: string) => k.api('DELETE', `${wgPath(id)}/${sharedId}`, token ? { token } : {});
const ciOfA = (extra: Record<string, unknown> = {}) => k.ci({ ownerWorkGroup: { id: wgA.id }, ...extra });
const triple = (g: { workGroupId: number; shareType: string; grants: string[] }) => [g.workGroupId, g.shareType, g.grants];

// ---------------------------------------------------------------- #9 add

t.test('#9 200: the grant is added and the full CI model returned', async (t) => {
  const ci = await ciOfA();
  t.equal((await k.get(ci.id, userB.token)).status, 403, 'wgB cannot read it yet');
  t.notOk((await k.listed(userB.token)).includes(ci.id), 'nor list it');
  const at = k.tick();
  const answer = await share(ci.id, { workGroupId: wgB.id, shareType: 'ConfigItem', grants: [READ, READ] }, userA.token);
  t.equal(answer.status, 200);
  const m = answer.body;
  t.equal(m.id, ci.id);
  t.equal(m.name, ci.name);
  t.same(m.ownerWorkGroup, { id: wgA.id, name: wgA.name });
  t.equal(m.sharedToWorkGroups.length, 1);
  t.same(triple(m.sharedToWorkGroups[0]), [wgB.id, 'ConfigItem', [READ]], 'duplicate rights collapse');
  t.ok(Number.isSafeInteger(m.sharedToWorkGroups[0].id) && m.sharedToWorkGroups[0].id > 0, 'the grant carries its id');
  t.same([m.entityInfo.updatedAt, m.entityInfo.updatedBy, m.entityInfo.updatedByName], [at, userA.id, userA.name]);
  t.equal((await k.get(ci.id, userB.token)).status, 200, 'wgB reads it now');
  t.ok((await k.listed(userB.token)).includes(ci.id), 'and lists it');
});

t.test('#9 rule: workGroupId 0 shares with every workgroup, including ones created later', async (t) => {
  const ci = await ciOfA();
  const answer = await share(ci.id, { workGroupId: 0, shareType: 'ConfigItem', grants: [READ] });
  t.same(triple(answer.body.sharedToWorkGroups[0]), [0, 'ConfigItem', [READ]]);
  t.equal((await k.get(ci.id, userB.token)).status, 200, 'an existing workgroup');
  const later = await k.team('later');
  t.equal((await k.get(ci.id, later.user.token)).status, 200, 'a workgroup created after the grant');
});

t.test('#9 rule: workGroupId 0 covers the members of workgroups, not a user who belongs to none (spec 5.3: rights are given per workgroup)', async (t) => {
  const ci = await ciOfA({ sharedToWorkGroups: [{ workGroupId: 0, shareType: 'Tree', grants: [WRITE] }] });
  const loner = await k.user([]);
  isProblem(t, await k.get(ci.id, loner.token), 403, 'forbidden');
  t.notOk((await k.listed(loner.token)).includes(ci.id), 'not in the #4 list either');
});

/** root (wgA) ▸ mid ▸ leaf, with one grant for wgB on mid. */
async function chainWithGrantOnMid(shareType: string) {
  const root = await ciOfA();
  const mid = await k.ci({ parent: { id: root.id } });
  const leaf = await k.ci({ parent: { id: mid.id } });
  t.equal((await share(mid.id, { workGroupId: wgB.id, shareType, grants: [READ] })).status, 200);
  const status = async (ci: { id: number }) => (await k.get(ci.id, userB.token)).status;
  return { root: await status(root), mid: await status(mid), leaf: await status(leaf) };
}

t.test('#9 rule: shareType ConfigItem gives rights on this CI only', async (t) => {
  t.same(await chainWithGrantOnMid('ConfigItem'), { root: 403, mid: 200, leaf: 403 });
});

t.test('#9 rule: shareType Tree gives rights on this CI and its subordinate tree', async (t) => {
  t.same(await chainWithGrantOnMid('Tree'), { root: 403, mid: 200, leaf: 200 });
});

t.test('#9 rule: shareType ChildrenTree gives rights only on the subordinate tree', async (t) => {
  t.same(await chainWithGrantOnMid('ChildrenTree'), { root: 403, mid: 403, leaf: 200 });
});

t.test('#9 rule: write implies read; basic-read and monitoring-read do not allow a full read', async (t) => {
  const levels: Array<[string, number, number]> = [
    [BASIC_READ, 403, 403],
    [MONITORING_READ, 403, 403],
    [READ, 200, 403],
    [WRITE, 200, 200],
  ];
  for (const [right, get, update] of levels) {
    const team = await k.team('level');
    const ci = await ciOfA({ sharedToWorkGroups: [{ workGroupId: team.wg.id, shareType: 'ConfigItem', grants: [right] }] });
    t.equal((await k.get(ci.id, team.user.token)).status, get, `${right}: GET`);
    const put = await k.api('PUT', `${CIS}/${ci.id}`, { token: team.user.token, json: { name: ci.name, ownerWorkGroup: { id: wgA.id } } });
    t.equal(put.status, update, `${right}: PUT`);
  }
});

t.test('#9 400: empty body', async (t) => {
  const ci = await ciOfA();
  isProblem(t, await k.api('POST', wgPath(ci.id), { body: '', headers: { 'content-type': 'application/json' } }), 400, 'empty-body');
});

t.test('#9 400: invalid data model', async (t) => {
  const ci = await ciOfA();
  isProblem(t, await share(ci.id, { workGroupId: wgB.id, shareType: 'Everything', grants: [READ] }), 400, 'validation', undefined, '/shareType');
  isProblem(t, await share(ci.id, { workGroupId: wgB.id, shareType: 'Tree', grants: ['base-system.rsm.admin'] }), 400, 'validation');
  isProblem(t, await share(ci.id, { workGroupId: wgB.id, grants: [READ] }), 400, 'validation', undefined, '/shareType');
});

t.test('#9 400: grants list missing', async (t) => {
  const ci = await ciOfA();
  isProblem(t, await share(ci.id, { workGroupId: wgB.id, shareType: 'Tree' }), 400, 'bad-request', /grants list is missing/, '/grants');
  isProblem(t, await share(ci.id, { workGroupId: wgB.id, shareType: 'Tree', grants: null }), 400, 'bad-request', /grants list is missing/);
});

t.test('#9 400: invalid CI id', async (t) => {
  for (const id of ['abc', '0', '-1']) isProblem(t, await share(id, { workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }), 400, 'bad-request', /Invalid CI id/, '/id');
});

t.test('#9 400: invalid workgroup id', async (t) => {
  const ci = await ciOfA();
  for (const workGroupId of [-1, 1.5, null]) {
    isProblem(t, await share(ci.id, { workGroupId, shareType: 'Tree', grants: [READ] }), 400, 'bad-request', /Invalid workgroup id/, '/workGroupId');
  }
});

t.test('#9 400: the access rule is already set', async (t) => {
  const ci = await ciOfA({ sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }] });
  isProblem(t, await share(ci.id, { workGroupId: wgB.id, shareType: 'Tree', grants: [WRITE] }), 400, 'bad-request', /already set/, '/workGroupId');
  t.equal((await share(ci.id, { workGroupId: wgB.id, shareType: 'ConfigItem', grants: [WRITE] })).status, 200, 'another share type is another rule');
});

t.test('#9 403: insufficient privileges', async (t) => {
  const ci = await ciOfA({ sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }] });
  isProblem(t, await share(ci.id, { workGroupId: wgB.id, shareType: 'ConfigItem', grants: [WRITE] }, userB.token), 403, 'forbidden', /Insufficient privileges to share/);
  t.equal((await k.get(ci.id)).body.sharedToWorkGroups.length, 1, 'nothing added');
});

t.test('#9 404: CI not found', async (t) => {
  isProblem(t, await share(626262, { workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }), 404, 'not-found', /CI 626262 not found/);
});

t.test('#9 404: workgroup not found', async (t) => {
  const ci = await ciOfA();
  isProblem(t, await share(ci.id, { workGroupId: 636363, shareType: 'Tree', grants: [READ] }), 404, 'not-found', /Workgroup 636363 not found/);
});

t.test('#9 415: content type is not application/json', async (t) => {
  const ci = await ciOfA();
  const body = JSON.stringify({ workGroupId: wgB.id, shareType: 'Tree', grants: [READ] });
  isProblem(t, await k.api('POST', wgPath(ci.id), { body, headers: { 'content-type': 'text/plain' } }), 415, 'unsupported-media-type');
});

t.test('#9 401: not authorised', async (t) => {
  const ci = await ciOfA();
  await isUnauthorised(t, k, 'POST', wgPath(ci.id), { workGroupId: wgB.id, shareType: 'Tree', grants: [READ] });
});

// ---------------------------------------------------------------- #10 change

t.test('#10 200: the access model is changed and the full CI model returned', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'ConfigItem', [BASIC_READ]);
  const answer = await change(ci.id, { id: grant.id, workGroupId: wgB.id, shareType: 'Tree', grants: [WRITE] }, userA.token);
  t.equal(answer.status, 200);
  t.equal(answer.body.id, ci.id);
  t.same(answer.body.sharedToWorkGroups, [{ id: grant.id, workGroupId: wgB.id, shareType: 'Tree', grants: [WRITE] }], 'same grant id, new content');
  t.same([answer.body.entityInfo.updatedBy, answer.body.entityInfo.updatedByName], [userA.id, userA.name]);
  const put = await k.api('PUT', `${CIS}/${ci.id}`, { token: userB.token, json: { name: ci.name, ownerWorkGroup: { id: wgA.id } } });
  t.equal(put.status, 200, 'wgB now writes the CI');
});

t.test('#10 400: empty body', async (t) => {
  const ci = await ciOfA();
  isProblem(t, await k.api('PUT', wgPath(ci.id), { body: ' ', headers: { 'content-type': 'application/json' } }), 400, 'empty-body');
});

t.test('#10 400: invalid data model', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  isProblem(t, await change(ci.id, { id: grant.id, workGroupId: wgB.id, shareType: 'Branch', grants: [READ] }), 400, 'validation', undefined, '/shareType');
  isProblem(t, await change(ci.id, { id: 'first', workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }), 400, 'validation', undefined, '/id');
});

t.test("#10 200: the spec's body (id, shareType, grants) changes the access model of its own workgroup", async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  const answer = await change(ci.id, { id: grant.id, shareType: 'ConfigItem', grants: [WRITE] });
  t.equal(answer.status, 200);
  t.same(answer.body.sharedToWorkGroups, [{ id: grant.id, workGroupId: wgB.id, shareType: 'ConfigItem', grants: [WRITE] }]);
});

t.test('#10 400: workgroup id required (given as null)', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  isProblem(t, await change(ci.id, { id: grant.id, workGroupId: null, shareType: 'Tree', grants: [READ] }), 400, 'bad-request', /workgroup id is required/, '/workGroupId');
});

t.test('#10 400: an access model does not move to another workgroup', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  isProblem(t, await change(ci.id, { id: grant.id, workGroupId: wgA.id, shareType: 'Tree', grants: [READ] }), 400, 'bad-request', /cannot move to workgroup/, '/workGroupId');
  t.same(
    (await k.get(ci.id)).body.sharedToWorkGroups.map((g: { workGroupId: number }) => g.workGroupId),
    [wgB.id],
    "still B's",
  );
});

t.test('#10 400: grants list missing', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  isProblem(t, await change(ci.id, { id: grant.id, workGroupId: wgB.id, shareType: 'Tree' }), 400, 'bad-request', /grants list is missing/, '/grants');
});

t.test('#10 400: invalid CI id', async (t) => {
  for (const id of ['x1', '0']) isProblem(t, await change(id, { id: 1, workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }), 400, 'bad-request', /Invalid CI id/, '/id');
});

t.test('#10 400: invalid access-model id', async (t) => {
  const ci = await ciOfA();
  for (const id of [0, -4, 2.5, null]) {
    isProblem(t, await change(ci.id, { id, workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }), 400, 'bad-request', /Invalid access-model id/, '/id');
  }
});

t.test('#10 400: the access rule is already set by another grant', async (t) => {
  const ci = await ciOfA();
  await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  const other = await k.grant(ci.id, wgB.id, 'ConfigItem', [READ]);
  isProblem(t, await change(ci.id, { id: other.id, workGroupId: wgB.id, shareType: 'Tree', grants: [WRITE] }), 400, 'bad-request', /already set/);
});

t.test('#10 403: insufficient privileges', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  isProblem(t, await change(ci.id, { id: grant.id, workGroupId: wgB.id, shareType: 'Tree', grants: [WRITE] }, userB.token), 403, 'forbidden', /Insufficient privileges/);
  t.same((await k.get(ci.id)).body.sharedToWorkGroups[0].grants, [READ], 'unchanged: nobody raises its own right');
});

t.test('#10 404: CI not found', async (t) => {
  isProblem(t, await change(646464, { id: 1, workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }), 404, 'not-found', /CI 646464 not found/);
});

t.test('#10 404: access model not found', async (t) => {
  const ci = await ciOfA();
  const elsewhere = await ciOfA();
  const foreign = await k.grant(elsewhere.id, wgB.id, 'Tree', [READ]);
  for (const id of [656565, foreign.id]) {
    isProblem(t, await change(ci.id, { id, workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }), 404, 'not-found', new RegExp(`Access model ${id} not found`));
  }
});

t.test('#10 401: not authorised', async (t) => {
  const ci = await ciOfA();
  await isUnauthorised(t, k, 'PUT', wgPath(ci.id), { id: 1, workGroupId: wgB.id, shareType: 'Tree', grants: [READ] });
});

// ---------------------------------------------------------------- #11 remove

t.test('#11 204: the access model is removed; the answer has no body', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'ConfigItem', [READ]);
  const kept = await k.grant(ci.id, 0, 'ConfigItem', [BASIC_READ]);
  t.equal((await k.get(ci.id, userB.token)).status, 200);
  const answer = await unshare(ci.id, grant.id, userA.token);
  t.equal(answer.status, 204);
  t.equal(answer.text, '');
  t.same((await k.get(ci.id)).body.sharedToWorkGroups, [{ id: kept.id, workGroupId: 0, shareType: 'ConfigItem', grants: [BASIC_READ] }]);
  isProblem(t, await k.get(ci.id, userB.token), 403, 'forbidden');
  t.ok((await k.listed(userB.token)).includes(ci.id), 'still listed: the remaining basic-read grant for every workgroup covers wgB');
});

t.test('#11 400: invalid CI id', async (t) => {
  for (const id of ['abc', '0', '-2']) isProblem(t, await unshare(id, 1), 400, 'bad-request', /Invalid CI id/, '/id');
});

t.test('#11 400: invalid access-model id', async (t) => {
  const ci = await ciOfA();
  for (const id of ['abc', '0', '-9', '1.5']) isProblem(t, await unshare(ci.id, id), 400, 'bad-request', /Invalid access-model id/, '/sharedId');
});

t.test('#11 403: insufficient privileges', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  isProblem(t, await unshare(ci.id, grant.id, userB.token), 403, 'forbidden', /Insufficient privileges/);
  t.equal((await k.get(ci.id)).body.sharedToWorkGroups.length, 1, 'still there');
});

t.test('#11 404: CI not found', async (t) => {
  isProblem(t, await unshare(676767, 1), 404, 'not-found', /CI 676767 not found/);
});

t.test('#11 404: access model not found', async (t) => {
  const ci = await ciOfA();
  const elsewhere = await ciOfA();
  const foreign = await k.grant(elsewhere.id, wgB.id, 'Tree', [READ]);
  for (const id of [686868, foreign.id]) isProblem(t, await unshare(ci.id, id), 404, 'not-found', new RegExp(`Access model ${id} not found`));
  t.equal((await k.get(elsewhere.id)).body.sharedToWorkGroups.length, 1, 'the other CI’s grant is untouched');
});

t.test('#11 401: not authorised', async (t) => {
  const ci = await ciOfA();
  const grant = await k.grant(ci.id, wgB.id, 'Tree', [READ]);
  await isUnauthorised(t, k, 'DELETE', `${wgPath(ci.id)}/${grant.id}`);
});

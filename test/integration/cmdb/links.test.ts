/**
 * Spec 4.1 #13–#16: hierarchy links (#13 add a child, #15 remove it) and influence links (#14 add
 * an influencing CI, #16 remove it): the success answers, the rules of 4.1 and DESIGN §4a (moves,
 * same workgroup, no cycles, no self-links) and one test per condition of spec 7.1.
 */
import t from 'tap';
import { BASIC_READ, CIS, isProblem, isUnauthorised, Kit, type Named, READ, type User, WRITE } from './cmdb-kit.js';

const k = new Kit();
let wgA: Named;
let wgB: Named;
let userA: User;
let userB: User;
t.before(async () => {
  await k.start();
  ({ wg: wgA, user: userA } = await k.team('link-a'));
  ({ wg: wgB, user: userB } = await k.team('link-b'));
});
t.teardown(() => k.stop());

const as = (token?: string) => (token ? { token } : {});
const addChild = (parentId: number | string, json: unknown, token?: string) => k.api('POST', `${CIS}/${parentId}/children`, { json, ...as(token) });
const removeChild = (parentId: number | string, childId: number | string, token?: string) => k.api('DELETE', `${CIS}/${parentId}/children/${childId}`, as(token));
const addInfluential = (dependentId: number | string, json: unknown, token?: string) => k.api('POST', `${CIS}/${dependentId}/influentials`, { json, ...as(token) });
const removeInfluential = (dependentId: number | string, influentialId: number | string, token?: string) =>
  k.api('DELETE', `${CIS}/${dependentId}/influentials/${influentialId}`, as(token));
const ciOf = (wg: Named, extra: Record<string, unknown> = {}) => k.ci({ ownerWorkGroup: { id: wg.id }, ...extra });
const short = (...cis: Named[]) => cis.map((c) => ({ id: c.id, name: c.name })).sort((a, b) => a.id - b.id);
const hierarchy = (list: Array<{ type: string; configItem: Named }>) => list.filter((e) => e.type === 'Hierarchy').map((e) => e.configItem.id);
const jsonAs = (contentType: string, body: string) => ({ body, headers: { 'content-type': contentType } });

// ---------------------------------------------------------------- #13 add a child

t.test('#13 200: the child CI model is returned, now under the parent', async (t) => {
  const [parent, child] = [await ciOf(wgA), await ciOf(wgA)];
  const at = k.tick();
  const answer = await addChild(parent.id, { id: child.id }, userA.token);
  t.equal(answer.status, 200);
  const m = answer.body;
  t.equal(m.id, child.id);
  t.same(m.parent, { id: parent.id, name: parent.name });
  t.same(m.incomingEdges, [{ type: 'Hierarchy', configItem: { id: parent.id, name: parent.name } }]);
  t.same([m.entityInfo.updatedAt, m.entityInfo.updatedBy], [at, userA.id]);
  t.same(hierarchy((await k.get(parent.id)).body.outgoingEdges), [child.id]);
});

t.test('#13 rule: a child that already has a parent is moved', async (t) => {
  const [oldParent, newParent] = [await ciOf(wgA), await ciOf(wgA)];
  const child = await k.ci({ parent: { id: oldParent.id } });
  const answer = await addChild(newParent.id, { id: child.id }, userA.token);
  t.equal(answer.status, 200);
  t.same(answer.body.parent, { id: newParent.id, name: newParent.name });
  t.same(hierarchy((await k.get(oldParent.id)).body.outgoingEdges), [], 'the former parent lists it no more');
  t.same(hierarchy((await k.get(newParent.id)).body.outgoingEdges), [child.id]);
  t.same(answer.body.incomingEdges.length, 1, 'one parent only');
});

t.test('#13 400: empty body', async (t) => {
  const parent = await ciOf(wgA);
  isProblem(t, await k.api('POST', `${CIS}/${parent.id}/children`, jsonAs('application/json', '')), 400, 'empty-body');
});

t.test('#13 400: invalid model', async (t) => {
  const parent = await ciOf(wgA);
  isProblem(t, await addChild(parent.id, { id: 'seven' }), 400, 'validation', undefined, '/id');
  isProblem(t, await addChild(parent.id, [1]), 400, 'validation');
});

t.test('#13 400: invalid CI id', async (t) => {
  const [parent, child] = [await ciOf(wgA), await ciOf(wgA)];
  for (const id of ['abc', '0', '-1']) isProblem(t, await addChild(id, { id: child.id }), 400, 'bad-request', /Invalid CI id/, '/parentId');
  for (const json of [{}, { id: null }, { id: 0 }, { id: -4 }, { id: 1.5 }]) isProblem(t, await addChild(parent.id, json), 400, 'bad-request', /Invalid child CI id/, '/id');
});

t.test('#13 400: CIs belong to different workgroups', async (t) => {
  const [parent, child] = [await ciOf(wgA), await ciOf(wgB)];
  isProblem(t, await addChild(parent.id, { id: child.id }), 400, 'bad-request', /different workgroups/);
  t.equal((await k.get(child.id)).body.parent, null, 'not linked');
});

t.test('#13 400: the link would close a cycle (or link a CI to itself)', async (t) => {
  const root = await ciOf(wgA);
  const mid = await k.ci({ parent: { id: root.id } });
  const leaf = await k.ci({ parent: { id: mid.id } });
  isProblem(t, await addChild(leaf.id, { id: root.id }), 400, 'validation', /cycle/, '/id');
  isProblem(t, await addChild(mid.id, { id: root.id }), 400, 'validation', /cycle/);
  isProblem(t, await addChild(root.id, { id: root.id }), 400, 'validation', /cycle/);
  t.equal((await k.get(root.id)).body.parent, null, 'the root stays a root');
});

t.test('#13 403: insufficient privileges on the parent', async (t) => {
  const [parent, child] = [await ciOf(wgA, { sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }] }), await ciOf(wgA)];
  isProblem(t, await addChild(parent.id, { id: child.id }, userB.token), 403, 'forbidden', new RegExp(`parent CI ${parent.id}`));
  const writerOfChild = await k.team('child-writer');
  await k.grant(child.id, writerOfChild.wg.id, 'ConfigItem', [WRITE]);
  isProblem(t, await addChild(parent.id, { id: child.id }, writerOfChild.user.token), 403, 'forbidden', /parent CI/, undefined);
  t.equal((await k.get(child.id)).body.parent, null, 'not linked');
});

t.test('#13 404: parent or child not found', async (t) => {
  const ci = await ciOf(wgA);
  isProblem(t, await addChild(747474, { id: ci.id }), 404, 'not-found', /Parent CI 747474 not found/);
  isProblem(t, await addChild(ci.id, { id: 757575 }), 404, 'not-found', /Child CI 757575 not found/);
});

t.test('#13 415: content type not JSON', async (t) => {
  const [parent, child] = [await ciOf(wgA), await ciOf(wgA)];
  isProblem(t, await k.api('POST', `${CIS}/${parent.id}/children`, jsonAs('text/plain', JSON.stringify({ id: child.id }))), 415, 'unsupported-media-type');
});

t.test('#13 401: not authorised', async (t) => {
  const [parent, child] = [await ciOf(wgA), await ciOf(wgA)];
  await isUnauthorised(t, k, 'POST', `${CIS}/${parent.id}/children`, { id: child.id });
});

// ---------------------------------------------------------------- #14 add an influencing CI

t.test('#14 200: returns the updated array of short CIs that impact the dependent CI', async (t) => {
  const [dependent, first, second] = [await ciOf(wgA), await ciOf(wgA), await ciOf(wgA)];
  const one = await addInfluential(dependent.id, { id: second.id }, userA.token);
  t.equal(one.status, 200);
  t.same(one.body, short(second));
  const two = await addInfluential(dependent.id, { id: first.id }, userA.token);
  t.same(two.body, short(first, second));
  t.same((await addInfluential(dependent.id, { id: first.id }, userA.token)).body, short(first, second), 'linking again changes nothing');
  const m = (await k.get(dependent.id)).body;
  t.same(
    m.incomingEdges.map((e: { type: string; configItem: Named }) => [e.type, e.configItem.id]).sort(),
    [
      ['Influence', first.id],
      ['Influence', second.id],
    ].sort(),
  );
});

t.test('#14 rule: the influencing CI needs only read, the dependent CI write', async (t) => {
  const dependent = await ciOf(wgA);
  const influencing = await ciOf(wgB, { sharedToWorkGroups: [{ workGroupId: wgA.id, shareType: 'ConfigItem', grants: [READ] }] });
  const answer = await addInfluential(dependent.id, { id: influencing.id }, userA.token);
  t.equal(answer.status, 200);
  t.same(answer.body, short(influencing));
});

t.test('#14 400: empty body', async (t) => {
  const dependent = await ciOf(wgA);
  isProblem(t, await k.api('POST', `${CIS}/${dependent.id}/influentials`, jsonAs('application/json', '')), 400, 'empty-body');
});

t.test('#14 400: invalid model', async (t) => {
  const dependent = await ciOf(wgA);
  isProblem(t, await addInfluential(dependent.id, { id: true }), 400, 'validation', undefined, '/id');
  isProblem(t, await k.api('POST', `${CIS}/${dependent.id}/influentials`, jsonAs('application/json', '{id:1}')), 400, 'invalid-json');
});

t.test('#14 400: invalid CI id', async (t) => {
  const [dependent, other] = [await ciOf(wgA), await ciOf(wgA)];
  for (const id of ['abc', '0']) isProblem(t, await addInfluential(id, { id: other.id }), 400, 'bad-request', /Invalid CI id/, '/dependentId');
  for (const json of [{}, { id: 0 }, { id: -2 }]) isProblem(t, await addInfluential(dependent.id, json), 400, 'bad-request', /Invalid influencing CI id/, '/id');
});

t.test('#14 400: a CI cannot influence itself', async (t) => {
  const ci = await ciOf(wgA);
  isProblem(t, await addInfluential(ci.id, { id: ci.id }), 400, 'validation', /cycle/, '/id');
  t.same((await k.get(ci.id)).body.incomingEdges, []);
});

t.test('#14 400: the link would close a cycle', async (t) => {
  const [a, b, c] = [await ciOf(wgA), await ciOf(wgA), await ciOf(wgA)];
  t.equal((await addInfluential(b.id, { id: a.id })).status, 200, 'a influences b');
  t.equal((await addInfluential(c.id, { id: b.id })).status, 200, 'b influences c');
  isProblem(t, await addInfluential(a.id, { id: c.id }), 400, 'validation', /cycle/, '/id');
  isProblem(t, await addInfluential(a.id, { id: b.id }), 400, 'validation', /cycle/);
  t.same((await k.get(a.id)).body.incomingEdges, [], 'a still depends on nothing');
});

t.test('#14 403: insufficient privileges on the dependent CI', async (t) => {
  const dependent = await ciOf(wgA, { sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'ConfigItem', grants: [READ] }] });
  const influencing = await ciOf(wgB);
  isProblem(t, await addInfluential(dependent.id, { id: influencing.id }, userB.token), 403, 'forbidden', new RegExp(`dependent CI ${dependent.id}`));
});

t.test('#14 403: insufficient privileges on the influencing CI', async (t) => {
  const dependent = await ciOf(wgA);
  const hidden = await ciOf(wgB);
  const basic = await ciOf(wgB, { sharedToWorkGroups: [{ workGroupId: wgA.id, shareType: 'ConfigItem', grants: [BASIC_READ] }] });
  for (const influencing of [hidden, basic]) {
    isProblem(t, await addInfluential(dependent.id, { id: influencing.id }, userA.token), 403, 'forbidden', new RegExp(`influencing CI ${influencing.id}`));
  }
  t.same((await k.get(dependent.id)).body.incomingEdges, [], 'not linked');
});

t.test('#14 404: dependent or influencing CI not found', async (t) => {
  const ci = await ciOf(wgA);
  isProblem(t, await addInfluential(767676, { id: ci.id }), 404, 'not-found', /Dependent CI 767676 not found/);
  isProblem(t, await addInfluential(ci.id, { id: 777777 }), 404, 'not-found', /Influencing CI 777777 not found/);
});

t.test('#14 415: content type not JSON', async (t) => {
  const [dependent, other] = [await ciOf(wgA), await ciOf(wgA)];
  isProblem(t, await k.api('POST', `${CIS}/${dependent.id}/influentials`, jsonAs('application/x-www-form-urlencoded', `id=${other.id}`)), 415, 'unsupported-media-type');
});

t.test('#14 401: not authorised', async (t) => {
  const [dependent, other] = [await ciOf(wgA), await ciOf(wgA)];
  await isUnauthorised(t, k, 'POST', `${CIS}/${dependent.id}/influentials`, { id: other.id });
});

// ---------------------------------------------------------------- #15 remove a child

t.test('#15 200: returns the former child CI, now with parent null', async (t) => {
  const parent = await ciOf(wgA);
  const child = await k.ci({ parent: { id: parent.id } });
  const grandChild = await k.ci({ parent: { id: child.id } });
  const answer = await removeChild(parent.id, child.id, userA.token);
  t.equal(answer.status, 200);
  t.equal(answer.body.id, child.id);
  t.equal(answer.body.parent, null);
  t.same(answer.body.incomingEdges, []);
  t.same(hierarchy(answer.body.outgoingEdges), [grandChild.id], 'its own children stay');
  t.same(answer.body.ownerWorkGroup, { id: wgA.id, name: wgA.name });
  t.same(hierarchy((await k.get(parent.id)).body.outgoingEdges), []);
});

t.test('#15 400: invalid CI id', async (t) => {
  const ci = await ciOf(wgA);
  isProblem(t, await removeChild('abc', ci.id), 400, 'bad-request', /Invalid CI id/, '/parentId');
  isProblem(t, await removeChild(ci.id, '0'), 400, 'bad-request', /Invalid CI id/, '/childId');
});

t.test('#15 403: insufficient privileges on the parent', async (t) => {
  const parent = await ciOf(wgA, { sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }] });
  const child = await k.ci({ parent: { id: parent.id } });
  isProblem(t, await removeChild(parent.id, child.id, userB.token), 403, 'forbidden', new RegExp(`parent CI ${parent.id}`));
  t.same((await k.get(child.id)).body.parent, { id: parent.id, name: parent.name }, 'still linked');
});

t.test('#15 404: parent or child not found', async (t) => {
  const parent = await ciOf(wgA);
  const child = await k.ci({ parent: { id: parent.id } });
  isProblem(t, await removeChild(787878, child.id), 404, 'not-found', /Parent CI 787878 not found/);
  isProblem(t, await removeChild(parent.id, 797979), 404, 'not-found', /Child CI 797979 not found/);
  const stranger = await ciOf(wgA);
  isProblem(t, await removeChild(parent.id, stranger.id), 404, 'not-found', /is not a child/);
});

t.test('#15 401: not authorised', async (t) => {
  const parent = await ciOf(wgA);
  const child = await k.ci({ parent: { id: parent.id } });
  await isUnauthorised(t, k, 'DELETE', `${CIS}/${parent.id}/children/${child.id}`);
});

// ---------------------------------------------------------------- #16 remove an influencing CI

t.test('#16 200: returns the updated array of short CIs that impact the dependent CI', async (t) => {
  const [dependent, first, second] = [await ciOf(wgA), await ciOf(wgA), await ciOf(wgA)];
  await addInfluential(dependent.id, { id: first.id });
  await addInfluential(dependent.id, { id: second.id });
  const answer = await removeInfluential(dependent.id, first.id, userA.token);
  t.equal(answer.status, 200);
  t.same(answer.body, short(second));
  t.same((await removeInfluential(dependent.id, second.id, userA.token)).body, []);
  t.same((await k.get(first.id)).body.outgoingEdges, []);
});

t.test('#16 400: invalid CI id', async (t) => {
  const ci = await ciOf(wgA);
  isProblem(t, await removeInfluential('x', ci.id), 400, 'bad-request', /Invalid CI id/, '/dependentId');
  isProblem(t, await removeInfluential(ci.id, '-5'), 400, 'bad-request', /Invalid CI id/, '/influentialId');
});

t.test('#16 403: insufficient privileges on the dependent CI', async (t) => {
  const dependent = await ciOf(wgA, { sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'ConfigItem', grants: [READ] }] });
  const influencing = await ciOf(wgB);
  t.equal((await addInfluential(dependent.id, { id: influencing.id })).status, 200);
  isProblem(t, await removeInfluential(dependent.id, influencing.id, userB.token), 403, 'forbidden', new RegExp(`dependent CI ${dependent.id}`));
});

t.test('#16 403: insufficient privileges on the influencing CI', async (t) => {
  const dependent = await ciOf(wgA);
  const influencing = await ciOf(wgB);
  t.equal((await addInfluential(dependent.id, { id: influencing.id })).status, 200, 'linked by the admin');
  isProblem(t, await removeInfluential(dependent.id, influencing.id, userA.token), 403, 'forbidden', new RegExp(`influencing CI ${influencing.id}`));
  t.equal((await k.get(dependent.id)).body.incomingEdges.length, 1, 'still linked');
});

t.test('#16 404: CI not found', async (t) => {
  const [dependent, other] = [await ciOf(wgA), await ciOf(wgA)];
  isProblem(t, await removeInfluential(808080, other.id), 404, 'not-found', /Dependent CI 808080 not found/);
  isProblem(t, await removeInfluential(dependent.id, 818181), 404, 'not-found', /Influencing CI 818181 not found/);
  isProblem(t, await removeInfluential(dependent.id, other.id), 404, 'not-found', /does not influence/);
});

t.test('#16 401: not authorised', async (t) => {
  const [dependent, other] = [await ciOf(wgA), await ciOf(wgA)];
  await addInfluential(dependent.id, { id: other.id });
  await isUnauthorised(t, k, 'DELETE', `${CIS}/${dependent.id}/influentials/${other.id}`);
});

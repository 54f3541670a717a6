/**
 * Spec 4.1 #8 (update a CI) and #7 (delete a CI): the success models, the rules of 4.1 and
 * DESIGN §4a (children move up, influence links go, applyGrants), and one test per condition of
 * spec 7.1 #7 and #8.
 */
import t from 'tap';
import { CIS, FULL_KEYS, isProblem, isUnauthorised, Kit, keys, type Named, READ, type User, WRITE } from './cmdb-kit.js';

const k = new Kit();
let wgA: Named;
let wgB: Named;
let userA: User;
let userA2: User;
let userB: User;
t.before(async () => {
  await k.start();
  ({ wg: wgA, user: userA } = await k.team('upd-a'));
  ({ wg: wgB, user: userB } = await k.team('upd-b'));
  userA2 = await k.user([wgA.id], k.uniq('upd-a-second'));
});
t.teardown(() => k.stop());

const put = (id: number | string, json: unknown, token?: string) => k.api('PUT', `${CIS}/${id}`, token ? { json, token } : { json });
const del = (id: number | string, query = '', token?: string) => k.api('DELETE', `${CIS}/${id}${query}`, token ? { token } : {});
const rootOfA = (extra: Record<string, unknown> = {}) => k.ci({ ownerWorkGroup: { id: wgA.id }, ...extra });

// ---------------------------------------------------------------- #8 update

t.test('#8 200: the updated CI carries the full model, field by field', async (t) => {
  const created = k.iso();
  const ci = await k.ci({ ownerWorkGroup: { id: wgA.id }, labels: { old: 'yes' }, description: 'before', cmdbLinks: [{ instanceId: 1, entityId: 'e', labels: [] }] }, userA.token);
  const child = await k.ci({ parent: { id: ci.id } });
  const type = await k.ciType();
  const system = await k.cmdbSystem();
  const updated = k.tick(5000);
  const name = k.uniq('renamed');
  const answer = await put(
    ci.id,
    { name, description: 'after', configItemType: { id: type.id }, ownerWorkGroup: { id: wgA.id }, labels: { env: ['prod', 'dr'], bare: null }, cmdbSystemId: system.id },
    userA2.token,
  );
  t.equal(answer.status, 200);
  const m = answer.body;
  t.same(keys(m), [...FULL_KEYS, 'cmdbSystem'].sort());
  t.equal(m.id, ci.id);
  t.equal(m.name, name);
  t.equal(m.description, 'after');
  t.equal(m.parent, null);
  t.same(m.ownerWorkGroup, { id: wgA.id, name: wgA.name });
  t.same(m.configItemType, type);
  t.same(m.labels, { env: ['prod', 'dr'], bare: null }, 'labels are replaced');
  t.same(m.cmdbSystem, { id: system.id, name: system.name });
  t.same(m.entityInfo, { createdAt: created, createdBy: userA.id, createdByName: userA.name, updatedAt: updated, updatedBy: userA2.id, updatedByName: userA2.name });
  t.same(m.incomingEdges, []);
  t.same(m.outgoingEdges, [{ type: 'Hierarchy', configItem: { id: child.id, name: child.name } }], 'links are kept');
  t.same(m.cmdbLinks, [{ instanceId: 1, entityId: 'e', labels: [] }], 'cmdbLinks are kept when not sent');
  t.same(m.sharedToWorkGroups, []);
  t.same((await k.get(ci.id)).body, m, '#12 answers the same model');
});

t.test('#8 rule: configItemType null assigns the default type', async (t) => {
  const type = await k.ciType();
  const ci = await rootOfA({ configItemType: { id: type.id } });
  const answer = await put(ci.id, { name: ci.name, ownerWorkGroup: { id: wgA.id }, configItemType: null });
  t.equal(answer.status, 200);
  t.same(answer.body.configItemType, k.defaultType);
});

t.test('#8 rule: cmdbSystemId -1 puts the CI back on the default CMDB (no cmdbSystem)', async (t) => {
  const system = await k.cmdbSystem();
  const ci = await rootOfA({ cmdbSystemId: system.id });
  const answer = await put(ci.id, { name: ci.name, ownerWorkGroup: { id: wgA.id }, cmdbSystemId: -1 });
  t.equal(answer.status, 200);
  t.notOk('cmdbSystem' in answer.body);
});

t.test('#8 rule: keeping its own name is no duplicate; the name of a CI of another type is free', async (t) => {
  const other = await k.ciType();
  const ci = await rootOfA();
  t.equal((await put(ci.id, { name: ci.name, ownerWorkGroup: { id: wgA.id }, description: 'same name' })).status, 200);
  const twin = await rootOfA({ configItemType: { id: other.id } });
  const answer = await put(twin.id, { name: ci.name, ownerWorkGroup: { id: wgA.id }, configItemType: { id: other.id } });
  t.equal(answer.status, 200);
  t.equal(answer.body.name, ci.name);
});

t.test('#8 rule: a renamed or deleted CI frees its name for its type', async (t) => {
  const renamed = await rootOfA();
  const deleted = await rootOfA();
  t.equal((await put(renamed.id, { name: k.uniq('new-name'), ownerWorkGroup: { id: wgA.id } })).status, 200);
  t.equal((await del(deleted.id)).status, 204);
  t.equal((await k.api('POST', CIS, { json: { name: renamed.name, ownerWorkGroup: { id: wgA.id } } })).status, 201, 'the old name of a renamed CI');
  t.equal((await k.api('POST', CIS, { json: { name: deleted.name, ownerWorkGroup: { id: wgA.id } } })).status, 201, 'the name of a deleted CI');
});

t.test('#8 rule: a child needs no ownerWorkGroup and keeps its parent’s', async (t) => {
  const parent = await rootOfA();
  const child = await k.ci({ parent: { id: parent.id } });
  const answer = await put(child.id, { name: child.name, ownerWorkGroup: null }, userA.token);
  t.equal(answer.status, 200);
  t.same(answer.body.ownerWorkGroup, { id: wgA.id, name: wgA.name });
  t.same(answer.body.parent, { id: parent.id, name: parent.name });
});

t.test('#8 rule: a new owner workgroup takes the subtree along', async (t) => {
  const root = await rootOfA();
  const child = await k.ci({ parent: { id: root.id } });
  const answer = await put(root.id, { name: root.name, ownerWorkGroup: { id: wgB.id } });
  t.equal(answer.status, 200);
  t.same(answer.body.ownerWorkGroup, { id: wgB.id, name: wgB.name });
  t.same((await k.get(child.id)).body.ownerWorkGroup, { id: wgB.id, name: wgB.name });
  t.equal((await k.get(child.id, userA.token)).status, 403, 'wgA lost it');
  t.equal((await k.get(child.id, userB.token)).status, 200, 'wgB holds it');
});

t.test('#8 400: empty body', async (t) => {
  const ci = await rootOfA();
  isProblem(t, await k.api('PUT', `${CIS}/${ci.id}`, { body: '', headers: { 'content-type': 'application/json' } }), 400, 'empty-body');
});

t.test('#8 400: invalid data model', async (t) => {
  const ci = await rootOfA();
  isProblem(t, await put(ci.id, { name: ci.name, ownerWorkGroup: { id: wgA.id }, labels: { env: 5 } }), 400, 'validation', undefined, '/labels/env');
  isProblem(t, await put(ci.id, { name: ['x'], ownerWorkGroup: { id: wgA.id } }), 400, 'validation', undefined, '/name');
});

t.test('#8 400: name missing', async (t) => {
  const ci = await rootOfA();
  isProblem(t, await put(ci.id, { ownerWorkGroup: { id: wgA.id } }), 400, 'bad-request', /name is missing/, '/name');
  isProblem(t, await put(ci.id, { name: '', ownerWorkGroup: { id: wgA.id } }), 400, 'bad-request', /name is missing/, '/name');
});

t.test('#8 400: owner workgroup missing', async (t) => {
  const ci = await rootOfA();
  isProblem(t, await put(ci.id, { name: ci.name }), 400, 'bad-request', /owner workgroup is missing/, '/ownerWorkGroup');
  isProblem(t, await put(ci.id, { name: ci.name, ownerWorkGroup: null }), 400, 'bad-request', /owner workgroup is missing/);
});

t.test('#8 400: invalid CI id', async (t) => {
  for (const id of ['abc', '0', '-3', '1.5']) isProblem(t, await put(id, { name: 'x', ownerWorkGroup: { id: wgA.id } }), 400, 'bad-request', /Invalid CI id/, '/id');
});

t.test('#8 400: invalid workgroup id', async (t) => {
  const ci = await rootOfA();
  for (const id of [0, -1, 3.5]) isProblem(t, await put(ci.id, { name: ci.name, ownerWorkGroup: { id } }), 400, 'bad-request', /Invalid workgroup id/, '/ownerWorkGroup/id');
});

t.test('#8 400: same name already exists with same type', async (t) => {
  const first = await rootOfA();
  const second = await rootOfA();
  isProblem(t, await put(second.id, { name: first.name, ownerWorkGroup: { id: wgA.id } }), 400, 'bad-request', /already exists with the same type/, '/name');
  t.equal((await k.get(second.id)).body.name, second.name, 'unchanged');
});

t.test('#8 400: CI type not found', async (t) => {
  const ci = await rootOfA();
  isProblem(t, await put(ci.id, { name: ci.name, ownerWorkGroup: { id: wgA.id }, configItemType: { id: 515151 } }), 400, 'bad-request', /CI type not found/, '/configItemType/id');
});

t.test('#8 403: insufficient privileges', async (t) => {
  const ci = await rootOfA({ sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'ConfigItem', grants: [READ] }] });
  isProblem(t, await put(ci.id, { name: 'mine', ownerWorkGroup: { id: wgA.id } }, userB.token), 403, 'forbidden', /Insufficient privileges to update/);
  const outsider = await k.user([]);
  isProblem(t, await put(ci.id, { name: 'mine', ownerWorkGroup: { id: wgA.id } }, outsider.token), 403, 'forbidden');
  isProblem(t, await put(ci.id, { name: ci.name, ownerWorkGroup: { id: wgB.id } }, userA.token), 403, 'forbidden', /No permission to give CI/);
  t.equal((await k.get(ci.id)).body.name, ci.name, 'unchanged');
});

t.test('#8 404: CI not found', async (t) => {
  isProblem(t, await put(818181, { name: 'ghost', ownerWorkGroup: { id: wgA.id } }), 404, 'not-found', /CI 818181 not found/);
});

t.test('#8 404: workgroup not found', async (t) => {
  const ci = await rootOfA();
  isProblem(t, await put(ci.id, { name: ci.name, ownerWorkGroup: { id: 727272 } }), 404, 'not-found', /Workgroup 727272 not found/);
});

t.test('#8 415: content type is not application/json', async (t) => {
  const ci = await rootOfA();
  isProblem(t, await k.api('PUT', `${CIS}/${ci.id}`, { body: JSON.stringify({ name: 'x' }), headers: { 'content-type': 'text/plain' } }), 415, 'unsupported-media-type');
});

t.test('#8 401: not authorised', async (t) => {
  const ci = await rootOfA();
  await isUnauthorised(t, k, 'PUT', `${CIS}/${ci.id}`, { name: 'x', ownerWorkGroup: { id: wgA.id } });
});

// ---------------------------------------------------------------- #7 delete

t.test('#7 204: the CI is deleted; the answer has no body', async (t) => {
  const ci = await k.ci({ ownerWorkGroup: { id: wgA.id } }, userA.token);
  const answer = await del(ci.id, '', userA.token);
  t.equal(answer.status, 204);
  t.equal(answer.text, '');
  isProblem(t, await k.get(ci.id), 404, 'not-found');
  t.notOk((await k.listed()).includes(ci.id), 'gone from the #4 list');
});

t.test('#7 rule: the children move to the deleted CI’s parent', async (t) => {
  const grand = await rootOfA();
  const mid = await k.ci({ parent: { id: grand.id } });
  const c1 = await k.ci({ parent: { id: mid.id } });
  const c2 = await k.ci({ parent: { id: mid.id } });
  t.equal((await del(mid.id)).status, 204);
  for (const c of [c1, c2]) t.same((await k.get(c.id)).body.parent, { id: grand.id, name: grand.name });
  t.same((await k.get(grand.id)).body.outgoingEdges, [
    { type: 'Hierarchy', configItem: { id: c1.id, name: c1.name } },
    { type: 'Hierarchy', configItem: { id: c2.id, name: c2.name } },
  ]);
});

t.test('#7 rule: the children of a deleted root become roots', async (t) => {
  const root = await rootOfA();
  const child = await k.ci({ parent: { id: root.id } });
  t.equal((await del(root.id)).status, 204);
  const after = (await k.get(child.id)).body;
  t.equal(after.parent, null);
  t.same(after.incomingEdges, []);
});

t.test('#7 rule: the influence links of the deleted CI go', async (t) => {
  const [up, mid, down] = [await rootOfA(), await rootOfA(), await rootOfA()];
  t.equal((await k.api('POST', `${CIS}/${mid.id}/influentials`, { json: { id: up.id } })).status, 200);
  t.equal((await k.api('POST', `${CIS}/${down.id}/influentials`, { json: { id: mid.id } })).status, 200);
  t.equal((await del(mid.id)).status, 204);
  t.same((await k.get(up.id)).body.outgoingEdges, [], 'the influential lists no dependent');
  t.same((await k.get(down.id)).body.incomingEdges, [], 'the dependent lists no influential');
});

/** A parent of wgA with a Tree grant for wgT, a ChildrenTree grant for wgC, a ConfigItem grant for wgI, and one child. */
async function grantedFamily() {
  const [tree, childrenTree, item] = [await k.team('tree'), await k.team('children-tree'), await k.team('item')];
  const parent = await rootOfA({
    sharedToWorkGroups: [
      { workGroupId: tree.wg.id, shareType: 'Tree', grants: [READ] },
      { workGroupId: childrenTree.wg.id, shareType: 'ChildrenTree', grants: [WRITE] },
      { workGroupId: item.wg.id, shareType: 'ConfigItem', grants: [WRITE] },
    ],
  });
  const child = await k.ci({ parent: { id: parent.id } });
  const grandChild = await k.ci({ parent: { id: child.id } });
  t.equal((await k.get(child.id, tree.user.token)).status, 200, 'the Tree grant reaches the child before the delete');
  t.equal((await k.get(child.id, childrenTree.user.token)).status, 200, 'the ChildrenTree grant reaches the child before the delete');
  return { parent, child, grandChild, tree, childrenTree, item };
}

t.test('#7 rule: applyGrants=true gives the children grants, so owner and Tree-grant members keep access', async (t) => {
  const { parent, child, grandChild, tree, childrenTree, item } = await grantedFamily();
  t.equal((await del(parent.id, '?applyGrants=true', userA.token)).status, 204);
  t.equal((await k.get(grandChild.id, tree.user.token)).status, 200, 'the copied Tree grant covers the grandchild too');
  t.equal((await k.get(child.id, userA.token)).status, 200, 'a member of the deleted CI’s owner workgroup keeps access');
  t.equal((await k.get(child.id, tree.user.token)).status, 200, 'a member of the Tree grant keeps read');
  const put1 = await put(child.id, { name: child.name, ownerWorkGroup: { id: wgA.id } }, tree.user.token);
  t.equal(put1.status, 403, 'a read grant stays a read grant');
  t.equal((await k.get(child.id, childrenTree.user.token)).status, 200, 'a member of the ChildrenTree grant keeps access');
  t.equal((await put(child.id, { name: child.name, ownerWorkGroup: { id: wgA.id } }, childrenTree.user.token)).status, 200, 'with its write right');
  t.equal((await k.get(child.id, item.user.token)).status, 403, 'a ConfigItem grant never reached the child');
  const grants = (await k.get(child.id)).body.sharedToWorkGroups;
  t.same(
    grants.map((g: { workGroupId: number; shareType: string; grants: string[] }) => [g.workGroupId, g.shareType, g.grants]),
    [
      [tree.wg.id, 'Tree', [READ]],
      [childrenTree.wg.id, 'Tree', [WRITE]],
    ],
  );
  t.ok(
    grants.every((g: { id: unknown }) => typeof g.id === 'number'),
    'the copied grants carry ids',
  );
});

t.test('#7 rule: applyGrants=false gives no grants, so a Tree-grant member loses access', async (t) => {
  const { parent, child, tree, childrenTree } = await grantedFamily();
  t.equal((await del(parent.id, '?applyGrants=false', userA.token)).status, 204);
  isProblem(t, await k.get(child.id, tree.user.token), 403, 'forbidden');
  isProblem(t, await k.get(child.id, childrenTree.user.token), 403, 'forbidden');
  t.equal((await k.get(child.id, userA.token)).status, 200, 'the owner workgroup still owns the child');
  t.same((await k.get(child.id)).body.sharedToWorkGroups, []);
});

t.test('#7 rule: applyGrants defaults to false', async (t) => {
  const { parent, child, tree } = await grantedFamily();
  t.equal((await del(parent.id)).status, 204);
  t.equal((await k.get(child.id, tree.user.token)).status, 403);
  t.same((await k.get(child.id)).body.sharedToWorkGroups, []);
});

t.test('#7 rule: applyGrants is a boolean: the spellings the query validator accepts as true (1, TRUE) apply the grants', async (t) => {
  for (const spelling of ['1', 'TRUE']) {
    const { parent, child, tree } = await grantedFamily();
    t.equal((await del(parent.id, `?applyGrants=${spelling}`)).status, 204, `applyGrants=${spelling} is accepted`);
    t.equal((await k.get(child.id, tree.user.token)).status, 200, `applyGrants=${spelling}: the Tree-grant member keeps access`);
  }
  const ci = await rootOfA();
  isProblem(t, await del(ci.id, '?applyGrants=yes'), 400, 'validation', /query/, '/applyGrants');
});

t.test('#7 400: invalid CI id', async (t) => {
  for (const id of ['abc', '0', '-7']) isProblem(t, await del(id), 400, 'bad-request', /Invalid CI id/, '/id');
});

t.test('#7 403: no permission to remove', async (t) => {
  const ci = await rootOfA({ sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }] });
  isProblem(t, await del(ci.id, '', userB.token), 403, 'forbidden', new RegExp(`No permission to remove CI ${ci.id}`));
  isProblem(t, await del(ci.id, '', (await k.user([])).token), 403, 'forbidden');
  t.equal((await k.get(ci.id)).status, 200, 'still there');
});

t.test('#7 404: CI not found', async (t) => {
  isProblem(t, await del(919191), 404, 'not-found', /CI 919191 not found/);
});

t.test('#7 401: not authorised', async (t) => {
  const ci = await rootOfA();
  await isUnauthorised(t, k, 'DELETE', `${CIS}/${ci.id}`);
  t.equal((await k.get(ci.id)).status, 200, 'still there');
});

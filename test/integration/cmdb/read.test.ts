/**
 * Spec 4.1 #1–#5 (reference lists, CI list, CI filter) and #12 (one CI): every filter rule of #5
 * as its own test, the visibility rule of the lists (basic-read), the #12 state and health shapes,
 * entityInfo, the edges of DESIGN §4a, and one test per condition of spec 7.1.
 */
import t from 'tap';
import { BASIC_READ, CIS, FULL_KEYS, ISO_MS, isProblem, isUnauthorised, Kit, keys, MONITORING_READ, type Named, READ, RSM, type User } from './cmdb-kit.js';

const k = new Kit();
let wgA: Named;
let wgB: Named;
let userA: User;
let userB: User;
t.before(async () => {
  await k.start();
  ({ wg: wgA, user: userA } = await k.team('read-a'));
  ({ wg: wgB, user: userB } = await k.team('read-b'));
});
t.teardown(() => k.stop());

const filter = async (json: unknown, token?: string): Promise<number[]> => {
  const answer = await k.api('POST', `${CIS}/filter`, token ? { json, token } : { json });
  if (answer.status !== 200) throw new Error(`filter: ${answer.status} ${answer.text}`);
  return answer.body.map((c: Named) => c.id);
};
const ciOfA = (extra: Record<string, unknown> = {}) => k.ci({ ownerWorkGroup: { id: wgA.id }, ...extra });
const ids = (...cis: Array<{ id: number }>) => cis.map((c) => c.id).sort((a, b) => a - b);
type Edge = { type: string; configItem: Named };
const edges = (list: Edge[]) => list.map((e) => [e.type, e.configItem.id, e.configItem.name]).sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));

// ---------------------------------------------------------------- #1–#3 reference lists

t.test('#1 200: every CI type, each with id, name and description', async (t) => {
  const type = await k.ciType();
  const answer = await k.api('GET', `${RSM}/config-item-types`, { token: userA.token });
  t.equal(answer.status, 200);
  t.ok(
    answer.body.every((x: object) => keys(x).join() === 'description,id,name'),
    'exactly id, name, description',
  );
  t.same(
    answer.body.find((x: Named) => x.id === k.defaultType.id),
    k.defaultType,
  );
  t.same(
    answer.body.find((x: Named) => x.id === type.id),
    type,
  );
});

t.test('#1 401: not authorised', async (t) => {
  await isUnauthorised(t, k, 'GET', `${RSM}/config-item-types`);
});

t.test('#2 200: every CMDB system, each with id and name', async (t) => {
  const system = await k.cmdbSystem();
  const answer = await k.api('GET', `${RSM}/cmdb-systems`, { token: userA.token });
  t.equal(answer.status, 200);
  t.ok(
    answer.body.every((x: object) => keys(x).join() === 'id,name'),
    'exactly id, name',
  );
  t.same(
    answer.body.find((x: Named) => x.id === system.id),
    system,
  );
});

t.test('#2 401: not authorised', async (t) => {
  await isUnauthorised(t, k, 'GET', `${RSM}/cmdb-systems`);
});

t.test('#3 200: every workgroup, each with id and name', async (t) => {
  const answer = await k.api('GET', `${RSM}/work-groups`, { token: userB.token });
  t.equal(answer.status, 200);
  t.ok(
    answer.body.every((x: object) => keys(x).join() === 'id,name'),
    'exactly id, name',
  );
  t.same(
    answer.body.find((x: Named) => x.id === wgA.id),
    wgA,
    'also workgroups the caller is not in',
  );
  t.same(
    answer.body.find((x: Named) => x.id === wgB.id),
    wgB,
  );
});

t.test('#3 401: not authorised', async (t) => {
  await isUnauthorised(t, k, 'GET', `${RSM}/work-groups`);
});

// ---------------------------------------------------------------- #4 list, #5 filter

t.test('#4 200: an array of short CIs (id, name)', async (t) => {
  const [a, b] = [await ciOfA(), await k.ci({ ownerWorkGroup: { id: wgB.id } })];
  const answer = await k.api('GET', CIS);
  t.equal(answer.status, 200);
  t.ok(
    answer.body.every((x: object) => keys(x).join() === 'id,name'),
    'exactly id, name',
  );
  t.same(
    answer.body.find((x: Named) => x.id === a.id),
    { id: a.id, name: a.name },
  );
  t.same(
    answer.body.find((x: Named) => x.id === b.id),
    { id: b.id, name: b.name },
    'the admin sees every CI',
  );
});

/** For a fresh team C: CIs of wgA reachable (or not) through each kind of grant, plus one of its own. */
async function visibilityFixture() {
  const c = await k.team('viewer');
  const hidden = await ciOfA();
  const item = await ciOfA({ sharedToWorkGroups: [{ workGroupId: c.wg.id, shareType: 'ConfigItem', grants: [BASIC_READ] }] });
  const tree = await ciOfA({ sharedToWorkGroups: [{ workGroupId: c.wg.id, shareType: 'Tree', grants: [MONITORING_READ] }] });
  const treeChild = await k.ci({ parent: { id: tree.id } });
  const childrenTree = await ciOfA({ sharedToWorkGroups: [{ workGroupId: c.wg.id, shareType: 'ChildrenTree', grants: [BASIC_READ] }] });
  const childrenTreeChild = await k.ci({ parent: { id: childrenTree.id } });
  const own = await k.ci({ ownerWorkGroup: { id: c.wg.id } });
  const ownChild = await k.ci({ parent: { id: own.id } });
  return { c, hidden, item, childrenTree, visible: ids(item, tree, treeChild, childrenTreeChild, own, ownChild) };
}

t.test('#4 rule: the list shows only the CIs the caller may basic-read', async (t) => {
  const f = await visibilityFixture();
  t.same(await k.listed(f.c.user.token), f.visible);
  t.notOk((await k.listed(f.c.user.token)).includes(f.hidden.id));
  isProblem(t, await k.get(f.item.id, f.c.user.token), 403, 'forbidden', /No right to view/);
});

t.test('#4 401: not authorised', async (t) => {
  await isUnauthorised(t, k, 'GET', CIS);
});

t.test('#5 200: an array of filtered CIs (id, name, labels)', async (t) => {
  const L = k.uniq('shape');
  const [a, b] = [await ciOfA({ labels: { [L]: 'x', more: ['1', '2'] } }), await ciOfA({ labels: { [L]: null } })];
  const answer = await k.api('POST', `${CIS}/filter`, { json: { labels: { [L]: null } } });
  t.equal(answer.status, 200);
  t.same(answer.body, [
    { id: a.id, name: a.name, labels: { [L]: 'x', more: ['1', '2'] } },
    { id: b.id, name: b.name, labels: { [L]: null } },
  ]);
});

t.test('#5 rule: ids — a CI matches when its id is one of the ids', async (t) => {
  const [a, b] = [await ciOfA(), await ciOfA()];
  t.same(await filter({ ids: [b.id, a.id, 999_999_999] }), ids(a, b));
  t.same(await filter({ ids: [a.id] }), ids(a));
});

t.test('#5 rule: names — a CI matches when its name is one of the names', async (t) => {
  const other = await k.ciType();
  const [a, b] = [await ciOfA(), await ciOfA()];
  const sameName = await ciOfA({ name: a.name, configItemType: { id: other.id } });
  t.same(await filter({ names: [a.name, b.name, 'no-such-name'] }), ids(a, b, sameName));
  t.same(await filter({ names: [b.name] }), ids(b));
});

t.test('#5 rule: labels — every label named in the filter must be present', async (t) => {
  const [L1, L2] = [k.uniq('l1'), k.uniq('l2')];
  const both = await ciOfA({ labels: { [L1]: 'x', [L2]: 'y' } });
  const one = await ciOfA({ labels: { [L1]: 'x' } });
  t.same(await filter({ labels: { [L1]: 'x', [L2]: 'y' } }), ids(both));
  t.same(await filter({ labels: { [L1]: null, [L2]: null } }), ids(both));
  t.same(await filter({ labels: { [L1]: 'x' } }), ids(both, one));
});

t.test('#5 rule: labels — a list of values matches a CI having at least one of them', async (t) => {
  const L = k.uniq('list');
  const a = await ciOfA({ labels: { [L]: 'a' } });
  const bc = await ciOfA({ labels: { [L]: ['b', 'c'] } });
  await ciOfA({ labels: { [L]: 'd' } });
  await ciOfA({ labels: { [L]: null } });
  t.same(await filter({ labels: { [L]: ['a', 'c'] } }), ids(a, bc));
  t.same(await filter({ labels: { [L]: ['z'] } }), []);
});

t.test('#5 rule: labels — a single value matches a CI whose label equals it or lists it', async (t) => {
  const L = k.uniq('single');
  const equal = await ciOfA({ labels: { [L]: 'v' } });
  const listing = await ciOfA({ labels: { [L]: ['u', 'v'] } });
  await ciOfA({ labels: { [L]: 'w' } });
  await ciOfA({ labels: { [L]: null } });
  t.same(await filter({ labels: { [L]: 'v' } }), ids(equal, listing));
});

t.test('#5 rule: labels — a null value matches on the label name only', async (t) => {
  const L = k.uniq('bare');
  const a = await ciOfA({ labels: { [L]: 'a' } });
  const bare = await ciOfA({ labels: { [L]: null } });
  const list = await ciOfA({ labels: { [L]: ['x'] } });
  await ciOfA({ labels: { [`${L}-other`]: 'a' } });
  await ciOfA({ labels: null });
  t.same(await filter({ labels: { [L]: null } }), ids(a, bare, list));
});

t.test('#5 rule: labels are matched on the current labels of a CI (after an update)', async (t) => {
  const [before, after] = [k.uniq('before'), k.uniq('after')];
  const ci = await ciOfA({ labels: { [before]: 'x' } });
  t.equal((await k.api('PUT', `${CIS}/${ci.id}`, { json: { name: ci.name, ownerWorkGroup: { id: wgA.id }, labels: { [after]: 'y' } } })).status, 200);
  t.same(await filter({ labels: { [before]: null } }), [], 'the old label no longer matches');
  t.same(await filter({ labels: { [after]: 'y' } }), ids(ci));
});

t.test('#5 rule: null fields mean any', async (t) => {
  await ciOfA({ labels: null });
  const all = await k.listed();
  t.same(await filter({ ids: null, names: null, labels: null }), all);
  t.same(await filter({}), all, 'absent fields too');
});

t.test('#5 rule: an empty labels object names no label, so it places no condition', async (t) => {
  const unlabelled = await ciOfA({ labels: null });
  const emptyLabels = await ciOfA({ labels: {} });
  const labelled = await ciOfA({ labels: { some: 'x' } });
  t.same(await filter({ ids: [unlabelled.id, emptyLabels.id, labelled.id], labels: {} }), ids(unlabelled, emptyLabels, labelled));
});

t.test('#5 rule: ids, names and labels must all match', async (t) => {
  const L = k.uniq('and');
  const a = await ciOfA({ labels: { [L]: 'x' } });
  const b = await ciOfA({ labels: { [L]: 'y' } });
  t.same(await filter({ ids: [a.id, b.id], names: [a.name, b.name], labels: { [L]: 'x' } }), ids(a));
  t.same(await filter({ ids: [a.id], names: [b.name] }), []);
});

t.test('#5 rule: the filter shows only the CIs the caller may basic-read', async (t) => {
  const f = await visibilityFixture();
  t.same(await filter({}, f.c.user.token), f.visible);
  t.same(await filter({ ids: [f.hidden.id, f.childrenTree.id] }, f.c.user.token), [], 'not even when asked by id');
  t.same(await filter({ ids: [f.hidden.id] }), [f.hidden.id], 'the admin sees it');
});

t.test('#5 401: not authorised', async (t) => {
  await isUnauthorised(t, k, 'POST', `${CIS}/filter`, {});
});

// ---------------------------------------------------------------- #12 one CI

t.test('#12 200: the full model, without state and health unless asked', async (t) => {
  const ci = await ciOfA({ labels: { k: 'v' } });
  for (const query of ['', '?includeState=false&includeHealth=false']) {
    const answer = await k.get(ci.id, userA.token, query);
    t.equal(answer.status, 200);
    t.same(keys(answer.body), FULL_KEYS, `no state or health (${query || 'no query'})`);
    t.same(answer.body, ci);
  }
});

t.test('#12 rule: includeState=true adds state {value, valueUnderMaintenance, Timestamp}', async (t) => {
  const ci = await ciOfA();
  const answer = await k.get(ci.id, userA.token, '?includeState=true');
  t.equal(answer.status, 200);
  t.same(keys(answer.body), [...FULL_KEYS, 'state'].sort(), 'state only');
  const { state } = answer.body;
  t.same(keys(state), ['Timestamp', 'value', 'valueUnderMaintenance'], 'Timestamp is capitalised');
  t.equal(state.value, 'Unknown');
  t.equal(state.valueUnderMaintenance, 'Unknown');
  t.match(state.Timestamp, ISO_MS);
});

t.test('#12 rule: includeHealth=true adds healthStatus and healthInfluence', async (t) => {
  const ci = await ciOfA();
  const answer = await k.get(ci.id, userA.token, '?includeHealth=true');
  t.equal(answer.status, 200);
  t.same(keys(answer.body), [...FULL_KEYS, 'healthInfluence', 'healthStatus'].sort(), 'health only');
  const { healthStatus, healthInfluence } = answer.body;
  t.same(keys(healthStatus), ['calculation', 'timestamp', 'value']);
  t.equal(healthStatus.value, 100);
  t.match(healthStatus.timestamp, ISO_MS);
  t.same(keys(healthStatus.calculation), ['direct', 'resultBy', 'weight']);
  t.equal(healthStatus.calculation.resultBy, 'Direct');
  t.type(healthStatus.calculation.direct, 'number');
  t.type(healthStatus.calculation.weight, 'number');
  t.same(keys(healthInfluence), ['maxInfluence', 'value']);
  t.type(healthInfluence.value, 'number');
  t.type(healthInfluence.maxInfluence, 'boolean');
  const both = await k.get(ci.id, userA.token, '?includeState=true&includeHealth=true');
  t.same(keys(both.body), [...FULL_KEYS, 'healthInfluence', 'healthStatus', 'state'].sort(), 'both when both are asked');
});

t.test('#12 rule: includeState and includeHealth are booleans: the spellings the query validator accepts as true (1, TRUE) include them', async (t) => {
  const ci = await ciOfA();
  for (const spelling of ['1', 'TRUE']) {
    const answer = await k.get(ci.id, userA.token, `?includeState=${spelling}&includeHealth=${spelling}`);
    t.equal(answer.status, 200, `${spelling} is accepted`);
    t.same(keys(answer.body), [...FULL_KEYS, 'healthInfluence', 'healthStatus', 'state'].sort(), `${spelling}: state and health are included`);
  }
  isProblem(t, await k.get(ci.id, userA.token, '?includeState=yes'), 400, 'validation', /query/, '/includeState');
});

t.test('#12 rule: entityInfo holds ISO 8601 UTC times with milliseconds and the user id and name', async (t) => {
  k.tick(7);
  const createdAt = k.iso();
  const ci = await ciOfA();
  await k.api('PUT', `${CIS}/${ci.id}`, { token: userA.token, json: { name: ci.name, ownerWorkGroup: { id: wgA.id } } }).then((a) => t.equal(a.status, 200));
  k.tick(1234);
  const updatedAt = k.iso();
  t.equal((await k.grant(ci.id, wgB.id, 'Tree', [READ])) !== undefined, true);
  const { entityInfo } = (await k.get(ci.id, userB.token)).body;
  t.same(keys(entityInfo), ['createdAt', 'createdBy', 'createdByName', 'updatedAt', 'updatedBy', 'updatedByName']);
  t.match(entityInfo.createdAt, ISO_MS);
  t.match(entityInfo.updatedAt, ISO_MS);
  t.same(entityInfo, { createdAt, createdBy: k.admin.id, createdByName: k.admin.name, updatedAt, updatedBy: k.admin.id, updatedByName: k.admin.name });
  t.not(entityInfo.createdAt.slice(-4), '000Z', 'the milliseconds are kept');
});

t.test('#12 rule: edges — Hierarchy from parent to child, Influence from influential to dependent', async (t) => {
  const parent = await ciOfA();
  const ci = await k.ci({ parent: { id: parent.id } });
  const child = await k.ci({ parent: { id: ci.id } });
  const [influential, dependent] = [await ciOfA(), await ciOfA()];
  t.equal((await k.api('POST', `${CIS}/${ci.id}/influentials`, { json: { id: influential.id } })).status, 200);
  t.equal((await k.api('POST', `${CIS}/${dependent.id}/influentials`, { json: { id: ci.id } })).status, 200);
  const m = (await k.get(ci.id, userA.token)).body;
  t.same(edges(m.incomingEdges), [
    ['Hierarchy', parent.id, parent.name],
    ['Influence', influential.id, influential.name],
  ]);
  t.same(edges(m.outgoingEdges), [
    ['Hierarchy', child.id, child.name],
    ['Influence', dependent.id, dependent.name],
  ]);
  t.ok(
    m.incomingEdges.every((e: Edge) => keys(e).join() === 'configItem,type' && keys(e.configItem).join() === 'id,name'),
    'edge shape',
  );
  t.same(edges((await k.get(parent.id)).body.outgoingEdges), [['Hierarchy', ci.id, ci.name]]);
  t.same(edges((await k.get(child.id)).body.incomingEdges), [['Hierarchy', ci.id, ci.name]]);
  t.same(edges((await k.get(influential.id)).body.outgoingEdges), [['Influence', ci.id, ci.name]]);
  t.same(edges((await k.get(dependent.id)).body.incomingEdges), [['Influence', ci.id, ci.name]]);
});

t.test('#12 rule: the answer follows every change of what it names: its own fields, the CIs on its edges, its workgroup', async (t) => {
  // Plain answers are kept as bytes between reads (ci-view-bytes.ts): each read below comes after
  // one read of the same CI, so a kept answer that outlived a change would show here.
  const parent = await ciOfA();
  const ci = await k.ci({ parent: { id: parent.id } });
  const influential = await ciOfA();
  t.equal((await k.api('POST', `${CIS}/${ci.id}/influentials`, { json: { id: influential.id } })).status, 200);
  const read = async () => (await k.get(ci.id, userA.token)).body;
  t.equal((await read()).name, ci.name);

  const ownName = k.uniq('renamed');
  t.equal((await k.api('PUT', `${CIS}/${ci.id}`, { json: { name: ownName } })).status, 200);
  t.equal((await read()).name, ownName, 'its own new name');

  const parentName = k.uniq('parent');
  t.equal((await k.api('PUT', `${CIS}/${parent.id}`, { json: { name: parentName, ownerWorkGroup: { id: wgA.id } } })).status, 200);
  t.same((await read()).parent, { id: parent.id, name: parentName }, 'the parent’s new name');

  const influentialName = k.uniq('influential');
  t.equal((await k.api('PUT', `${CIS}/${influential.id}`, { json: { name: influentialName, ownerWorkGroup: { id: wgA.id } } })).status, 200);
  t.same(edges((await read()).incomingEdges), [
    ['Hierarchy', parent.id, parentName],
    ['Influence', influential.id, influentialName],
  ]);

  const child = await k.ci({ parent: { id: ci.id } });
  t.same(edges((await read()).outgoingEdges), [['Hierarchy', child.id, child.name]], 'a new child');

  t.same((await k.get(parent.id, userA.token)).body.ownerWorkGroup, { id: wgA.id, name: wgA.name });
  const groupName = k.uniq('wg');
  t.equal((await k.api('PATCH', `/api/admin/v1/work-groups/${wgA.id}`, { json: { name: groupName } })).status, 200);
  t.same((await k.get(parent.id, userA.token)).body.ownerWorkGroup, { id: wgA.id, name: groupName }, 'the workgroup’s new name');
  wgA.name = groupName;
});

t.test('#12 rule: each CI is answered with its own model, whatever id a client chose for it (2^32 apart, near 2^53)', async (t) => {
  // Kept answers are found by id (ci-view-bytes.ts): ids that agree in their low 32 bits, or that
  // are far past the generated ones, must not share one.
  const low = 800_000 + Math.floor(Math.random() * 1000);
  const cis = [await ciOfA({ id: low }), await ciOfA({ id: low + 2 ** 32 }), await ciOfA({ id: Number.MAX_SAFE_INTEGER - low })];
  for (let round = 0; round < 2; round++) {
    for (const ci of cis) {
      const body = (await k.get(ci.id, userA.token)).body;
      t.same([body.id, body.name], [ci.id, ci.name], `CI ${ci.id}, read ${round + 1}`);
    }
  }
});

t.test('#12 rule: a member of the owner workgroup of an ancestor, and a platform admin, may read', async (t) => {
  const root = await ciOfA();
  const leaf = await k.ci({ parent: { id: (await k.ci({ parent: { id: root.id } })).id } });
  t.equal((await k.get(leaf.id, userA.token)).status, 200);
  t.equal((await k.get(leaf.id)).status, 200, 'the admin is in no workgroup');
});

t.test('#12 400: invalid CI id', async (t) => {
  for (const id of ['abc', '0', '-1', '2.5']) isProblem(t, await k.api('GET', `${CIS}/${id}`), 400, 'bad-request', /Invalid CI id/, '/id');
});

t.test('#12 403: no right to view', async (t) => {
  const ci = await ciOfA({ sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'ConfigItem', grants: [BASIC_READ, MONITORING_READ] }] });
  isProblem(t, await k.get(ci.id, userB.token), 403, 'forbidden', new RegExp(`No right to view CI ${ci.id}`));
  isProblem(t, await k.get(ci.id, (await k.user([])).token), 403, 'forbidden');
  t.ok((await k.listed(userB.token)).includes(ci.id), 'basic-read lists it nonetheless');
});

t.test('#12 404: CI not found', async (t) => {
  isProblem(t, await k.get(737373), 404, 'not-found', /CI 737373 not found/);
});

t.test('#12 401: not authorised', async (t) => {
  const ci = await ciOfA();
  await isUnauthorised(t, k, 'GET', `${CIS}/${ci.id}`);
});

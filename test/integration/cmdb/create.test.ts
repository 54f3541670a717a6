/**
 * Spec 4.1 #6 (create a CI): the success model field by field, every rule of 4.1 #6 and
 * DESIGN §4a, and one test per condition of spec 7.1 #6.
 */
import t from 'tap';
import { CIS, FULL_KEYS, ISO_MS, isProblem, isUnauthorised, Kit, keys, type Named, READ, type User, WRITE } from './cmdb-kit.js';

const k = new Kit();
let wgA: Named;
let wgB: Named;
let userA: User;
let userB: User;
t.before(async () => {
  await k.start();
  ({ wg: wgA, user: userA } = await k.team('create-a'));
  ({ wg: wgB, user: userB } = await k.team('create-b'));
});
t.teardown(() => k.stop());

const post = (json: unknown, token?: string) => k.api('POST', CIS, token ? { json, token } : { json });

t.test('#6 201: a member creates a CI in its workgroup; the answer is the full model, field by field', async (t) => {
  const type = await k.ciType();
  const at = k.tick();
  const body = {
    name: k.uniq('web'),
    description: 'Front web server',
    ownerWorkGroup: { id: wgA.id },
    configItemType: { id: type.id },
    labels: { env: 'prod', tier: ['a', 'b'], critical: null },
    cmdbSystemId: -1,
    cmdbLinks: [{ instanceId: 7, entityId: 'srv-42', labels: ['x'] }],
    sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'Tree', grants: [READ] }],
  };
  const answer = await post(body, userA.token);
  t.equal(answer.status, 201);
  t.match(answer.headers.get('content-type'), /^application\/json/);
  const ci = answer.body;
  t.same(keys(ci), FULL_KEYS, 'exactly the fields of the model: no state, health or cmdbSystem');
  t.ok(Number.isSafeInteger(ci.id) && ci.id > 0, 'a generated positive id');
  t.equal(ci.name, body.name);
  t.equal(ci.description, 'Front web server');
  t.equal(ci.parent, null);
  t.same(ci.ownerWorkGroup, { id: wgA.id, name: wgA.name });
  t.same(ci.configItemType, { id: type.id, name: type.name, description: type.description });
  t.same(ci.labels, { env: 'prod', tier: ['a', 'b'], critical: null });
  t.same(ci.entityInfo, { createdAt: at, createdBy: userA.id, createdByName: userA.name, updatedAt: at, updatedBy: userA.id, updatedByName: userA.name });
  t.match(ci.entityInfo.createdAt, ISO_MS);
  t.same(ci.incomingEdges, []);
  t.same(ci.outgoingEdges, []);
  t.same(ci.cmdbLinks, [{ instanceId: 7, entityId: 'srv-42', labels: ['x'] }]);
  t.equal(ci.sharedToWorkGroups.length, 1);
  const [grant] = ci.sharedToWorkGroups;
  t.same(keys(grant), ['grants', 'id', 'shareType', 'workGroupId']);
  t.type(grant.id, 'number');
  t.same({ workGroupId: grant.workGroupId, shareType: grant.shareType, grants: grant.grants }, { workGroupId: wgB.id, shareType: 'Tree', grants: [READ] });
  const read = await k.get(ci.id);
  t.equal(read.status, 200);
  t.same(read.body, ci, '#12 answers the same model');
  t.equal((await k.get(ci.id, userB.token)).status, 200, 'the Tree grant given at creation lets wgB read it');
});

t.test('#6 rule: when a parent is given the owner workgroup is taken from the parent', async (t) => {
  const parent = await k.ci({ ownerWorkGroup: { id: wgA.id } });
  const child = await k.ci({ parent: { id: parent.id }, ownerWorkGroup: { id: wgB.id } });
  t.same(child.parent, { id: parent.id, name: parent.name });
  t.same(child.ownerWorkGroup, { id: wgA.id, name: wgA.name }, 'the parent’s workgroup, not the one in the body');
  t.same(child.incomingEdges, [{ type: 'Hierarchy', configItem: { id: parent.id, name: parent.name } }]);
  const withoutOwner = await post({ name: k.uniq('child'), parent: { id: parent.id } }, userA.token);
  t.equal(withoutOwner.status, 201, 'no ownerWorkGroup needed under a parent');
  t.same(withoutOwner.body.ownerWorkGroup, { id: wgA.id, name: wgA.name });
  const p = await k.get(parent.id);
  t.same(
    p.body.outgoingEdges.map((e: { type: string; configItem: Named }) => [e.type, e.configItem.id]),
    [
      ['Hierarchy', child.id],
      ['Hierarchy', withoutOwner.body.id],
    ],
  );
});

t.test('#6 rule: parent id 0 makes the CI a root', async (t) => {
  const ci = await k.ci({ parent: { id: 0 }, ownerWorkGroup: { id: wgA.id } });
  t.equal(ci.parent, null);
  t.same(ci.incomingEdges, []);
  t.same(ci.ownerWorkGroup, { id: wgA.id, name: wgA.name });
});

t.test('#6 rule: parent null makes the CI a root', async (t) => {
  const ci = await k.ci({ parent: null, ownerWorkGroup: { id: wgA.id } });
  t.equal(ci.parent, null);
  t.same(ci.incomingEdges, []);
});

t.test('#6 rule: the name is unique per CI type; the same name with another type is allowed', async (t) => {
  const other = await k.ciType();
  const name = k.uniq('db');
  const first = await k.ci({ name, ownerWorkGroup: { id: wgA.id } });
  const second = await post({ name, ownerWorkGroup: { id: wgA.id }, configItemType: { id: other.id } });
  t.equal(second.status, 201);
  t.not(second.body.id, first.id);
  t.equal(second.body.configItemType.id, other.id);
  const caseVariant = await post({ name: name.toUpperCase(), ownerWorkGroup: { id: wgA.id } });
  t.equal(caseVariant.status, 201, 'names are compared exactly (DESIGN §4a)');
});

t.test('#6 rule: configItemType null (or absent) assigns the default CI type', async (t) => {
  const nulled = await k.ci({ ownerWorkGroup: { id: wgA.id }, configItemType: null });
  t.same(nulled.configItemType, k.defaultType);
  t.equal(k.defaultType.name, 'Default');
  const absent = await k.ci({ ownerWorkGroup: { id: wgA.id } });
  t.same(absent.configItemType, k.defaultType);
});

t.test('#6 rule: cmdbSystemId -1 is the default CMDB and shows no cmdbSystem', async (t) => {
  const ci = await k.ci({ ownerWorkGroup: { id: wgA.id }, cmdbSystemId: -1 });
  t.notOk('cmdbSystem' in ci);
  t.notOk('cmdbSystem' in (await k.get(ci.id)).body);
});

t.test('#6 rule: a CI created on another CMDB system shows cmdbSystem', async (t) => {
  const system = await k.cmdbSystem();
  const ci = await k.ci({ ownerWorkGroup: { id: wgA.id }, cmdbSystemId: system.id });
  t.same(ci.cmdbSystem, { id: system.id, name: system.name });
  t.same((await k.get(ci.id)).body.cmdbSystem, { id: system.id, name: system.name });
});

t.test('#6 rule: each sharedToWorkGroups element carries its own id', async (t) => {
  const ci = await k.ci({
    ownerWorkGroup: { id: wgA.id },
    sharedToWorkGroups: [
      { workGroupId: wgB.id, shareType: 'ConfigItem', grants: [READ] },
      { workGroupId: 0, shareType: 'Tree', grants: [WRITE] },
    ],
  });
  const ids = ci.sharedToWorkGroups.map((g: { id: number }) => g.id);
  t.equal(ids.length, 2);
  t.ok(
    ids.every((id: unknown) => Number.isSafeInteger(id) && (id as number) > 0),
    'positive integer ids',
  );
  t.not(ids[0], ids[1], 'distinct ids');
  t.same(
    ci.sharedToWorkGroups.map((g: { workGroupId: number; shareType: string }) => [g.workGroupId, g.shareType]),
    [
      [wgB.id, 'ConfigItem'],
      [0, 'Tree'],
    ],
  );
});

t.test('#6 rule: a client may supply its own unused id; generated ids keep increasing past it', async (t) => {
  const own = 900_000 + Math.floor(Math.random() * 1000);
  const ci = await k.ci({ id: own, ownerWorkGroup: { id: wgA.id } });
  t.equal(ci.id, own);
  const next = await k.ci({ id: null, ownerWorkGroup: { id: wgA.id } });
  t.ok(next.id > own, `generated id ${next.id} > ${own}`);
  const concurrent = await Promise.all([1, 2, 3, 4, 5, 6].map(() => post({ name: k.uniq('burst'), ownerWorkGroup: { id: wgA.id } })));
  const ids = concurrent.map((a) => a.body.id as number);
  t.equal(new Set(ids).size, 6, 'concurrent creates get distinct ids');
  t.ok(
    ids.every((id) => id > next.id),
    'all above the previous ones',
  );
});

t.test('#6 400: empty body', async (t) => {
  const answer = await k.api('POST', CIS, { body: '', headers: { 'content-type': 'application/json' } });
  isProblem(t, answer, 400, 'empty-body', /empty/);
});

t.test('#6 400: invalid data model', async (t) => {
  isProblem(t, await post({ name: 42, ownerWorkGroup: { id: wgA.id } }), 400, 'validation', undefined, '/name');
  isProblem(t, await post({ name: 'x', ownerWorkGroup: { id: 'one' } }), 400, 'validation', undefined, '/ownerWorkGroup/id');
  isProblem(t, await post({ name: 'x', ownerWorkGroup: { id: wgA.id }, sharedToWorkGroups: [{ workGroupId: wgB.id, shareType: 'Everything', grants: [] }] }), 400, 'validation');
  isProblem(t, await k.api('POST', CIS, { body: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 'invalid-json');
});

t.test('#6 400: name missing', async (t) => {
  for (const body of [{ ownerWorkGroup: { id: wgA.id } }, { name: null, ownerWorkGroup: { id: wgA.id } }, { name: '  ', ownerWorkGroup: { id: wgA.id } }]) {
    isProblem(t, await post(body), 400, 'bad-request', /name is missing/, '/name');
  }
});

t.test('#6 400: owner workgroup missing', async (t) => {
  isProblem(t, await post({ name: k.uniq('orphan') }), 400, 'bad-request', /owner workgroup is missing/, '/ownerWorkGroup');
  isProblem(t, await post({ name: k.uniq('orphan'), ownerWorkGroup: null, parent: { id: 0 } }), 400, 'bad-request', /owner workgroup is missing/);
});

t.test('#6 400: invalid CI id', async (t) => {
  for (const id of [-5, 0, 1.5]) isProblem(t, await post({ id, name: k.uniq('bad-id'), ownerWorkGroup: { id: wgA.id } }), 400, 'bad-request', /Invalid CI id/, '/id');
});

t.test('#6 400: invalid workgroup id', async (t) => {
  for (const id of [0, -2, 2.5]) isProblem(t, await post({ name: k.uniq('bad-wg'), ownerWorkGroup: { id } }), 400, 'bad-request', /Invalid workgroup id/, '/ownerWorkGroup/id');
});

t.test('#6 400: a CI with the given id already exists', async (t) => {
  const ci = await k.ci({ ownerWorkGroup: { id: wgA.id } });
  isProblem(t, await post({ id: ci.id, name: k.uniq('dup-id'), ownerWorkGroup: { id: wgA.id } }), 400, 'bad-request', new RegExp(`CI with id ${ci.id} already exists`), '/id');
  t.equal((await k.get(ci.id)).body.name, ci.name, 'the existing CI is untouched');
});

t.test('#6 400: parent CI does not exist', async (t) => {
  isProblem(t, await post({ name: k.uniq('lost'), parent: { id: 987654 } }), 400, 'bad-request', /Parent CI 987654 does not exist/, '/parent/id');
});

t.test('#6 400: a CI with the same name already exists with the same type', async (t) => {
  const ci = await k.ci({ ownerWorkGroup: { id: wgA.id } });
  const again = await post({ name: ci.name, ownerWorkGroup: { id: wgB.id }, configItemType: { id: k.defaultType.id } });
  isProblem(t, again, 400, 'bad-request', /already exists with the same type/, '/name');
  const name = k.uniq('race');
  const racing = await Promise.all([1, 2, 3, 4, 5].map(() => post({ name, ownerWorkGroup: { id: wgA.id } })));
  t.same(racing.map((a) => a.status).sort(), [201, 400, 400, 400, 400], 'five concurrent creates of one name: exactly one wins');
});

t.test('#6 400: CI type not found', async (t) => {
  isProblem(
    t,
    await post({ name: k.uniq('typeless'), ownerWorkGroup: { id: wgA.id }, configItemType: { id: 424242 } }),
    400,
    'bad-request',
    /CI type not found/,
    '/configItemType/id',
  );
});

t.test('#6 403: no permission to add a CI to the workgroup', async (t) => {
  const name = k.uniq('intruder');
  isProblem(t, await post({ name, ownerWorkGroup: { id: wgB.id } }, userA.token), 403, 'forbidden', new RegExp(`workgroup ${wgB.id}`));
  const parentOfB = await k.ci({ ownerWorkGroup: { id: wgB.id }, sharedToWorkGroups: [{ workGroupId: wgA.id, shareType: 'Tree', grants: [READ] }] });
  isProblem(t, await post({ name, parent: { id: parentOfB.id } }, userA.token), 403, 'forbidden', new RegExp(`under CI ${parentOfB.id}`));
  const found = await k.api('POST', `${CIS}/filter`, { json: { names: [name] } });
  t.same(found.body, [], 'nothing was created');
});

t.test('#6 404: workgroup not found', async (t) => {
  isProblem(t, await post({ name: k.uniq('nowhere'), ownerWorkGroup: { id: 777777 } }), 404, 'not-found', /Workgroup 777777 not found/);
});

t.test('#6 415: content type is not application/json', async (t) => {
  const body = JSON.stringify({ name: k.uniq('text'), ownerWorkGroup: { id: wgA.id } });
  isProblem(t, await k.api('POST', CIS, { body, headers: { 'content-type': 'text/plain' } }), 415, 'unsupported-media-type', /application\/json/);
  isProblem(t, await k.api('POST', CIS, { body, headers: { 'content-type': 'application/xml' } }), 415, 'unsupported-media-type');
});

t.test('#6 401: not authorised', async (t) => {
  await isUnauthorised(t, k, 'POST', CIS, { name: k.uniq('anon'), ownerWorkGroup: { id: wgA.id } });
});

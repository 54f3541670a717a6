/**
 * Issue #15: rights that cannot be escalated. Workgroups A and B; user ub is in B only and holds
 * grants on A's CI a1. Moving a CI needs the right to change the CI moved and its new place;
 * giving a CI to another workgroup needs to be a member of its owner workgroup (and of the new
 * one), never a grantee's write. A child the caller may not see is answered as absent (404, as
 * spec 7.1 #13 answers a child that does not exist).
 */
import t from 'tap';
import { CIS, isProblem, Kit, type Named, READ, type User, WRITE } from './cmdb-kit.js';

const k = new Kit();
let wgA: Named;
let wgB: Named;
let ua: User;
let ub: User;
t.before(async () => {
  await k.start();
  ({ wg: wgA, user: ua } = await k.team('esc-a'));
  ({ wg: wgB, user: ub } = await k.team('esc-b'));
});
t.teardown(() => k.stop());

const ciOfA = (extra: Record<string, unknown> = {}) => k.ci({ ownerWorkGroup: { id: wgA.id }, ...extra });
const addChild = (parentId: number, childId: number, token: string) => k.api('POST', `${CIS}/${parentId}/children`, { json: { id: childId }, token });
const removeChild = (parentId: number, childId: number, token: string) => k.api('DELETE', `${CIS}/${parentId}/children/${childId}`, { token });
const parentOf = async (id: number): Promise<number | null> => (await k.get(id)).body.parent?.id ?? null;

t.test('a ConfigItem write grant on a1 does not let ub pull an unshared CI of A under it: 404, nothing moves', async (t) => {
  const a1 = await ciOfA();
  const a4 = await ciOfA();
  await k.grant(a1.id, wgB.id, 'ConfigItem', [WRITE]);
  isProblem(t, await addChild(a1.id, a4.id, ub.token), 404, 'not-found', /Child CI \d+ not found/);
  t.equal(await parentOf(a4.id), null, 'a4 stays where it was');
});

t.test('a Tree grant on a1 does not let ub pull a CI it can only read under it: 403, and it stays unreadable', async (t) => {
  const a1 = await ciOfA();
  const a5 = await ciOfA();
  const a6 = await ciOfA();
  await k.grant(a1.id, wgB.id, 'Tree', [WRITE]);
  await k.grant(a6.id, wgB.id, 'ConfigItem', [READ]);
  isProblem(t, await addChild(a1.id, a5.id, ub.token), 404, 'not-found');
  isProblem(t, await addChild(a1.id, a6.id, ub.token), 403, 'forbidden', /moving a CI needs the right to change it/);
  t.equal((await k.get(a5.id, ub.token)).status, 403, 'a5 is still not readable by ub');
  t.equal(await parentOf(a6.id), null);
});

t.test('with write on both the CI and its new parent, a move is allowed', async (t) => {
  const a1 = await ciOfA();
  const a7 = await ciOfA();
  await k.grant(a1.id, wgB.id, 'ConfigItem', [WRITE]);
  await k.grant(a7.id, wgB.id, 'ConfigItem', [WRITE]);
  t.equal((await addChild(a1.id, a7.id, ub.token)).status, 200);
  t.equal(await parentOf(a7.id), a1.id);
});

t.test('taking a child out of a parent needs write on the child too', async (t) => {
  const a1 = await ciOfA();
  const child = await ciOfA({ parent: { id: a1.id } });
  await k.grant(a1.id, wgB.id, 'ConfigItem', [WRITE]);
  isProblem(t, await removeChild(a1.id, child.id, ub.token), 404, 'not-found');
  await k.grant(child.id, wgB.id, 'ConfigItem', [READ]);
  isProblem(t, await removeChild(a1.id, child.id, ub.token), 403, 'forbidden');
  t.equal(await parentOf(child.id), a1.id, 'still under a1');
});

t.test("a grantee's write does not give the CI away: ub cannot move a1 (and its children) to B", async (t) => {
  const a1 = await ciOfA();
  const child = await ciOfA({ parent: { id: a1.id } });
  await k.grant(a1.id, wgB.id, 'Tree', [WRITE]);
  const answer = await k.api('PUT', `${CIS}/${a1.id}`, { json: { name: a1.name, ownerWorkGroup: { id: wgB.id } }, token: ub.token });
  isProblem(t, answer, 403, 'forbidden', /Only members of the workgroup that owns CI/);
  t.equal((await k.get(a1.id)).body.ownerWorkGroup.id, wgA.id, "a1 is still A's");
  t.equal((await k.get(child.id)).body.ownerWorkGroup.id, wgA.id, 'and so is its child');
  t.equal((await k.get(a1.id, ua.token)).status, 200, "A's own user still reads it");
});

t.test('a member of both the owner workgroup and the new one may give a CI away', async (t) => {
  const both = await k.user([wgA.id, wgB.id]);
  const a1 = await ciOfA();
  t.equal((await k.api('PUT', `${CIS}/${a1.id}`, { json: { name: a1.name, ownerWorkGroup: { id: wgB.id } }, token: both.token })).status, 200);
  t.equal((await k.get(a1.id)).body.ownerWorkGroup.id, wgB.id);
  isProblem(t, await k.api('PUT', `${CIS}/${a1.id}`, { json: { name: a1.name, ownerWorkGroup: { id: wgA.id } }, token: ua.token }), 403, 'forbidden', /Insufficient privileges/);
});

t.test('a duplicate name is refused without the id of a CI the caller may not see', async (t) => {
  const hidden = await ciOfA();
  const mine = await k.ci({ ownerWorkGroup: { id: wgB.id } });
  const clash = await k.api('POST', CIS, { json: { name: hidden.name, ownerWorkGroup: { id: wgB.id } }, token: ub.token });
  isProblem(t, clash, 400, 'bad-request', /already exists with the same type$/);
  t.notMatch(clash.body.detail, new RegExp(`CI ${hidden.id}\\b`));
  const own = await k.api('POST', CIS, { json: { name: mine.name, ownerWorkGroup: { id: wgB.id } }, token: ub.token });
  isProblem(t, own, 400, 'bad-request', new RegExp(`\\(CI ${mine.id}\\)$`), '/name');
});

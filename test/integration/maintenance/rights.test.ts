/**
 * Rights on maintenance modes (spec 5, 7.2; DESIGN §4): platform rights for reading and
 * writing, CI rights on the CIs in scope, and visibility — a mode is visible when at least one
 * of its CIs is.
 */
import t from 'tap';
import { HOUR, isProblem, Kit, type User } from './maintenance-kit.js';

const kit = new Kit();
let wgA: number;
let a1: number;
let a2: number;
let b1: number;
let c1: number;
let reader: User;
let writer: User;
let outsider: User;
let noRole: User;
t.before(async () => {
  await kit.start();
  wgA = await kit.workGroup();
  const wgB = await kit.workGroup();
  a1 = await kit.ci(wgA);
  a2 = await kit.ci(wgA);
  b1 = await kit.ci(wgB);
  c1 = await kit.ci(wgB);
  await kit.grant(c1, wgA, 'ConfigItem', ['base-system.rsm.basic-read']);
  reader = await kit.user(['maintenance-reader'], [wgA]);
  writer = await kit.user(['maintenance-writer'], [wgA]);
  outsider = await kit.user(['maintenance-writer'], [wgB]);
  noRole = await kit.user([], [wgA]);
});
t.teardown(() => kit.stop());

const body = (...ids: number[]) => ({ dateStart: kit.at(HOUR), dateEnd: kit.at(2 * HOUR), configItems: ids.map((id) => ({ id, scope: 'Ci' })) });

t.test('403 without the platform read right on #1, #2 and #3', async (t) => {
  const mode = await kit.mode(body(a1));
  isProblem(t, await kit.list('', noRole.token), 403, 'forbidden', /base-system\.rsm-maintenance\.read/);
  isProblem(t, await kit.get(mode.id, noRole.token), 403, 'forbidden', /base-system\.rsm-maintenance\.read/);
  isProblem(t, await kit.filter({ ids: [mode.id] }, '', noRole.token), 403, 'forbidden', /base-system\.rsm-maintenance\.read/);
  t.equal((await kit.get(mode.id, reader.token)).status, 200, 'maintenance-reader may read');
});

t.test('403 without the platform write right on #4, #5 and #6', async (t) => {
  const mode = await kit.mode(body(a1));
  for (const token of [reader.token, noRole.token]) {
    isProblem(t, await kit.create(body(a1), { token }), 403, 'forbidden', /base-system\.rsm-maintenance\.write/);
    isProblem(t, await kit.edit('PUT', mode.id, body(a1), { token }), 403, 'forbidden', /base-system\.rsm-maintenance\.write/);
    isProblem(t, await kit.edit('PATCH', mode.id, { title: 'x' }, { token }), 403, 'forbidden', /base-system\.rsm-maintenance\.write/);
  }
  t.equal((await kit.create(body(a1), { token: writer.token })).status, 201, 'maintenance-writer may create');
});

t.test('creating: a CI the caller cannot read counts as inaccessible (basic-read is not enough)', async (t) => {
  const dropped = await kit.create(body(a1, b1, c1), { token: writer.token });
  t.equal(dropped.status, 201);
  t.same(
    dropped.body.configItems.map((e: any) => e.id),
    [a1],
    'batchValidate=false drops them',
  );
  const refused = await kit.create(body(a1, b1, c1), { token: writer.token, query: '?batchValidate=true' });
  isProblem(t, refused, 400, 'bad-request', new RegExp(`not found or not accessible: ${b1}, ${c1}$`));
  isProblem(t, await kit.create(body(b1), { token: writer.token }), 400, 'bad-request', /None of the CIs/);
});

t.test('a mode is visible when at least one of its CIs is (basic-read is enough); otherwise #2 answers 403', async (t) => {
  const shared = await kit.mode(body(a1, b1));
  const theirs = await kit.mode(body(b1));
  const basic = await kit.mode(body(c1));
  t.equal((await kit.get(shared.id, reader.token)).status, 200);
  t.equal((await kit.get(basic.id, reader.token)).status, 200, 'basic-read on one CI shows the mode');
  isProblem(t, await kit.get(theirs.id, reader.token), 403, 'forbidden', new RegExp(`No permission to view maintenance mode ${theirs.id}`));
  const listed = (await kit.list('?perPage=-1', reader.token)).body.map((m: any) => m.id);
  t.ok(listed.includes(shared.id) && listed.includes(basic.id));
  t.notOk(listed.includes(theirs.id), 'not in the list');
  const filtered = (await kit.filter({ ids: [shared.id, theirs.id, basic.id] }, '', reader.token)).body.map((m: any) => m.id);
  t.same(filtered, [shared.id, basic.id], 'not in the filter either');
  const all = (await kit.list('?perPage=-1')).body.map((m: any) => m.id);
  t.ok(all.includes(theirs.id), 'the admin sees every mode');
});

t.test('editing needs read on every CI the mode names', async (t) => {
  const mine = await kit.mode(body(a1, a2));
  const shared = await kit.mode(body(a1, b1));
  const put = await kit.edit('PUT', mine.id, body(a2), { token: writer.token });
  t.equal(put.status, 200, put.text);
  t.equal((await kit.edit('PATCH', mine.id, { title: 'again' }, { token: writer.token })).status, 200, 'a CI removed before a start is gone from the mode');
  isProblem(t, await kit.edit('PUT', shared.id, body(a1), { token: writer.token }), 403, 'forbidden', new RegExp(`No permission to edit maintenance mode ${shared.id}`));
  isProblem(t, await kit.edit('PATCH', shared.id, { cancel: true }, { token: writer.token }), 403, 'forbidden');
  isProblem(t, await kit.edit('PATCH', mine.id, { title: 'x' }, { token: outsider.token }), 403, 'forbidden', /No permission to edit/);
  t.equal((await kit.edit('PATCH', shared.id, { title: 'admin' })).status, 200, 'the admin holds write on every CI');
});

t.test('editing: CIs added follow batchValidate like #4', async (t) => {
  const mode = await kit.mode(body(a1));
  const dropped = await kit.edit(
    'PATCH',
    mode.id,
    {
      configItems: [
        { id: a1, scope: 'Ci' },
        { id: b1, scope: 'Ci' },
      ],
    },
    { token: writer.token },
  );
  t.same(
    dropped.body.configItems.map((e: any) => e.id),
    [a1],
  );
  isProblem(
    t,
    await kit.edit('PATCH', mode.id, { configItems: [{ id: b1, scope: 'Ci' }] }, { token: writer.token, query: '?batchValidate=true' }),
    400,
    'bad-request',
    new RegExp(`not accessible: ${b1}`),
  );
});

t.test('a CI deleted from the CMDB does not block editing its mode', async (t) => {
  const gone = await kit.ci(wgA);
  const mode = await kit.mode(body(gone, a1));
  t.equal((await kit.api('DELETE', `/api/public/sm/v2/rsm/config-items/${gone}`)).status, 204);
  t.equal((await kit.edit('PATCH', mode.id, { title: 'still editable' }, { token: writer.token })).status, 200);
});

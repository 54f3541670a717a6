/**
 * SLA templates (spec 2.11, 4.3 #1, 7.3; DESIGN §9): the admin CRUD with one test per rule and
 * per error code (each 400 names its field), and the public list filtered by what the caller
 * may read.
 */

import type { Test } from 'tap';
import t from 'tap';
import { ADMIN_API, isProblem, isUnauthorised, Kit, keys, type Named, type User } from '../cmdb/cmdb-kit.js';

const TEMPLATES = `${ADMIN_API}/sla/templates`;
const PUBLIC = '/api/public/sm/v1/sla/templates';

const k = new Kit();
let wg: Named;
let ciA: number;
let ciB: number;
t.before(async () => {
  await k.start();
  wg = await k.workGroup(k.uniq('sla-wg'));
  ciA = (await k.ci({ ownerWorkGroup: { id: wg.id } })).id;
  ciB = (await k.ci({ ownerWorkGroup: { id: wg.id } })).id;
});
t.teardown(() => k.stop());

/** A user with roles and a token. */
async function user(roles: string[] = ['sla-reader'], workGroupIds: number[] = []): Promise<User> {
  const name = k.uniq('sla-user');
  const created = await k.api('POST', `${ADMIN_API}/users`, { json: { name, roles, workGroupIds } });
  if (created.status !== 201) throw new Error(created.text);
  const issued = await k.api('POST', `${ADMIN_API}/users/${created.body.id}/tokens`, { json: {} });
  return { id: created.body.id, name, token: issued.body.token };
}

const single = (extra: Record<string, unknown> = {}) => ({
  type: 'Single',
  name: k.uniq('single'),
  period: 'ThisMonth',
  ownerType: 'WorkGroup',
  workGroupId: wg.id,
  configItems: [{ id: ciA }],
  ...extra,
});

async function create(body: Record<string, unknown>): Promise<any> {
  const answer = await k.api('POST', TEMPLATES, { json: body });
  if (answer.status !== 201) throw new Error(`create: ${answer.status} ${answer.text}`);
  return answer.body;
}

async function multi(members: number[], extra: Record<string, unknown> = {}): Promise<any> {
  return create({
    type: 'Multi',
    name: k.uniq('multi'),
    period: 'PreviousMonth',
    ownerType: 'WorkGroup',
    workGroupId: wg.id,
    templates: members.map((id) => ({ id, weight: 2 })),
    ...extra,
  });
}

/** A 400 validation answer naming `path`. */
async function refused(t: Test, body: unknown, path: string, detail?: RegExp, method = 'POST', url = TEMPLATES): Promise<void> {
  const answer = await k.api(method, url, { json: body });
  isProblem(t, answer, 400, 'validation', detail, path);
}

t.test('create a Single template: 201, the defaults filled in', async (t) => {
  const at = k.tick();
  const answer = await k.api('POST', TEMPLATES, { json: single({ name: 'Core network' }) });
  t.equal(answer.status, 201);
  const body = answer.body;
  t.ok(Number.isSafeInteger(body.id) && body.id > 0);
  t.same(body, {
    id: body.id,
    name: 'Core network',
    description: '',
    period: 'ThisMonth',
    ownerType: 'WorkGroup',
    userId: null,
    workGroupId: wg.id,
    timeZone: 'UTC',
    createdAt: at,
    updatedAt: at,
    type: 'Single',
    configItems: [{ id: ciA, weight: 1, withDescendants: false }],
    priorities: [1, 2],
    calendar: null,
    excludeMaintenance: true,
    target: null,
  });
});

t.test('a Single template may carry a target (percent); PATCH changes or clears it', async (t) => {
  const created = await create(single({ target: 99.9 }));
  t.equal(created.target, 99.9);
  const changed = await k.api('PATCH', `${TEMPLATES}/${created.id}`, { json: { target: 99.5 } });
  t.equal(changed.body.target, 99.5);
  const cleared = await k.api('PATCH', `${TEMPLATES}/${created.id}`, { json: { target: null } });
  t.equal(cleared.body.target, null);
});

t.test('400 /target: a percent strictly between 0 and 100', async (t) => {
  for (const target of [100, 0, -1, 'high']) await refused(t, single({ target }), '/target');
});

t.test('create a Single template with every field: the calendar is stored sorted, holidays unique', async (t) => {
  const owner = await user();
  const body = await create(
    single({
      description: 'Front office hours',
      ownerType: 'User',
      userId: owner.id,
      workGroupId: null,
      timeZone: 'Europe/Berlin',
      configItems: [
        { id: ciB, weight: 3, withDescendants: true },
        { id: ciA, weight: 0.5 },
      ],
      priorities: [3, 1],
      calendar: {
        week: [
          { day: 2, from: '08:00', to: '18:00' },
          { day: 1, from: '13:00', to: '24:00' },
          { day: 1, from: '08:00', to: '12:00' },
        ],
        holidays: ['2026-12-25', '2026-01-01', '2026-12-25'],
      },
      excludeMaintenance: false,
    }),
  );
  t.equal(body.ownerType, 'User');
  t.equal(body.userId, owner.id);
  t.equal(body.workGroupId, null);
  t.equal(body.timeZone, 'Europe/Berlin');
  t.same(body.configItems, [
    { id: ciB, weight: 3, withDescendants: true },
    { id: ciA, weight: 0.5, withDescendants: false },
  ]);
  t.same(body.priorities, [1, 3]);
  t.same(body.calendar, {
    week: [
      { day: 1, from: '08:00', to: '12:00' },
      { day: 1, from: '13:00', to: '24:00' },
      { day: 2, from: '08:00', to: '18:00' },
    ],
    holidays: ['2026-01-01', '2026-12-25'],
  });
  t.equal(body.excludeMaintenance, false);
});

t.test('the time zone is stored under its canonical name', async (t) => {
  const body = await create(single({ timeZone: 'utc' }));
  t.equal(body.timeZone, 'UTC');
});

t.test('create a Multi template of Single templates', async (t) => {
  const a = await create(single());
  const b = await create(single());
  const m = await create({
    type: 'Multi',
    name: k.uniq('multi'),
    period: 'Yesterday',
    ownerType: 'WorkGroup',
    workGroupId: wg.id,
    templates: [{ id: a.id, weight: 2 }, { id: b.id }],
  });
  t.equal(m.type, 'Multi');
  t.same(m.templates, [
    { id: a.id, weight: 2 },
    { id: b.id, weight: 1 },
  ]);
  t.equal(m.timeZone, 'UTC');
  t.same(keys(m), ['createdAt', 'description', 'id', 'name', 'ownerType', 'period', 'templates', 'timeZone', 'type', 'updatedAt', 'userId', 'workGroupId']);
});

t.test('list (by id) and get', async (t) => {
  const created = await create(single());
  const list = await k.api('GET', TEMPLATES);
  t.equal(list.status, 200);
  const ids = list.body.map((x: { id: number }) => x.id);
  t.same(
    ids,
    [...ids].sort((a, b) => a - b),
    'sorted by id',
  );
  t.ok(ids.includes(created.id));
  const one = await k.api('GET', `${TEMPLATES}/${created.id}`);
  t.equal(one.status, 200);
  t.same(one.body, created);
});

t.test('404: get, patch and delete of an unknown template', async (t) => {
  isProblem(t, await k.api('GET', `${TEMPLATES}/999999`), 404, 'not-found', /SLA template 999999 not found/);
  isProblem(t, await k.api('PATCH', `${TEMPLATES}/999999`, { json: { name: 'x' } }), 404, 'not-found');
  isProblem(t, await k.api('DELETE', `${TEMPLATES}/999999`), 404, 'not-found');
});

t.test('400: an invalid template id in the path', async (t) => {
  isProblem(t, await k.api('GET', `${TEMPLATES}/abc`), 400, 'bad-request', /Invalid SLA template id/, '/id');
});

t.test('patch changes only the given fields and moves updatedAt', async (t) => {
  const before = await create(single({ calendar: { week: [{ day: 1, from: '09:00', to: '17:00' }] } }));
  const at = k.tick();
  const answer = await k.api('PATCH', `${TEMPLATES}/${before.id}`, { json: { description: 'now described', priorities: [4] } });
  t.equal(answer.status, 200);
  t.same(answer.body, { ...before, description: 'now described', priorities: [4], updatedAt: at });
  t.equal(answer.body.createdAt, before.createdAt);
  const cleared = await k.api('PATCH', `${TEMPLATES}/${before.id}`, { json: { calendar: null } });
  t.equal(cleared.body.calendar, null, 'calendar null: always attended');
});

t.test('patch replaces the owner whole', async (t) => {
  const owner = await user();
  const before = await create(single());
  const moved = await k.api('PATCH', `${TEMPLATES}/${before.id}`, { json: { ownerType: 'User', userId: owner.id } });
  t.equal(moved.status, 200);
  t.same([moved.body.ownerType, moved.body.userId, moved.body.workGroupId], ['User', owner.id, null]);
  await refused(t, { ownerType: 'WorkGroup' }, '/workGroupId', /required when ownerType is WorkGroup/, 'PATCH', `${TEMPLATES}/${before.id}`);
  await refused(t, { workGroupId: wg.id }, '/workGroupId', /only for ownerType WorkGroup/, 'PATCH', `${TEMPLATES}/${before.id}`);
});

t.test('patch of a template whose CI was deleted since: only the given lists are looked up', async (t) => {
  const ci = (await k.ci({ ownerWorkGroup: { id: wg.id } })).id;
  const before = await create(single({ configItems: [{ id: ci }] }));
  t.equal((await k.api('DELETE', `/api/public/sm/v2/rsm/config-items/${ci}`)).status, 204);
  const renamed = await k.api('PATCH', `${TEMPLATES}/${before.id}`, { json: { name: k.uniq('renamed') } });
  t.equal(renamed.status, 200, 'the stale CI stays listed');
  await refused(t, { configItems: [{ id: ci }] }, '/configItems/0/id', /does not exist/, 'PATCH', `${TEMPLATES}/${before.id}`);
});

t.test('delete: 204, then gone', async (t) => {
  const created = await create(single());
  const answer = await k.api('DELETE', `${TEMPLATES}/${created.id}`);
  t.equal(answer.status, 204);
  t.equal(answer.text, '');
  t.equal((await k.api('GET', `${TEMPLATES}/${created.id}`)).status, 404);
});

t.test('400 /configItems/0/id: the CI does not exist', async (t) => {
  await refused(t, single({ configItems: [{ id: 987654 }] }), '/configItems/0/id', /CI 987654 does not exist/);
});

t.test('400 /configItems/1/id: a CI listed twice', async (t) => {
  await refused(t, single({ configItems: [{ id: ciA }, { id: ciA }] }), '/configItems/1/id', /listed twice/);
});

t.test('400 /configItems/0/weight: a weight must be above 0', async (t) => {
  await refused(t, single({ configItems: [{ id: ciA, weight: 0 }] }), '/configItems/0/weight');
});

t.test('400 /configItems: required for a Single template, at least one', async (t) => {
  const { configItems: _, ...without } = single();
  await refused(t, without, '/configItems', /required for a Single template/);
  await refused(t, single({ configItems: [] }), '/configItems');
});

t.test('400 /userId: the owner user does not exist', async (t) => {
  await refused(t, single({ ownerType: 'User', userId: 987654, workGroupId: undefined }), '/userId', /user 987654 does not exist/);
});

t.test('400 /userId: required when ownerType is User', async (t) => {
  await refused(t, single({ ownerType: 'User', workGroupId: undefined }), '/userId', /required when ownerType is User/);
});

t.test('400 /workGroupId: the owner workgroup does not exist', async (t) => {
  await refused(t, single({ workGroupId: 987654 }), '/workGroupId', /workgroup 987654 does not exist/);
});

t.test('400 /workGroupId and /userId: the id of the other owner type is refused', async (t) => {
  const owner = await user();
  await refused(t, single({ userId: owner.id }), '/userId', /only for ownerType User/);
  await refused(t, single({ ownerType: 'User', userId: owner.id }), '/workGroupId', /only for ownerType WorkGroup/);
});

t.test('400 /timeZone: not an IANA time zone', async (t) => {
  await refused(t, single({ timeZone: 'Mars/Olympus_Mons' }), '/timeZone', /not a known IANA time zone/);
});

t.test('400 /period: not one of the spec 2.11 values', async (t) => {
  await refused(t, single({ period: 'LastDecade' }), '/period');
});

t.test('400 /priorities: outside 1..4, or listed twice', async (t) => {
  await refused(t, single({ priorities: [5] }), '/priorities/0');
  await refused(t, single({ priorities: [2, 2] }), '/priorities/1', /listed twice/);
});

t.test('400 /calendar/week/0/to: from must be before to', async (t) => {
  await refused(t, single({ calendar: { week: [{ day: 1, from: '18:00', to: '09:00' }] } }), '/calendar/week/0/to', /must be after from/);
  await refused(t, single({ calendar: { week: [{ day: 1, from: '09:00', to: '09:00' }] } }), '/calendar/week/0/to', /must be after from/);
});

t.test('400 /calendar/week/0/from: HH:mm must be a valid local time; 24:00 only ends a day', async (t) => {
  await refused(t, single({ calendar: { week: [{ day: 1, from: '25:00', to: '24:00' }] } }), '/calendar/week/0/from', /not a local time/);
  await refused(t, single({ calendar: { week: [{ day: 1, from: '24:00', to: '24:00' }] } }), '/calendar/week/0/from', /not a local time/);
  await refused(t, single({ calendar: { week: [{ day: 1, from: '08:00', to: '12:60' }] } }), '/calendar/week/0/to', /not a local time/);
  await refused(t, single({ calendar: { week: [{ day: 1, from: '8:00', to: '12:00' }] } }), '/calendar/week/0/from');
});

t.test('400 /calendar/week/0/day: an ISO weekday 1..7', async (t) => {
  await refused(t, single({ calendar: { week: [{ day: 0, from: '08:00', to: '12:00' }] } }), '/calendar/week/0/day');
});

t.test('400 /calendar/week/2: hours of one day must not overlap', async (t) => {
  const week = [
    { day: 1, from: '08:00', to: '18:00' },
    { day: 2, from: '09:00', to: '10:00' },
    { day: 1, from: '12:00', to: '13:00' },
  ];
  await refused(t, single({ calendar: { week } }), '/calendar/week/2', /overlaps the hours at \/calendar\/week\/0 on day 1/);
});

t.test('400 /calendar/holidays/0: holidays must be valid dates', async (t) => {
  await refused(t, single({ calendar: { week: [{ day: 1, from: '08:00', to: '12:00' }], holidays: ['2026-02-30'] } }), '/calendar/holidays/0', /not a valid date/);
  await refused(t, single({ calendar: { week: [{ day: 1, from: '08:00', to: '12:00' }], holidays: ['1 May'] } }), '/calendar/holidays/0');
});

t.test('400 /templates/0/id: a Multi member must exist', async (t) => {
  await refused(
    t,
    { type: 'Multi', name: k.uniq('m'), period: 'ThisYear', ownerType: 'WorkGroup', workGroupId: wg.id, templates: [{ id: 987654 }] },
    '/templates/0/id',
    /987654 does not exist/,
  );
});

t.test('400 /templates/0/id: a Multi member must be a Single template', async (t) => {
  const inner = await multi([(await create(single())).id]);
  await refused(
    t,
    { type: 'Multi', name: k.uniq('m'), period: 'ThisYear', ownerType: 'WorkGroup', workGroupId: wg.id, templates: [{ id: inner.id }] },
    '/templates/0/id',
    /is a Multi template/,
  );
});

t.test('400 /templates/1/id: a Multi member listed twice', async (t) => {
  const s = await create(single());
  await refused(
    t,
    { type: 'Multi', name: k.uniq('m'), period: 'ThisYear', ownerType: 'WorkGroup', workGroupId: wg.id, templates: [{ id: s.id }, { id: s.id }] },
    '/templates/1/id',
    /listed twice/,
  );
});

t.test('400 /templates: required for a Multi template', async (t) => {
  await refused(t, { type: 'Multi', name: k.uniq('m'), period: 'ThisYear', ownerType: 'WorkGroup', workGroupId: wg.id }, '/templates', /required for a Multi template/);
});

t.test('400: fields of the other type are refused, each with its path', async (t) => {
  const s = await create(single());
  await refused(t, single({ templates: [{ id: s.id }] }), '/templates', /only for a Multi template/);
  const m = { type: 'Multi', name: k.uniq('m'), period: 'ThisYear', ownerType: 'WorkGroup', workGroupId: wg.id, templates: [{ id: s.id }] };
  for (const [field, value] of Object.entries({ configItems: [{ id: ciA }], priorities: [1], calendar: null, excludeMaintenance: false, target: 99 })) {
    await refused(t, { ...m, [field]: value }, `/${field}`, /only for a Single template/);
  }
  const existing = await multi([s.id]);
  await refused(t, { configItems: [{ id: ciA }] }, '/configItems', /only for a Single template/, 'PATCH', `${TEMPLATES}/${existing.id}`);
});

t.test('400: every problem is listed at once', async (t) => {
  const answer = await k.api('POST', TEMPLATES, { json: single({ timeZone: 'Nowhere/Land', configItems: [{ id: 987654 }], workGroupId: 987654 }) });
  isProblem(t, answer, 400, 'validation');
  t.same(answer.body.errors.map((e: { path: string }) => e.path).sort(), ['/configItems/0/id', '/timeZone', '/workGroupId']);
});

t.test('400 /type: the type of a template cannot change', async (t) => {
  const s = await create(single());
  await refused(t, { type: 'Multi' }, '/type', /cannot change/, 'PATCH', `${TEMPLATES}/${s.id}`);
  t.equal((await k.api('PATCH', `${TEMPLATES}/${s.id}`, { json: { type: 'Single' } })).status, 200, 'the same type is accepted');
});

t.test('400: unknown fields, and an empty PATCH body', async (t) => {
  await refused(t, single({ colour: 'red' }), '/colour');
  const s = await create(single());
  isProblem(t, await k.api('PATCH', `${TEMPLATES}/${s.id}`, { json: {} }), 400, 'validation');
});

t.test('409: duplicate name, on create and on patch', async (t) => {
  const a = await create(single());
  isProblem(t, await k.api('POST', TEMPLATES, { json: single({ name: a.name }) }), 409, 'conflict', /already exists/);
  const b = await create(single());
  isProblem(t, await k.api('PATCH', `${TEMPLATES}/${b.id}`, { json: { name: a.name } }), 409, 'conflict', /already exists/);
  t.equal((await k.api('PATCH', `${TEMPLATES}/${a.id}`, { json: { name: a.name } })).status, 200, 'keeping its own name is no conflict');
});

t.test('409: deleting a Single template a Multi template lists', async (t) => {
  const s = await create(single());
  const m = await multi([s.id]);
  isProblem(t, await k.api('DELETE', `${TEMPLATES}/${s.id}`), 409, 'conflict', new RegExp(`part of the Multi template ${m.id}`));
  t.equal((await k.api('DELETE', `${TEMPLATES}/${m.id}`)).status, 204);
  t.equal((await k.api('DELETE', `${TEMPLATES}/${s.id}`)).status, 204, 'free once the Multi template is gone');
});

t.test('409: a Single template leaves a Multi template through PATCH, then can be deleted', async (t) => {
  const [a, b] = [await create(single()), await create(single())];
  const m = await multi([a.id, b.id]);
  t.equal((await k.api('PATCH', `${TEMPLATES}/${m.id}`, { json: { templates: [{ id: b.id }] } })).status, 200);
  t.equal((await k.api('DELETE', `${TEMPLATES}/${a.id}`)).status, 204);
  isProblem(t, await k.api('DELETE', `${TEMPLATES}/${b.id}`), 409, 'conflict');
});

t.test('409: deleting a user or a workgroup that owns a template', async (t) => {
  const owner = await user();
  const group = await k.workGroup(k.uniq('owner-wg'));
  const byUser = await create(single({ ownerType: 'User', userId: owner.id, workGroupId: undefined }));
  const byGroup = await create(single({ workGroupId: group.id }));
  isProblem(t, await k.api('DELETE', `${ADMIN_API}/users/${owner.id}`), 409, 'conflict', new RegExp(`owns SLA template ${byUser.id}`));
  isProblem(t, await k.api('DELETE', `${ADMIN_API}/work-groups/${group.id}`), 409, 'conflict', new RegExp(`owns SLA template ${byGroup.id}`));
});

t.test('admin routes: 401 without a valid token, 403 without base-system.admin', async (t) => {
  await isUnauthorised(t, k, 'GET', TEMPLATES);
  await isUnauthorised(t, k, 'POST', TEMPLATES, single());
  const reader = await user(['sla-reader']);
  isProblem(t, await k.api('GET', TEMPLATES, { token: reader.token }), 403, 'forbidden', /base-system\.admin/);
  isProblem(t, await k.api('POST', TEMPLATES, { json: single(), token: reader.token }), 403, 'forbidden');
});

// Public GET /api/public/sm/v1/sla/templates (spec 4.3 #1)

const publicIds = async (token?: string): Promise<number[]> => {
  const answer = await k.api('GET', PUBLIC, token ? { token } : {});
  if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}`);
  return answer.body.map((x: { id: number }) => x.id);
};

t.test('public: the spec 2.11 form, for a workgroup owner and for a user owner', async (t) => {
  const group = await k.workGroup(k.uniq('form-wg'));
  const member = await user(['sla-reader'], [group.id]);
  const byGroup = await create(single({ workGroupId: group.id, description: 'd' }));
  const byUser = await create(single({ ownerType: 'User', userId: member.id, workGroupId: undefined, period: 'Today' }));
  const answer = await k.api('GET', PUBLIC, { token: member.token });
  t.equal(answer.status, 200);
  t.match(answer.headers.get('content-type'), /^application\/json/);
  t.same(answer.body, [
    {
      id: byGroup.id,
      type: 'Single',
      name: byGroup.name,
      description: 'd',
      period: 'ThisMonth',
      ownerType: 'WorkGroup',
      userId: null,
      workGroup: { id: group.id, userspaceId: 1, name: group.name, managerId: null },
    },
    { id: byUser.id, type: 'Single', name: byUser.name, description: '', period: 'Today', ownerType: 'User', userId: member.id, workGroup: null },
  ]);
});

t.test('public: a user reads the templates they own, not those of other users', async (t) => {
  const [me, other] = [await user(), await user()];
  const mine = await create(single({ ownerType: 'User', userId: me.id, workGroupId: undefined }));
  const theirs = await create(single({ ownerType: 'User', userId: other.id, workGroupId: undefined }));
  t.same(await publicIds(me.token), [mine.id]);
  t.same(await publicIds(other.token), [theirs.id]);
});

t.test('public: a user reads the templates of the workgroups they are a member of', async (t) => {
  const [g1, g2, g3] = [await k.workGroup(k.uniq('g')), await k.workGroup(k.uniq('g')), await k.workGroup(k.uniq('g'))];
  const member = await user(['sla-reader'], [g1.id, g2.id]);
  const t1 = await create(single({ workGroupId: g1.id }));
  const t2 = await multi([t1.id], { workGroupId: g2.id });
  await create(single({ workGroupId: g3.id }));
  t.same(await publicIds(member.token), [t1.id, t2.id], 'sorted by id; not g3');
  t.equal((await k.api('DELETE', `${ADMIN_API}/work-groups/${g1.id}/members/${member.id}`)).status, 200);
  t.same(await publicIds(member.token), [t2.id], 'leaving the workgroup takes its templates away at once');
});

t.test('public: an admin reads every template, sorted by id', async (t) => {
  const someone = await user();
  await create(single({ ownerType: 'User', userId: someone.id, workGroupId: undefined }));
  const all = await k.api('GET', TEMPLATES);
  t.same(
    await publicIds(),
    all.body.map((x: { id: number }) => x.id),
  );
  const ids = await publicIds();
  t.same(
    ids,
    [...ids].sort((a, b) => a - b),
  );
});

t.test('public: a user who reads no template gets []', async (t) => {
  t.same(await publicIds((await user()).token), []);
});

t.test('public 401: no token, an unknown token', async (t) => {
  await isUnauthorised(t, k, 'GET', PUBLIC);
});

t.test('public 403: without the right base-system.sla.read', async (t) => {
  const group = await k.workGroup(k.uniq('no-right'));
  const noRight = await user(['maintenance-reader'], [group.id]);
  await create(single({ workGroupId: group.id }));
  isProblem(t, await k.api('GET', PUBLIC, { token: noRight.token }), 403, 'forbidden', /base-system\.sla\.read/);
});

t.test('the OpenAPI document lists the routes, the public one under tag sla', async (t) => {
  const doc = await k.api('GET', '/api/openapi.json', { token: null });
  t.equal(doc.status, 200);
  const paths = doc.body.paths;
  const pub = paths[PUBLIC].get;
  t.equal(pub.operationId, 'sla.listTemplates');
  t.same(pub.tags, ['sla']);
  t.same(pub.security, [{ bearer: [] }, { session: [] }]);
  t.same(Object.keys(pub.responses).sort(), ['200', '401', '403', '431']);
  t.same(pub.responses['200'].content['application/json'].schema.items.required.sort(), ['description', 'id', 'name', 'ownerType', 'period', 'type', 'userId', 'workGroup']);
  t.same(Object.keys(paths[TEMPLATES]).sort(), ['get', 'post']);
  t.same(Object.keys(paths[`${TEMPLATES}/{id}`]).sort(), ['delete', 'get', 'patch']);
  t.equal(paths[TEMPLATES].post.operationId, 'admin.createSlaTemplate');
  t.ok(paths[TEMPLATES].post.requestBody.content['application/json'].schema.properties.calendar, 'the body is described');
});

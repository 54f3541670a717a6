/**
 * Synthetic triggers through the admin API (DESIGN §7): create with defaults, list, get, patch,
 * delete, and one test per rule the model checks beyond the schema and per error code.
 */
import t, { type Test } from 'tap';
import type { Answer } from '../../support/http.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

const ADMIN_API = '/api/admin/v1';
const TRIGGERS = `${ADMIN_API}/triggers`;

let clock = Date.parse('2026-05-04T09:00:00.000Z');
let p: TestPlatform;
let streamA: number;
let streamB: number;
let ciId: number;
let ciTypeId: number;
let seq = 0;

t.before(async () => {
  p = await startTestPlatform({ now: () => clock });
  streamA = (await must(p.api('POST', `${ADMIN_API}/streams`, { json: { name: 'triggers-a' } }), 201)).id;
  streamB = (await must(p.api('POST', `${ADMIN_API}/streams`, { json: { name: 'triggers-b' } }), 201)).id;
  const wg = await must(p.api('POST', `${ADMIN_API}/work-groups`, { json: { name: 'triggers-wg', memberIds: [] } }), 201);
  ciId = (await must(p.api('POST', '/api/public/sm/v2/rsm/config-items', { json: { name: 'triggers-ci', ownerWorkGroup: { id: wg.id } } }), 201)).id;
  ciTypeId = (await must(p.api('POST', `${ADMIN_API}/config-item-types`, { json: { name: 'triggers-type', description: '' } }), 201)).id;
});
t.teardown(() => p.stop());

async function must(answer: Promise<Answer>, status: number): Promise<any> {
  const a = await answer;
  if (a.status !== status) throw new Error(`expected ${status}, got ${a.status} ${a.text}`);
  return a.body;
}

/** A valid create body with a fresh name; `over` replaces top-level fields. */
function body(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `trigger-${++seq}`,
    streamIds: [streamA],
    match: [
      { field: 'status', op: 'in', values: ['down', 'ok'] },
      { field: 'host', op: 'exists' },
    ],
    ci: { by: 'nameField', field: 'host' },
    priority: { value: 2 },
    resolve: { field: 'status', values: ['ok'] },
    influence: { value: 50, maxInfluence: false },
    ...over,
  };
}

const create = (over: Record<string, unknown> = {}) => must(p.api('POST', TRIGGERS, { json: body(over) }), 201);

/** A problem+json answer with its status, code and (when given) the field path it names. */
function isProblem(t: Test, answer: Answer, status: number, code: string, path?: string): void {
  t.equal(answer.status, status, `status ${status}`);
  t.equal(answer.headers.get('content-type'), 'application/problem+json');
  t.equal(answer.body?.type, `urn:ops:problem:${code}`);
  if (path)
    t.ok(
      (answer.body?.errors ?? []).some((e: { path: string }) => e.path === path),
      `errors name ${path}: ${answer.text}`,
    );
}

async function userToken(name: string, roles: string[] = []): Promise<string> {
  const user = await must(p.api('POST', `${ADMIN_API}/users`, { json: { name, roles } }), 201);
  return (await must(p.api('POST', `${ADMIN_API}/users/${user.id}/tokens`, { json: {} }), 201)).token;
}

t.test('create answers 201 with the defaults filled in and the dates from the clock', async (t) => {
  const answer = await p.api('POST', TRIGGERS, { json: body({ name: 'router down' }) });
  t.equal(answer.status, 201);
  t.type(answer.body.id, 'number');
  t.equal(answer.body.name, 'router down');
  t.equal(answer.body.enabled, true);
  t.equal(answer.body.description, '');
  t.same(answer.body.tags, []);
  t.same(answer.body.incidents, []);
  t.equal(answer.body.createdAt, '2026-05-04T09:00:00.000Z');
  t.equal(answer.body.updatedAt, answer.body.createdAt);
  t.same(answer.body.ci, { by: 'nameField', field: 'host' });
});

t.test('list answers every trigger by id; streamId keeps those listening to that stream', async (t) => {
  const a = await create();
  const b = await create({ streamIds: [streamB, streamA], enabled: false });
  const c = await create({ streamIds: [streamB] });
  const all = await must(p.api('GET', TRIGGERS), 200);
  const ids = all.map((x: { id: number }) => x.id);
  t.same(
    ids,
    [...ids].sort((x: number, y: number) => x - y),
    'in id order',
  );
  t.ok([a.id, b.id, c.id].every((id) => ids.includes(id)));
  const onB = await must(p.api('GET', `${TRIGGERS}?streamId=${streamB}`), 200);
  t.same(
    onB.map((x: { id: number }) => x.id),
    [b.id, c.id],
    'disabled triggers are listed too',
  );
  t.same(await must(p.api('GET', `${TRIGGERS}?streamId=999999`), 200), []);
  isProblem(t, await p.api('GET', `${TRIGGERS}?streamId=abc`), 400, 'validation', '/streamId');
});

t.test('get answers one trigger', async (t) => {
  const created = await create({ description: 'pages the network team', tags: [{ id: 1, name: 'net', colorName: 'blue' }] });
  const answer = await p.api('GET', `${TRIGGERS}/${created.id}`);
  t.equal(answer.status, 200);
  t.same(answer.body, created);
});

t.test('patch replaces top-level fields, keeps the rest and createdAt, sets updatedAt', async (t) => {
  const created = await create({ ci: { by: 'fixed', id: ciId } });
  clock += 60_000;
  const answer = await p.api('PATCH', `${TRIGGERS}/${created.id}`, { json: { enabled: false, priority: { field: 'severity', map: { critical: 1, minor: 4 }, default: 3 } } });
  t.equal(answer.status, 200);
  t.equal(answer.body.enabled, false);
  t.same(answer.body.priority, { field: 'severity', map: { critical: 1, minor: 4 }, default: 3 });
  t.same(answer.body.ci, { by: 'fixed', id: ciId }, 'fields not in the body are kept');
  t.equal(answer.body.createdAt, created.createdAt);
  t.equal(answer.body.updatedAt, new Date(clock).toISOString());
  t.same((await p.api('GET', `${TRIGGERS}/${created.id}`)).body, answer.body);
});

t.test('patch re-runs the checks on the merged trigger', async (t) => {
  const created = await create();
  isProblem(t, await p.api('PATCH', `${TRIGGERS}/${created.id}`, { json: { streamIds: [streamA, 999999] } }), 400, 'validation', '/streamIds/1');
  isProblem(t, await p.api('PATCH', `${TRIGGERS}/${created.id}`, { json: { match: [{ field: 'msg', op: 'regex', pattern: '[' }] } }), 400, 'validation', '/match/0/pattern');
  t.same((await p.api('GET', `${TRIGGERS}/${created.id}`)).body, created, 'a refused patch changes nothing');
});

t.test('delete answers 204; the trigger is gone', async (t) => {
  const created = await create({ streamIds: [streamB] });
  t.equal((await p.api('DELETE', `${TRIGGERS}/${created.id}`)).status, 204);
  isProblem(t, await p.api('GET', `${TRIGGERS}/${created.id}`), 404, 'not-found');
  const onB = await must(p.api('GET', `${TRIGGERS}?streamId=${streamB}`), 200);
  t.notOk(
    onB.some((x: { id: number }) => x.id === created.id),
    'gone from the stream index too',
  );
});

t.test('404 for an unknown trigger id; 400 for an id that is not a number', async (t) => {
  isProblem(t, await p.api('GET', `${TRIGGERS}/999999`), 404, 'not-found');
  isProblem(t, await p.api('PATCH', `${TRIGGERS}/999999`, { json: { enabled: false } }), 404, 'not-found');
  isProblem(t, await p.api('DELETE', `${TRIGGERS}/999999`), 404, 'not-found');
  isProblem(t, await p.api('GET', `${TRIGGERS}/abc`), 400, 'bad-request', '/id');
});

t.test('400: a missing required field is named by its path', async (t) => {
  const { resolve: _resolve, ...withoutResolve } = body();
  isProblem(t, await p.api('POST', TRIGGERS, { json: withoutResolve }), 400, 'validation', '/resolve');
});

t.test('400: a regex condition must be RE2 syntax (linear-time matching); the message quotes the reason', async (t) => {
  const answer = await p.api('POST', TRIGGERS, { json: body({ match: [{ field: 'msg', op: 'regex', pattern: '(unclosed' }] }) });
  isProblem(t, answer, 400, 'validation', '/match/0/pattern');
  t.match(answer.body.errors[0].message, /is not accepted: it is not RE2 syntax: missing closing \): `\(unclosed`/);
});

t.test('400: a union mismatch reports the branch the body meant: a condition by its op, with only that op’s errors', async (t) => {
  const wrongField = await p.api('POST', TRIGGERS, { json: body({ match: [{ field: 'status', op: 'in', value: 'down' }] }) });
  isProblem(t, wrongField, 400, 'validation', '/match/0/values');
  t.same(wrongField.body.errors, [
    { path: '/match/0/values', message: 'is required' },
    { path: '/match/0/value', message: 'is not a known field' },
  ]);
  const unknownOp = await p.api('POST', TRIGGERS, {
    json: body({
      match: [
        { field: 'status', op: 'in', values: ['down'] },
        { field: 'status', op: 'equal', value: 'down' },
      ],
    }),
  });
  isProblem(t, unknownOp, 400, 'validation', '/match/1/op');
  t.same(unknownOp.body.errors, [{ path: '/match/1/op', message: 'must be one of "equals", "in", "regex", "exists"' }], 'an unknown op: one error naming the ops');
  const unknownBy = await p.api('POST', TRIGGERS, { json: body({ ci: { by: 'name', field: 'host' } }) });
  t.same(unknownBy.body.errors, [{ path: '/ci/by', message: 'must be one of "idField", "nameField", "fixed"' }], 'a CI locator by its by');
});

t.test('400: every stream must exist', async (t) => {
  isProblem(t, await p.api('POST', TRIGGERS, { json: body({ streamIds: [999999] }) }), 400, 'validation', '/streamIds/0');
});

t.test('400: a fixed CI must exist', async (t) => {
  isProblem(t, await p.api('POST', TRIGGERS, { json: body({ ci: { by: 'fixed', id: 999999 } }) }), 400, 'validation', '/ci/id');
});

t.test('400: the CI type of a name rule must exist', async (t) => {
  isProblem(t, await p.api('POST', TRIGGERS, { json: body({ ci: { by: 'nameField', field: 'host', ciTypeId: 999999 } }) }), 400, 'validation', '/ci/ciTypeId');
  t.equal((await p.api('POST', TRIGGERS, { json: body({ ci: { by: 'nameField', field: 'host', ciTypeId } }) })).status, 201);
});

t.test('400: priority map keys must not be empty', async (t) => {
  isProblem(t, await p.api('POST', TRIGGERS, { json: body({ priority: { field: 'severity', map: { '': 1 }, default: 3 } }) }), 400, 'validation', '/priority/map/');
});

t.test('400: every failed check is reported at once', async (t) => {
  const answer = await p.api('POST', TRIGGERS, { json: body({ streamIds: [999998, streamA], ci: { by: 'fixed', id: 999999 } }) });
  t.same(
    answer.body.errors.map((e: { path: string }) => e.path),
    ['/streamIds/0', '/ci/id'],
  );
});

t.test('409: trigger names are unique (create and rename)', async (t) => {
  const first = await create();
  isProblem(t, await p.api('POST', TRIGGERS, { json: body({ name: first.name }) }), 409, 'conflict');
  const second = await create();
  isProblem(t, await p.api('PATCH', `${TRIGGERS}/${second.id}`, { json: { name: first.name } }), 409, 'conflict');
  t.equal((await p.api('PATCH', `${TRIGGERS}/${first.id}`, { json: { name: first.name } })).status, 200, 'keeping its own name is fine');
});

t.test('401 without a token', async (t) => {
  isProblem(t, await p.api('GET', TRIGGERS, { token: null }), 401, 'unauthorized');
  isProblem(t, await p.api('POST', TRIGGERS, { json: body(), token: null }), 401, 'unauthorized');
});

t.test('403 for a user without base-system.admin', async (t) => {
  const token = await userToken('triggers-plain-user', ['maintenance-writer']);
  isProblem(t, await p.api('GET', TRIGGERS, { token }), 403, 'forbidden');
  isProblem(t, await p.api('POST', TRIGGERS, { json: body(), token }), 403, 'forbidden');
  isProblem(t, await p.api('DELETE', `${TRIGGERS}/1`, { token }), 403, 'forbidden');
});

t.test('the routes are in the OpenAPI document', async (t) => {
  const doc = await must(p.api('GET', '/api/openapi.json', { token: null }), 200);
  const ops = (path: string) => Object.fromEntries(Object.entries(doc.paths[path] ?? {}).map(([method, o]) => [method, (o as { operationId: string }).operationId]));
  t.same(ops('/api/admin/v1/triggers'), { get: 'admin.listTriggers', post: 'admin.createTrigger' });
  t.same(ops('/api/admin/v1/triggers/{id}'), { get: 'admin.getTrigger', patch: 'admin.patchTrigger', delete: 'admin.deleteTrigger' });
  const post = doc.paths['/api/admin/v1/triggers'].post;
  t.ok(post.requestBody.content['application/json'].schema.properties.resolve, 'the body schema is described');
  t.same(post.security, [{ bearer: [] }, { session: [] }]);
  t.ok(doc.paths['/api/admin/v1/triggers'].get.parameters.some((x: { name: string; in: string }) => x.name === 'streamId' && x.in === 'query'));
});

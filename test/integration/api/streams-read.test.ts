/**
 * The streams as their readers see them (GET /api/public/cl/v1/streams and …/streams/{id}, the
 * console's streams screen, issue #33): name, status and configuration, never the key; for stream
 * readers and admins; and one test per error.
 */
import t from 'tap';
import { ProblemsKit } from '../problems/problems-kit.js';

const k = new ProblemsKit();
const PREFIX = '/api/public/cl/v1/streams';
let first: { id: number; key: string };
let second: { id: number; key: string };
let reader: { id: number; token: string };

t.before(async () => {
  await k.start();
  const create = async (name: string, config: unknown) => (await k.api('POST', '/api/admin/v1/streams', { json: { name, config } })).body;
  first = await create('edge-syslog', { framing: 'lines', parser: { type: 'syslog' }, routeLabel: 'edge' });
  second = await create('app-json', {});
  await k.api('POST', `/api/admin/v1/streams/${second.id}/deactivate`);
  reader = await k.user();
  const roles = await k.api('PATCH', `/api/admin/v1/users/${reader.id}`, { json: { roles: ['stream-reader'] } });
  if (roles.status !== 200) throw new Error(`roles: ${roles.status} ${roles.text}`);
});
t.teardown(() => k.stop());

t.test('a stream reader lists every stream by id with its name, status and configuration, and no key', async (t) => {
  const answer = await k.api('GET', PREFIX, { token: reader.token });
  t.equal(answer.status, 200, answer.text);
  const admin = (await k.api('GET', '/api/admin/v1/streams')).body as Array<Record<string, unknown>>;
  t.same(
    answer.body,
    admin.map(({ key: _key, ...rest }) => rest),
    'the admin list without the keys',
  );
  t.notOk(answer.text.includes(first.key) || answer.text.includes(second.key), 'no key anywhere in the answer');
  const mine = answer.body.find((s: { id: number }) => s.id === first.id);
  t.match(mine, { name: 'edge-syslog', status: 'active', config: { framing: 'lines', parser: { type: 'syslog' }, routeLabel: 'edge' } });
  t.equal(answer.body.find((s: { id: number }) => s.id === second.id).status, 'inactive');
});

t.test('one stream by id, without its key', async (t) => {
  const answer = await k.api('GET', `${PREFIX}/${first.id}`, { token: reader.token });
  t.equal(answer.status, 200, answer.text);
  t.equal(answer.body.name, 'edge-syslog');
  t.equal(answer.body.key, undefined);
});

t.test('admins may read them too', async (t) => {
  t.equal((await k.api('GET', PREFIX)).status, 200);
  t.equal((await k.api('GET', `${PREFIX}/${first.id}`)).status, 200);
});

t.test('403 without base-system.streams.read, 401 without a token', async (t) => {
  const nobody = await k.user();
  t.equal((await k.api('GET', PREFIX, { token: nobody.token })).status, 403);
  t.equal((await k.api('GET', `${PREFIX}/${first.id}`, { token: nobody.token })).status, 403);
  t.equal((await k.api('GET', PREFIX, { token: null })).status, 401);
});

t.test('404 for a stream that does not exist, 400 for an id that is not one', async (t) => {
  const unknown = await k.api('GET', `${PREFIX}/999999`, { token: reader.token });
  t.equal(unknown.status, 404);
  t.match(unknown.body.detail, /999999/);
  t.equal((await k.api('GET', `${PREFIX}/abc`, { token: reader.token })).status, 400);
});

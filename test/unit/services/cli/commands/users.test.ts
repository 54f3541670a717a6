/**
 * `ops users update`: `--add-role` and `--remove-role` change only the roles they name (the user
 * is read, then its set is sent with them added or removed); `--role` replaces the set in one
 * request. Run in-process against a small server holding one user, as the admin API answers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { parseCommandLine } from '../../../../../services/cli/args.js';
import { changedRoles } from '../../../../../services/cli/commands/users.js';
import { NOUNS } from '../../../../../services/cli/commands/index.js';
import { run } from '../../../../../services/cli/main.js';

const TOKEN = 'test-token-0123456789abcdef';
const PREFIX = '/api/admin/v1';
const ROLES = ['admin', 'maintenance-writer', 'maintenance-reader', 'sla-reader', 'stream-reader', 'notifications-writer'];

interface User {
  id: number;
  name: string;
  roles: string[];
  disabled: boolean;
}

let alice: User;
const requests: { method: string; path: string; body: unknown }[] = [];

const server = createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (text += chunk));
  req.on('end', () => {
    const path = (req.url ?? '').slice(PREFIX.length);
    const body: unknown = text ? JSON.parse(text) : undefined;
    requests.push({ method: req.method ?? '', path, body });
    const answer = (status: number, value: unknown, type = 'application/json'): void => {
      res.writeHead(status, { 'content-type': type });
      res.end(JSON.stringify(value));
    };
    if (path !== '/users/2')
      return answer(
        404,
        { type: 'about:blank', title: 'Not found', status: 404, detail: `User ${path.split('/')[2]} not found`, code: 'user.not_found' },
        'application/problem+json',
      );
    if (req.method === 'GET') return answer(200, alice);
    const patch = body as Partial<User>;
    const unknown = patch.roles?.find((role) => !ROLES.includes(role));
    if (unknown !== undefined)
      return answer(400, { type: 'about:blank', title: 'Bad request', status: 400, detail: `Unknown role ${unknown}`, code: 'role.unknown' }, 'application/problem+json');
    alice = { ...alice, ...patch };
    return answer(200, alice);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
t.teardown(() => {
  server.closeAllConnections();
  server.close();
});

async function ops(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const before = requests.length;
  const code = await run(argv, { OPS_URL: url, OPS_TOKEN: TOKEN }, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr, requests: requests.slice(before).map((r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`) };
}

t.beforeEach(() => {
  alice = { id: 2, name: 'alice', roles: ['maintenance-writer'], disabled: false };
});

t.test('changedRoles keeps the order of the roles held and appends the added ones once', async (t) => {
  t.same(changedRoles(['maintenance-writer'], ['sla-reader'], []), ['maintenance-writer', 'sla-reader']);
  t.same(changedRoles(['a', 'b', 'c'], [], ['b']), ['a', 'c']);
  t.same(changedRoles(['a', 'b'], ['b', 'c', 'c'], []), ['a', 'b', 'c']);
  t.same(changedRoles(['a'], ['c'], ['a', 'x']), ['c']);
  t.same(changedRoles([], [], ['a']), []);
});

t.test('--add-role gives a role and keeps the others (issue #37: --role dropped maintenance-writer)', async (t) => {
  const r = await ops('users', 'update', '2', '--add-role', 'sla-reader');
  t.equal(r.code, 0);
  t.equal(r.stderr, '');
  t.same(r.requests, ['GET /users/2', 'PATCH /users/2 {"roles":["maintenance-writer","sla-reader"]}']);
  t.match(r.stdout, /^roles +maintenance-writer, sla-reader$/m);
  t.same(alice.roles, ['maintenance-writer', 'sla-reader']);
});

t.test('--remove-role takes one role away and keeps the others', async (t) => {
  alice.roles = ['maintenance-writer', 'sla-reader', 'stream-reader'];
  const r = await ops('users', 'update', '2', '--remove-role', 'sla-reader', '--json');
  t.equal(r.code, 0);
  t.same(r.requests, ['GET /users/2', 'PATCH /users/2 {"roles":["maintenance-writer","stream-reader"]}']);
  t.same(JSON.parse(r.stdout), { id: 2, name: 'alice', roles: ['maintenance-writer', 'stream-reader'], disabled: false });
});

t.test('adding and removing in one command, with a new name: one PATCH holding both', async (t) => {
  const r = await ops('users', 'update', '2', '--add-role', 'stream-reader', '--add-role', 'sla-reader', '--remove-role', 'maintenance-writer', '--name', 'alice b');
  t.equal(r.code, 0);
  t.same(r.requests, ['GET /users/2', 'PATCH /users/2 {"name":"alice b","roles":["stream-reader","sla-reader"]}']);
  t.same(alice, { id: 2, name: 'alice b', roles: ['stream-reader', 'sla-reader'], disabled: false });
});

t.test('a role already held, or one to remove that is not held: no write, and a note for the second', async (t) => {
  const held = await ops('users', 'update', '2', '--add-role', 'maintenance-writer');
  t.equal(held.code, 0);
  t.same(held.requests, ['GET /users/2'], 'nothing to change: nothing sent');
  t.match(held.stdout, /^roles +maintenance-writer$/m, 'the user as it is');
  t.equal(held.stderr, '');

  const absent = await ops('users', 'update', '2', '--remove-role', 'sla-reder');
  t.equal(absent.code, 0);
  t.same(absent.requests, ['GET /users/2']);
  t.equal(absent.stderr, 'note: user 2 does not hold role sla-reder; nothing to remove\n');

  const withName = await ops('users', 'update', '2', '--remove-role', 'sla-reader', '--disable');
  t.same(withName.requests, ['GET /users/2', 'PATCH /users/2 {"disabled":true}'], 'the other changes are still sent, without roles');
  t.equal(alice.disabled, true);
});

t.test('an unknown role to add is the API error, exit status 1; an unknown user likewise', async (t) => {
  const unknown = await ops('users', 'update', '2', '--add-role', 'nosuch');
  t.equal(unknown.code, 1);
  t.equal(unknown.stderr, 'error: 400 Bad request: Unknown role nosuch [role.unknown]\n');
  t.same(alice.roles, ['maintenance-writer']);
  const missing = await ops('users', 'update', '9', '--add-role', 'sla-reader');
  t.equal(missing.code, 1);
  t.same(missing.requests, ['GET /users/9'], 'no PATCH after a failed read');
  t.equal(missing.stderr, 'error: 404 Not found: User 9 not found [user.not_found]\n');
});

t.test('--role still replaces the whole set, in one request, without reading the user', async (t) => {
  const r = await ops('users', 'update', '2', '--role', 'sla-reader');
  t.equal(r.code, 0);
  t.same(r.requests, ['PATCH /users/2 {"roles":["sla-reader"]}']);
  t.same(alice.roles, ['sla-reader']);
  const cleared = await ops('users', 'update', '2', '--clear-roles');
  t.same(cleared.requests, ['PATCH /users/2 {"roles":[]}']);
});

t.test('usage errors: replacing and changing together, one role both added and removed', async (t) => {
  const usageOf = (...argv: string[]): string => {
    const parsed = parseCommandLine(argv, NOUNS);
    return parsed.kind === 'usage' ? parsed.message : parsed.kind;
  };
  t.equal(usageOf('users', 'update', '2', '--role', 'a', '--add-role', 'b'), 'options --role and --add-role cannot be used together');
  t.equal(usageOf('users', 'update', '2', '--clear-roles', '--remove-role', 'b'), 'options --clear-roles and --remove-role cannot be used together');
  t.equal(usageOf('users', 'update', '2', '--add-role', 'a', '--remove-role', 'b'), 'command');
  const both = await ops('users', 'update', '2', '--add-role', 'sla-reader', '--remove-role', 'sla-reader');
  t.equal(both.code, 2);
  t.match(both.stderr, /^error: --add-role and --remove-role both name "sla-reader"\n\nUsage: ops users update <id> \[options\]/);
  t.same(both.requests, [], 'nothing sent');
  const help = await ops('users', 'update', '--help');
  t.match(help.stdout, /--add-role <role> +A role to give the user; its other roles stay \(repeatable\)/);
  t.match(help.stdout, /--role <role> +A role of the user's new set of roles \(replaces the whole set\)/);
});

/**
 * The CLI end to end, in-process, against a tiny HTTP server answering a few admin paths with
 * canned JSON and problem+json.
 */

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { run } from '../../../../services/cli/main.js';

const TOKEN = 'test-token-0123456789abcdef';
const PREFIX = '/api/admin/v1';

const alice = { id: 2, name: 'alice', roles: ['ops'], disabled: false, createdAt: '2025-01-01T00:00:00.000Z', workGroupIds: [1, 3], rights: ['base-system.sla.read'] };
const admin = { id: 1, name: 'admin', roles: ['admin'], disabled: false, createdAt: '2025-01-01T00:00:00.000Z', workGroupIds: [], rights: ['base-system.admin'] };
const bootstrapToken = { id: 1, userId: 1, name: 'bootstrap', createdAt: '2025-01-01T00:00:00.000Z', expiresAt: null, revokedAt: null, lastUsedAt: null };

interface Answer {
  status: number;
  body?: unknown;
  problem?: boolean;
}

const answers: Record<string, Answer> = {
  'GET /me': { status: 200, body: { user: admin, token: bootstrapToken } },
  'GET /users': { status: 200, body: [admin, alice] },
  'POST /users': { status: 201, body: alice },
  'GET /users/9': { status: 404, problem: true, body: { type: 'urn:ops:problem:not-found', title: 'Not found', status: 404, detail: 'User 9 not found' } },
  'POST /work-groups': {
    status: 400,
    problem: true,
    body: {
      type: 'urn:ops:problem:validation',
      title: 'Invalid data model',
      status: 400,
      detail: 'The body does not match the schema',
      errors: [{ path: '/name', message: 'must NOT have more than 255 characters' }],
    },
  },
  'DELETE /users/2': { status: 204 },
  'POST /config-item-type-icons?name=rack&fileName=rack.png': {
    status: 201,
    body: {
      id: 1000,
      name: 'rack',
      fileName: 'rack.png',
      userspaceId: 1,
      iconUrl: '/api/public/sm/v2/rsm/config-item-type-icons/1000',
      builtIn: false,
      contentType: 'image/png',
      bytes: 3,
    },
  },
  'POST /users/2/tokens': { status: 201, body: { ...bootstrapToken, id: 5, userId: 2, name: 'laptop', token: 'the-new-secret-xyz' } },
};

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const seen: Seen[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const path = (req.url ?? '').slice(PREFIX.length);
    seen.push({ method: req.method ?? '', path, headers: req.headers, body });
    const answer = (req.url ?? '').startsWith(PREFIX) ? answers[`${req.method} ${path}`] : undefined;
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'urn:ops:problem:route-not-found', title: 'No such route', status: 404, detail: `${req.method} ${req.url}` }));
      return;
    }
    if (answer.body === undefined) {
      res.writeHead(answer.status);
      res.end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.problem ? 'application/problem+json' : 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
});

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
t.teardown(() => {
  server.closeAllConnections();
  server.close();
});

async function ops(argv: string[], env: Record<string, string | undefined> = { OPS_URL: url, OPS_TOKEN: TOKEN }) {
  let stdout = '';
  let stderr = '';
  const before = seen.length;
  const code = await run(argv, env, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr, requests: seen.slice(before) };
}

t.test('the token goes in the Authorization header and nowhere in the output', async (t) => {
  const r = await ops(['whoami']);
  t.equal(r.code, 0);
  t.equal(r.stderr, '');
  t.equal(r.requests.length, 1);
  t.equal(r.requests[0]!.method, 'GET');
  t.equal(r.requests[0]!.path, '/me');
  t.equal(r.requests[0]!.headers['authorization'], `Bearer ${TOKEN}`);
  t.match(r.stdout, /^id {16}1\nname {14}admin\n[\s\S]*\ntoken\.name {8}bootstrap\n[\s\S]*\ntoken\.lastUsedAt {2}-\n$/);
  t.notMatch(r.stdout, TOKEN);
});

t.test('OPS_ADMIN_TOKEN is the fallback, and --url wins over OPS_URL', async (t) => {
  const r = await ops(['whoami', '--url', url], { OPS_URL: 'http://127.0.0.1:1', OPS_ADMIN_TOKEN: 'admin-token-0123456789' });
  t.equal(r.code, 0);
  t.equal(r.requests[0]?.headers['authorization'], 'Bearer admin-token-0123456789');
});

t.test('a list prints as an aligned table', async (t) => {
  const r = await ops(['users', 'list']);
  t.equal(r.code, 0);
  t.equal(r.stdout, ['ID  NAME   ROLES  WORK GROUPS  DISABLED', '1   admin  admin  -            false', '2   alice  ops    1, 3         false', ''].join('\n'));
});

t.test('--json prints the answer as is, pretty', async (t) => {
  const r = await ops(['users', 'list', '--json']);
  t.equal(r.code, 0);
  t.equal(r.stdout, `${JSON.stringify([admin, alice], null, 2)}\n`);
  t.same(JSON.parse(r.stdout), [admin, alice]);
});

t.test('an icon upload sends the file as it is, as image/png', async (t) => {
  let stdout = '';
  const before = seen.length;
  const io = { stdout: { write: (x: string) => (stdout += x) }, stderr: { write: () => true }, readBytes: async () => new Uint8Array([0x50, 0x4e, 0x47]) };
  const code = await run(['ci-type-icons', 'upload', '--file', 'art/rack.png'], { OPS_URL: url, OPS_TOKEN: TOKEN }, io);
  t.equal(code, 0);
  const [request] = seen.slice(before);
  t.equal(request!.headers['content-type'], 'image/png');
  t.equal(request!.body, 'PNG', 'the bytes of the file');
  t.match(stdout, /^id {11}1000\nname {9}rack\n/);
});

t.test('a create sends its JSON body and prints the created object', async (t) => {
  const r = await ops(['users', 'create', '--name', 'alice', '--role', 'ops', '--work-group', '1', '--work-group', '3']);
  t.equal(r.code, 0);
  t.equal(r.requests[0]!.method, 'POST');
  t.equal(r.requests[0]!.headers['content-type'], 'application/json');
  t.same(JSON.parse(r.requests[0]!.body), { name: 'alice', roles: ['ops'], workGroupIds: [1, 3] });
  t.match(r.stdout, /^id {12}2\nname {10}alice\nroles {9}ops\n/);
  t.match(r.stdout, /\nworkGroupIds {2}1, 3\n/);
});

t.test('an issued token shows its secret once', async (t) => {
  const r = await ops(['tokens', 'issue', '2', '--name', 'laptop']);
  t.equal(r.code, 0);
  t.equal(r.stdout.split('the-new-secret-xyz').length, 2);
  t.match(r.stdout, /Token secret \(shown only now/);
});

t.test('a delete answered 204 prints what was done; with --json nothing', async (t) => {
  const r = await ops(['users', 'delete', '2']);
  t.same([r.code, r.stdout, r.stderr], [0, 'Deleted user 2.\n', '']);
  const j = await ops(['users', 'delete', '2', '--json']);
  t.same([j.code, j.stdout, j.stderr], [0, '', '']);
});

t.test('an API error prints the problem to stderr and exits 1', async (t) => {
  const r = await ops(['users', 'get', '9']);
  t.same([r.code, r.stdout, r.stderr], [1, '', 'error: 404 Not found: User 9 not found\n']);
  const v = await ops(['work-groups', 'create', '--name', 'x', '--json']);
  t.same([v.code, v.stdout], [1, '']);
  t.equal(v.stderr, 'error: 400 Invalid data model: The body does not match the schema\n  /name: must NOT have more than 255 characters\n');
});

t.test('no token: exit 2 with a clear message, and no request', async (t) => {
  for (const env of [{ OPS_URL: url }, { OPS_URL: url, OPS_TOKEN: '  ', OPS_ADMIN_TOKEN: '' }]) {
    const r = await ops(['users', 'list'], env);
    t.same([r.code, r.stdout, r.requests.length], [2, '', 0]);
    t.equal(r.stderr, 'error: no API token: set OPS_TOKEN to your personal token (or OPS_ADMIN_TOKEN to the admin token)\n');
  }
  const bad = await ops(['users', 'list'], { OPS_URL: url, OPS_TOKEN: 'not a token\n' });
  t.same([bad.code, bad.requests.length], [2, 0]);
  t.equal(bad.stderr, 'error: OPS_TOKEN does not hold a token (allowed characters: A-Z a-z 0-9 . _ ~ + / = -)\n');
});

t.test('usage errors exit 2 with the help on stderr before any request', async (t) => {
  const r = await ops(['users', 'get', 'nine']);
  t.same([r.code, r.stdout, r.requests.length], [2, '', 0]);
  t.match(r.stderr, /^error: <id> must be a positive integer, got "nine"\n\nUsage: ops users get <id>\n/);
  const u = await ops(['users', 'list', '--bogus']);
  t.equal(u.code, 2);
  t.match(u.stderr, /^error: unknown option --bogus\n/);
  const e = await ops(['users', 'list'], { OPS_URL: 'localhost:8080', OPS_TOKEN: TOKEN });
  t.same([e.code, e.stderr], [2, 'error: OPS_URL must be an http:// or https:// URL\n']);
});

t.test('--help prints to stdout, exits 0 and needs no token', async (t) => {
  const r = await ops(['streams', 'create', '--help'], {});
  t.equal(r.code, 0);
  t.match(r.stdout, /^Usage: ops streams create --name <name> \[options\]\n/);
  t.equal(r.stderr, '');
});

t.test('an unreachable platform is an error (exit 1), naming the URL but not the token', async (t) => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const r = await ops(['whoami'], { OPS_URL: `http://127.0.0.1:${port}`, OPS_TOKEN: TOKEN });
  t.equal(r.code, 1);
  t.equal(r.stderr, `error: cannot reach http://127.0.0.1:${port}/api/admin/v1/me: ECONNREFUSED\n`);
});

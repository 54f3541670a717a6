/**
 * Issue #31, Security: the outbound client against real local servers (node:http on 127.0.0.1).
 * Loopback is refused unless OPS_NOTIFY_ALLOW_NETWORKS lists it, so the positive cases open
 * 127.0.0.1/32 through the policy; every refusal is checked to have sent nothing.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { type AppError, isAppError } from '../../../schemas/errors.js';
import { problemReply } from '../../../services/runtime/http/problem.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { createAddressPolicy, parseAllowNetworks } from '../../../services/runtime/outbound/address-policy.js';
import {
  checkUrl,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type ResolveHost,
  resolveForSend,
  send,
} from '../../../services/runtime/outbound/outbound-client.js';

const none = createAddressPolicy();
const loopbackOpen = createAddressPolicy(parseAllowNetworks('127.0.0.1/32'));

interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  authorization: string | undefined;
  body: string;
}

/** A server on 127.0.0.1 that records what it receives and answers by path. */
async function startServer(handle: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void): Promise<{ server: Server; origin: string; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: req.url ?? '', host: req.headers.host, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() };
      seen.push(s);
      handle(req, res, s);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });
  const port = (server.address() as AddressInfo).port;
  return { server, origin: `http://127.0.0.1:${port}`, port, seen };
}

const receiver = await startServer((req, res, seen) => {
  const path = (req.url ?? '').split('?')[0];
  if (path === '/metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  else if (path === '/to-ipv6-loopback') res.writeHead(302, { location: `http://[::1]:${(req.socket.localPort ?? 0).toString()}/echo` }).end();
  else if (path === '/to-private') res.writeHead(307, { location: 'http://10.0.0.1/hook' }).end();
  else if (path === '/to-other-loopback') res.writeHead(301, { location: 'http://127.0.0.2/' }).end();
  else if (path === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
  else if (path === '/loop') res.writeHead(302, { location: '/loop' }).end();
  else if (path === '/see-other') res.writeHead(303, { location: '/echo' }).end();
  else if (path === '/temporary') res.writeHead(307, { location: 'echo?hop=1' }).end();
  else if (path === '/found') res.writeHead(302, { location: '/echo' }).end();
  else if (path === '/big') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(1024 * 1024, 0x61));
  else if (path === '/slow-body') {
    res.writeHead(200);
    res.write('first part');
  } else if (path === '/gone') res.writeHead(410, { 'retry-after': '5' }).end('gone');
  else res.writeHead(200, { 'content-type': 'application/json', 'x-echo': 'yes' }).end(JSON.stringify(seen)); // what this request was
});

/** Expects `promise` to reject with the catalogue error `code`; returns it. */
async function refusal(promise: Promise<unknown>, code: string): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) {
      t.equal(error.code, code, error.detail);
      return error;
    }
    throw error;
  }
  throw new Error(`expected ${code}, the request succeeded`);
}

t.test('the defaults: 15 s timeout, 3 redirects, 64 KiB of body', async (t) => {
  t.equal(DEFAULT_TIMEOUT_MS, 15_000);
  t.equal(DEFAULT_MAX_REDIRECTS, 3);
  t.equal(DEFAULT_MAX_BODY_BYTES, 65_536);
});

t.test('an allowed address is reached: status, headers, body and latency', async (t) => {
  const before = receiver.seen.length;
  const response = await send({ url: `${receiver.origin}/echo?a=1`, method: 'post', headers: { 'content-type': 'application/json' }, body: '{"x":1}' }, { policy: loopbackOpen });
  t.equal(response.status, 200);
  t.equal(response.headers['x-echo'], 'yes');
  t.equal(response.bodyTruncated, false);
  t.equal(response.redirects, 0);
  t.ok(response.latencyMs >= 0 && response.latencyMs < 5000, `${response.latencyMs} ms`);
  const seen = JSON.parse(response.body.toString()) as Seen;
  t.match(seen, { method: 'POST', url: '/echo?a=1', host: `127.0.0.1:${receiver.port}`, body: '{"x":1}' });
  t.equal(receiver.seen.length, before + 1);
});

t.test('an HTTP error status is an answer, not a failure', async (t) => {
  const response = await send({ url: `${receiver.origin}/gone`, method: 'POST', body: 'x' }, { policy: loopbackOpen });
  t.equal(response.status, 410);
  t.equal(response.headers['retry-after'], '5');
  t.equal(response.body.toString(), 'gone');
});

t.test('refused without a listed network: loopback, private, metadata, [::1], odd forms and names resolving to them; nothing is sent', async (t) => {
  const cases: Array<[string, string, string]> = [
    [`${receiver.origin}/echo`, 'loopback', '127.0.0.1'],
    ['http://10.0.0.1/hook', 'private', '10.0.0.1'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud-metadata', '169.254.169.254'],
    [`http://[::1]:${receiver.port}/echo`, 'loopback', '::1'],
    [`http://localhost:${receiver.port}/echo`, 'loopback', 'localhost'],
    [`http://0x7f.1:${receiver.port}/echo`, 'loopback', '127.0.0.1'],
    [`http://2130706433:${receiver.port}/echo`, 'loopback', '127.0.0.1'],
    [`http://[::ffff:127.0.0.1]:${receiver.port}/echo`, 'loopback', '::ffff:7f00:1'],
    ['http://0.0.0.0/', 'unspecified', '0.0.0.0'],
    ['http://100.64.1.1/', 'cgnat', '100.64.1.1'],
    ['https://192.168.1.1/', 'private', '192.168.1.1'],
    ['http://[fe80::1]/', 'link-local', 'fe80::1'],
    ['http://[fd00:ec2::254]/', 'cloud-metadata', 'fd00:ec2::254'],
  ];
  const before = receiver.seen.length;
  for (const [url, rule, host] of cases) {
    const error = await refusal(send({ url, method: 'POST', body: '{}' }, { policy: none }), 'notify.address_refused');
    t.equal(error.kind, 'bad-request');
    t.match(error.detail, `refused by the ${rule} rule`, url);
    t.match(error.detail, ` of ${host} `, url);
    t.match(error.detail, 'OPS_NOTIFY_ALLOW_NETWORKS', url);
  }
  t.equal(receiver.seen.length, before, 'no request reached the server');
});

t.test('a refused receiver URL is a 400 naming the rule when saved (checkUrl)', async (t) => {
  t.equal(await checkUrl(`${receiver.origin}/echo`, loopbackOpen), undefined);
  t.equal(await checkUrl('https://8.8.8.8/hook', none), undefined, 'a public address passes');
  const answers: Array<[string, string, RegExp]> = [
    ['http://127.0.0.1/', 'notify.address_refused', /loopback rule \(127\.0\.0\.0\/8\)/],
    ['http://10.0.0.1/', 'notify.address_refused', /private rule \(10\.0\.0\.0\/8\)/],
    ['http://169.254.169.254/', 'notify.address_refused', /cloud-metadata rule/],
    ['http://[::1]/', 'notify.address_refused', /loopback rule \(::1\/128\)/],
    ['http://localhost/', 'notify.address_refused', /of localhost is refused by the loopback rule/],
    ['ftp://example.com/', 'notify.scheme_refused', /uses ftp:; only http: and https:/],
    ['file:///etc/passwd', 'notify.scheme_refused', /uses file:/],
    ['not a url', 'notify.url_invalid', /receiver URL is not an absolute URL/],
    ['http://nonexistent.invalid/hook', 'notify.host_not_found', /nonexistent\.invalid does not resolve \(ENOTFOUND\)/],
  ];
  for (const [url, code, detail] of answers) {
    const error = await checkUrl(url, none);
    t.equal(error?.code, code, url);
    t.match(error?.detail, detail, url);
    const reply = problemReply(error, silentLogger());
    t.equal(reply.status, 400, url);
    t.match(reply.body, { code, type: 'urn:ops:problem:bad-request' });
  }
});

t.test('a name is refused when ANY of its addresses is refused', async (t) => {
  const resolveHost: ResolveHost = async () => [
    { address: '127.0.0.1', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ];
  const before = receiver.seen.length;
  const error = await refusal(send({ url: `http://mixed.test:${receiver.port}/echo` }, { policy: loopbackOpen, resolveHost }), 'notify.address_refused');
  t.match(error.detail, 'The address 10.0.0.1 of mixed.test is refused by the private rule');
  t.equal(receiver.seen.length, before);
  t.equal((await checkUrl(`http://mixed.test:${receiver.port}/`, loopbackOpen, { resolveHost }))?.code, 'notify.address_refused');
});

t.test('the connection goes to the address checked: a second DNS answer (rebinding) is never asked for', async (t) => {
  let lookups = 0;
  const resolveHost: ResolveHost = async () => {
    lookups += 1;
    return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '169.254.169.254', family: 4 }];
  };
  const response = await send({ url: `http://rebind.test:${receiver.port}/echo` }, { policy: loopbackOpen, resolveHost });
  t.equal(response.status, 200);
  t.equal(lookups, 1, 'one resolution, and the connect used its address');
  const seen = JSON.parse(response.body.toString()) as Seen;
  t.equal(seen.host, `rebind.test:${receiver.port}`, 'the Host header is the name');
});

t.test('each redirect hop is checked again: a redirect to a refused address is refused naming the rule', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['/metadata', 'cloud-metadata', '169.254.169.254'],
    ['/to-ipv6-loopback', 'loopback', '::1'],
    ['/to-private', 'private', '10.0.0.1'],
    ['/to-other-loopback', 'loopback', '127.0.0.2'],
  ];
  for (const [path, rule, address] of cases) {
    const error = await refusal(send({ url: `${receiver.origin}${path}`, method: 'POST', body: '{}' }, { policy: loopbackOpen }), 'notify.address_refused');
    t.match(error.detail, `The address ${address} `);
    t.match(error.detail, `refused by the ${rule} rule`);
    t.match(error.detail, `reached by a redirect from ${receiver.origin}`);
    t.equal(problemReply(error, silentLogger()).status, 400);
  }
  const scheme = await refusal(send({ url: `${receiver.origin}/to-file` }, { policy: loopbackOpen }), 'notify.scheme_refused');
  t.match(scheme.detail, `The Location of the redirect from ${receiver.origin} uses file:`);
});

t.test('redirects: followed up to the limit, 303 and a 302 of a POST go on as GET, 307 keeps method and body', async (t) => {
  const temporary = await send({ url: `${receiver.origin}/temporary`, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'payload' }, { policy: loopbackOpen });
  t.equal(temporary.redirects, 1);
  t.match(JSON.parse(temporary.body.toString()) as Seen, { method: 'POST', url: '/echo?hop=1', body: 'payload' });
  const seeOther = await send({ url: `${receiver.origin}/see-other`, method: 'PUT', body: 'payload' }, { policy: loopbackOpen });
  t.match(JSON.parse(seeOther.body.toString()) as Seen, { method: 'GET', url: '/echo', body: '' });
  const found = await send({ url: `${receiver.origin}/found`, method: 'POST', body: 'payload' }, { policy: loopbackOpen });
  t.match(JSON.parse(found.body.toString()) as Seen, { method: 'GET', body: '' });

  const before = receiver.seen.length;
  const loop = await refusal(send({ url: `${receiver.origin}/loop?secret=x` }, { policy: loopbackOpen }), 'notify.too_many_redirects');
  t.equal(loop.detail, `GET ${receiver.origin} was redirected more than 3 times`);
  t.equal(receiver.seen.length - before, 4, 'the first request and 3 redirects');
  const once = await refusal(send({ url: `${receiver.origin}/loop` }, { policy: loopbackOpen, maxRedirects: 1 }), 'notify.too_many_redirects');
  t.match(once.detail, 'more than 1 times');
});

t.test('credentials of the URL are sent as basic authentication, kept on the same origin, dropped on another', async (t) => {
  const other = await startServer((_req, res, seen) => res.writeHead(200).end(JSON.stringify(seen)));
  const redirector = await startServer((req, res) => {
    if (req.url === '/same') res.writeHead(307, { location: '/echo' }).end();
    else if (req.url === '/away') res.writeHead(307, { location: `${other.origin}/echo` }).end();
    else res.writeHead(200).end();
  });
  const url = (path: string): string => `http://alice:s%3Acret@127.0.0.1:${redirector.port}${path}`;
  const basic = `Basic ${Buffer.from('alice:s:cret').toString('base64')}`;
  await send({ url: url('/same'), headers: { Authorization: basic } }, { policy: loopbackOpen });
  t.same(
    redirector.seen.map((s) => s.authorization),
    [basic, basic],
  );
  await send({ url: url('/away'), headers: { Authorization: basic, 'X-Other': '1' } }, { policy: loopbackOpen });
  t.equal(other.seen.at(-1)?.authorization, undefined, 'no Authorization to another origin');
});

t.test('a server that never answers: the total timeout ends the request as a transient failure', async (t) => {
  const silent = await startServer(() => undefined);
  const started = performance.now();
  const error = await refusal(send({ url: `${silent.origin}/hook`, method: 'POST', body: '{}' }, { policy: loopbackOpen, timeoutMs: 300 }), 'notify.timeout');
  const elapsed = performance.now() - started;
  t.ok(elapsed >= 250 && elapsed < 3000, `ended after ${Math.round(elapsed)} ms`);
  t.equal(error.kind, 'unavailable');
  t.equal(error.detail, `POST ${silent.origin} did not complete within 300 ms`);
  t.equal(problemReply(error, silentLogger()).status, 503);
  t.equal(silent.seen.length, 1, 'the request arrived; no answer came');

  const slowBody = await refusal(send({ url: `${receiver.origin}/slow-body` }, { policy: loopbackOpen, timeoutMs: 300 }), 'notify.timeout');
  t.match(slowBody.detail, 'did not complete within 300 ms', 'the timeout covers the body too');
});

t.test("the caller's own abort is thrown as its reason", async (t) => {
  const silent = await startServer(() => undefined);
  const controller = new AbortController();
  const reason = new Error('stopping');
  setImmediate(() => controller.abort(reason));
  await t.rejects(send({ url: `${silent.origin}/hook` }, { policy: loopbackOpen, signal: controller.signal }), reason);
});

t.test('the body read is bounded', async (t) => {
  const big = await send({ url: `${receiver.origin}/big` }, { policy: loopbackOpen });
  t.equal(big.status, 200);
  t.equal(big.body.length, 64 * 1024);
  t.equal(big.bodyTruncated, true);
  const small = await send({ url: `${receiver.origin}/big` }, { policy: loopbackOpen, maxBodyBytes: 10 });
  t.equal(small.body.toString(), 'aaaaaaaaaa');
  t.equal(small.bodyTruncated, true);
  const whole = await send({ url: `${receiver.origin}/gone` }, { policy: loopbackOpen, maxBodyBytes: 4 });
  t.equal(whole.body.toString(), 'gone');
  t.equal(whole.bodyTruncated, false, 'exactly the bound is not truncated');
});

t.test('connection and DNS failures are transient; no message prints user info, path or query', async (t) => {
  const closed = await startServer(() => undefined);
  closed.server.close();
  await once(closed.server, 'close');
  const secrets = ['alice', 'pa55word', 'T0KEN123', 'qu3ry', 'sig='];
  const url = (origin: string): string => origin.replace('http://', 'http://alice:pa55word@') + '/services/T0KEN123?sig=qu3ry&x=1';
  const refusedConnection = await refusal(send({ url: url(closed.origin), method: 'POST', body: '{}' }, { policy: loopbackOpen }), 'notify.connection_failed');
  t.equal(refusedConnection.kind, 'unavailable');
  t.equal(refusedConnection.detail, `POST ${closed.origin} failed: ECONNREFUSED`);

  const unresolved = await refusal(send({ url: 'https://alice:pa55word@nonexistent.invalid/services/T0KEN123?sig=qu3ry' }, { policy: none }), 'notify.host_unresolved');
  t.equal(unresolved.kind, 'unavailable', 'at delivery, a name that does not resolve is retried');

  const silent = await startServer(() => undefined);
  const errors = [
    refusedConnection,
    unresolved,
    await refusal(send({ url: url(silent.origin) }, { policy: loopbackOpen, timeoutMs: 100 }), 'notify.timeout'),
    await refusal(send({ url: 'http://alice:pa55word@10.0.0.1/services/T0KEN123?sig=qu3ry' }, { policy: none }), 'notify.address_refused'),
    await refusal(
      send({ url: `${receiver.origin.replace('http://', 'http://alice:pa55word@')}/loop?sig=qu3ry` }, { policy: loopbackOpen, maxRedirects: 0 }),
      'notify.too_many_redirects',
    ),
    await checkUrl('http://alice:pa55word@127.0.0.1/services/T0KEN123?sig=qu3ry', none),
  ];
  t.equal(errors.length, 6);
  for (const error of errors) {
    if (!error) throw new Error('checkUrl accepted a refused URL');
    const text = JSON.stringify(problemReply(error, silentLogger()).body);
    for (const secret of secrets) t.notMatch(text, secret, `${error.code} does not print ${secret}`);
  }
});

t.test('resolveForSend (SMTP): the checked addresses to connect to; a name that does not resolve is transient, a refused address is named', async (t) => {
  t.same(await resolveForSend('127.0.0.1', loopbackOpen), [{ address: '127.0.0.1', family: 4 }]);
  t.same(await resolveForSend('::1', createAddressPolicy(parseAllowNetworks('::1/128'))), [{ address: '::1', family: 6 }], 'an IPv6 literal, bracketed for the check');
  const resolveHost: ResolveHost = async (name) =>
    name === 'mail.test' ? [{ address: '8.8.4.4', family: 4 }] : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' }));
  t.same(await resolveForSend('mail.test', none, { resolveHost }), [{ address: '8.8.4.4', family: 4 }]);
  const missing = await refusal(resolveForSend('gone.test', none, { resolveHost }), 'notify.host_unresolved');
  t.equal(missing.kind, 'unavailable', 'tried again later, not dead-lettered');
  t.match((await refusal(resolveForSend('::1', none), 'notify.address_refused')).detail, /loopback/);
});

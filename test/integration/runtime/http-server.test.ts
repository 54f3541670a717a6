import { Agent, request } from 'node:http';
import t, { type Test } from 'tap';
import Type from 'typebox';
import { fail } from '../../../schemas/errors.js';
import { createMetrics } from '../../../services/runtime/http/metrics.js';
import { json, type Route } from '../../../services/runtime/http/route.js';
import { createHttpServer, type HttpServer } from '../../../services/runtime/http/server.js';
import { createLogger, silentLogger } from '../../../services/runtime/logger.js';
import { call } from '../../support/http.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
/** The request held by GET /held: the test learns when it reached its handler, and decides when it is answered. */
const held = { entered: deferred(), release: deferred() };
const HELD_ANSWER = 'h'.repeat(64 * 1024);

const routes: Route[] = [
  {
    method: 'GET',
    path: '/held',
    name: 'test.held',
    summary: 'answered when the test lets it',
    tags: ['test'],
    schema: { responses: { 200: { description: 'ok' } } },
    handler: async () => {
      held.entered.resolve();
      await held.release.promise;
      return json(200, { held: HELD_ANSWER });
    },
  },
  {
    method: 'POST',
    path: '/things',
    name: 'test.createThing',
    summary: 'create',
    tags: ['test'],
    schema: {
      body: Type.Object({ name: Type.String({ minLength: 1 }), size: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false }),
      responses: { 201: { description: 'created' } },
    },
    handler: (req) => json(201, { created: req.body }),
  },
  {
    method: 'GET',
    path: '/things/:id',
    name: 'test.getThing',
    summary: 'get',
    tags: ['test'],
    schema: { query: Type.Object({ verbose: Type.Optional(Type.Boolean()) }), responses: { 200: { description: 'ok' } } },
    handler: (req) => {
      if (req.params['id'] === 'missing') throw fail('ci.not_found', { what: 'Thing', id: 'missing' });
      if (req.params['id'] === 'boom') throw new Error('secret internal detail');
      return json(200, { id: req.params['id'], verbose: req.query.get('verbose') });
    },
  },
  {
    method: 'POST',
    path: '/raw',
    name: 'test.raw',
    summary: 'raw',
    tags: ['test'],
    rawBody: true,
    accepts: ['text/plain'],
    maxBodyBytes: 1024,
    schema: { responses: { 200: { description: 'ok' } } },
    handler: async (req) => json(200, { length: req.rawBody.length }),
  },
];

let server: HttpServer;
let base = '';
t.before(async () => {
  server = createHttpServer({ host: '127.0.0.1', port: 0, maxBodyBytes: 4096 }, { logger: silentLogger(), metrics: createMetrics() });
  server.add(routes);
  base = `http://127.0.0.1:${await server.listen()}`;
});
t.teardown(() => server.stopAccepting());

const isProblem = (t: Test, answer: { headers: Headers; body: any }, status: number, code: string): void => {
  t.equal(answer.headers.get('content-type'), 'application/problem+json');
  t.equal(answer.body.status, status);
  t.equal(answer.body.type, `urn:ops:problem:${code}`);
  t.type(answer.body.title, 'string');
  t.type(answer.body.detail, 'string');
};

t.test('a valid JSON body reaches the handler', async (t) => {
  const answer = await call(base, 'POST', '/things', { json: { name: 'a', size: 2 } });
  t.equal(answer.status, 201);
  t.same(answer.body, { created: { name: 'a', size: 2 } });
});

t.test('an oversize body gets 413 problem+json and the server stays up', async (t) => {
  const answer = await call(base, 'POST', '/things', { body: JSON.stringify({ name: 'x'.repeat(10_000) }), headers: { 'content-type': 'application/json' } });
  t.equal(answer.status, 413);
  isProblem(t, answer, 413, 'payload-too-large');
  t.equal((await call(base, 'GET', '/things/1')).status, 200);
});

t.test('a route limit overrides the server limit', async (t) => {
  const answer = await call(base, 'POST', '/raw', { body: 'y'.repeat(2048), headers: { 'content-type': 'text/plain' } });
  t.equal(answer.status, 413);
  t.equal((await call(base, 'POST', '/raw', { body: 'y'.repeat(1000), headers: { 'content-type': 'text/plain' } })).body.length, 1000);
});

t.test('a wrong content type gets 415 problem+json', async (t) => {
  const answer = await call(base, 'POST', '/things', { body: 'name=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.equal(answer.status, 415);
  isProblem(t, answer, 415, 'unsupported-media-type');
  const missing = await call(base, 'POST', '/things', { body: '{}' });
  t.equal(missing.status, 415);
});

t.test('a charset other than UTF-8 gets 415 problem+json; utf-8 and us-ascii are fine', async (t) => {
  for (const type of ['application/json; charset=utf-16', 'application/json;charset="ISO-8859-1"']) {
    const answer = await call(base, 'POST', '/things', { headers: { 'content-type': type }, body: '{"name":"x"}' });
    isProblem(t, answer, 415, 'unsupported-media-type');
    t.match(answer.body.detail, /must be UTF-8/);
  }
  for (const type of ['application/json; charset=UTF-8', 'application/json; charset=us-ascii']) {
    t.equal((await call(base, 'POST', '/things', { headers: { 'content-type': type }, body: '{"name":"x"}' })).status, 201, type);
  }
});

t.test('header fields over 16 KiB get 431 problem+json; 12 KiB of them (a large token) are fine', async (t) => {
  const ok = await call(base, 'GET', '/things/1', { headers: { 'x-large-token': 'a'.repeat(12 * 1024) } });
  t.equal(ok.status, 200, "over uWS's own 4 KiB default, under the platform's limit");
  for (const [path, method] of [
    ['/things/1', 'GET'],
    ['/things', 'POST'],
    ['/nowhere', 'GET'],
  ] as const) {
    const answer = await call(base, method, path, {
      headers: { 'content-type': 'application/json', 'x-large-token': 'a'.repeat(20 * 1024) },
      ...(method === 'POST' ? { body: '{"name":"x"}' } : {}),
    });
    isProblem(t, answer, 431, 'header-fields-too-large');
    t.match(answer.body.detail, /limit is 16384/);
  }
  t.equal((await call(base, 'GET', '/things/1')).status, 200, 'the server stays up');
});

t.test('content type parameters are ignored', async (t) => {
  const answer = await call(base, 'POST', '/things', { body: '{"name":"b"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
  t.equal(answer.status, 201);
});

t.test('an unknown path gets 404 problem+json', async (t) => {
  const answer = await call(base, 'GET', '/nowhere/at/all');
  t.equal(answer.status, 404);
  isProblem(t, answer, 404, 'route-not-found');
});

t.test('a known path with another method gets 405 with Allow', async (t) => {
  const answer = await call(base, 'DELETE', '/things/1');
  t.equal(answer.status, 405);
  t.equal(answer.headers.get('allow'), 'GET, HEAD');
  isProblem(t, answer, 405, 'method-not-allowed');
});

t.test('HEAD on a GET route answers its status and headers, with the length of its body and no body', async (t) => {
  const get = await fetch(`${base}/things/7`);
  const getText = await get.text();
  const head = await fetch(`${base}/things/7`, { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.headers.get('content-type'), 'application/json');
  t.equal(head.headers.get('content-length'), String(Buffer.byteLength(getText)));
  t.equal(await head.text(), '');
  const missing = await fetch(`${base}/things/missing`, { method: 'HEAD' });
  t.equal(missing.status, 404, 'errors too');
  t.equal(await missing.text(), '');
});

t.test('a HEAD answer (a length, no body) leaves its kept-alive connection serving the next request', async (t) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const send = (method: string, path: string) =>
    new Promise<{ status: number; length: string | undefined; body: string; socket: unknown }>((resolve, reject) => {
      const req = request(`${base}${path}`, { method, agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, length: res.headers['content-length'], body, socket: req.socket }));
      });
      req.on('error', reject);
      req.end();
    });
  const head = await send('HEAD', '/things/7');
  t.equal(head.status, 200);
  t.ok(Number(head.length) > 0, 'the length the body would have');
  const get = await send('GET', '/things/7');
  t.equal(get.socket, head.socket, 'the same connection');
  t.equal(get.status, 200);
  t.equal(get.body.length, Number(head.length), 'the body HEAD announced');
  const missing = await send('HEAD', '/things/missing');
  t.equal(missing.status, 404);
  t.equal((await send('GET', '/things/8')).status, 200, 'after an error answer to HEAD too');
});

t.test('malformed JSON gets 400 invalid-json', async (t) => {
  const answer = await call(base, 'POST', '/things', { body: '{"name":', headers: { 'content-type': 'application/json' } });
  t.equal(answer.status, 400);
  isProblem(t, answer, 400, 'invalid-json');
});

t.test('an empty JSON body gets 400 empty-body', async (t) => {
  const answer = await call(base, 'POST', '/things', { body: '', headers: { 'content-type': 'application/json' } });
  t.equal(answer.status, 400);
  isProblem(t, answer, 400, 'empty-body');
});

t.test('a body that does not fit the schema lists every offending field', async (t) => {
  const answer = await call(base, 'POST', '/things', { json: { size: -1, extra: true } });
  t.equal(answer.status, 400);
  isProblem(t, answer, 400, 'validation');
  const paths = (answer.body.errors as Array<{ path: string }>).map((e) => e.path).sort();
  t.same(paths, ['/extra', '/name', '/size']);
});

t.test('query parameters are converted and validated', async (t) => {
  t.equal((await call(base, 'GET', '/things/7?verbose=true')).status, 200);
  const bad = await call(base, 'GET', '/things/7?verbose=perhaps');
  t.equal(bad.status, 400);
  t.equal(bad.body.errors[0].path, '/verbose');
});

t.test('a boolean query parameter is true/1 or false/0 in any case, nothing else (one rule for every route)', async (t) => {
  for (const value of ['true', 'false', '1', '0', 'TRUE', 'False']) t.equal((await call(base, 'GET', `/things/7?verbose=${value}`)).status, 200, value);
  for (const value of ['yes', 'on', '2', '']) {
    const answer = await call(base, 'GET', `/things/7?verbose=${value}`);
    isProblem(t, answer, 400, 'validation');
    t.same(answer.body.errors, [{ path: '/verbose', message: 'must be true or false (or 1 or 0)' }], JSON.stringify(value));
  }
});

t.test('path parameters are decoded', async (t) => {
  t.equal((await call(base, 'GET', '/things/a%20b')).body.id, 'a b');
});

t.test('an AppError keeps its status; an unexpected error is a 500 that hides its message', async (t) => {
  const missing = await call(base, 'GET', '/things/missing');
  isProblem(t, missing, 404, 'not-found');
  const boom = await call(base, 'GET', '/things/boom');
  isProblem(t, boom, 500, 'internal');
  t.notMatch(boom.text, /secret internal detail/);
});

t.test('every answer carries a request id', async (t) => {
  const answer = await call(base, 'GET', '/things/1', { headers: { 'x-request-id': 'abc-123' } });
  t.equal(answer.headers.get('x-request-id'), 'abc-123');
  t.ok((await call(base, 'GET', '/things/1')).headers.get('x-request-id'));
});

t.test('drain waits for the request in flight', async (t) => {
  t.equal(server.inFlight(), 0, 'nothing in flight before');
  t.equal(await server.drain(1), true, 'with nothing in flight, drain resolves true at once');
  const pending = call(base, 'GET', '/held');
  await held.entered.promise;
  t.equal(server.inFlight(), 1, 'the held request is in flight');
  let drained: boolean | undefined;
  // A generous limit: drain must resolve because the request finished, not because time passed.
  const draining = server.drain(120_000).then((result) => (drained = result));
  // Another request answered in full: many turns of both event loops, and drain still waits.
  t.equal((await call(base, 'GET', '/things/1')).status, 200);
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(drained, undefined, 'drain has not resolved while the request is in flight');
  t.equal(server.inFlight(), 1, 'the held request is still in flight');
  held.release.resolve();
  t.equal(await draining, true, 'drain resolves true once the request is answered');
  t.equal(server.inFlight(), 0, 'nothing in flight once drained');
  const answer = await pending;
  t.equal(answer.status, 200, 'the held request was answered');
  t.equal(answer.body?.held, HELD_ANSWER, 'with its whole body');
});

t.test('once the listener is closed, a request on a kept-alive connection gets 503 with Retry-After, and the connection closes', async (t) => {
  const own = createHttpServer({ host: '127.0.0.1', port: 0, maxBodyBytes: 4096 }, { logger: silentLogger(), metrics: createMetrics() });
  own.add(routes);
  const port = await own.listen();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const get = () =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any; socket: unknown }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/things/1', agent }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text), socket: req.socket }));
      });
      req.on('error', reject);
      req.end();
    });
  const first = await get();
  t.equal(first.status, 200);
  own.stopAccepting();
  const second = await get();
  t.equal(second.socket, first.socket, 'the same kept-alive connection');
  t.equal(second.status, 503);
  t.equal(second.headers['content-type'], 'application/problem+json');
  t.equal(second.body.type, 'urn:ops:problem:unavailable');
  t.equal(second.headers['retry-after'], '1');
  t.equal(second.headers['connection'], 'close');
  t.equal(await own.drain(1000), true);
});

t.test('every answer writes one access line at info: request id, method, path without its query, route, status and time; none at warn', async (t) => {
  const lines: string[] = [];
  const output = { write: (line: string) => void lines.push(line) };
  for (const level of ['info', 'warn']) {
    lines.length = 0;
    const own = createHttpServer({ host: '127.0.0.1', port: 0, maxBodyBytes: 4096 }, { logger: createLogger(level, output), metrics: createMetrics() });
    own.add(routes);
    const port = await own.listen();
    // A request id the client chose, with what JSON must escape: the line stays one JSON object.
    const answer = await call(`http://127.0.0.1:${port}`, 'GET', '/things/1?secret=abc', { headers: { 'x-request-id': 'id "quoted" \\ back' } });
    t.equal(answer.status, 200);
    own.stopAccepting();
    const access = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    if (level === 'warn') {
      t.same(access, [], 'no access line at warn');
      continue;
    }
    t.equal(access.length, 1, 'one line');
    t.equal(answer.headers.get('x-request-id'), 'id "quoted" \\ back');
    t.match(access[0], { level: 30, time: Number, pid: process.pid, reqId: 'id "quoted" \\ back', method: 'GET', path: '/things/1', route: String, status: 200, ms: Number });
    t.notOk(
      lines.some((line) => line.includes('secret=abc')),
      'the query is not logged',
    );
  }
});

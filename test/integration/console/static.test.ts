/**
 * Issue #32, the console's files on the API's HTTP server (services/api/console/console.routes.ts):
 * the page for `/` and every deep link, the hashed assets cached for a year, gzip and brotli by
 * Accept-Encoding, ETags and 304, the Content-Security-Policy and the other headers on every
 * answer, 404 for a missing asset, and the API's own paths left alone. Served from a build made
 * here (so nothing depends on the screens' contents), then once from the real build.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import t, { type Test } from 'tap';
import { createApiPart } from '../../../services/api/api.part.js';
import { CONTENT_SECURITY_POLICY } from '../../../services/api/console/console.routes.js';
import { DIST_DIR } from '../../../services/console/build.js';
import { checkProblem } from '../../support/http.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const SCRIPT = 'main-K3F2A9QZ.js';
const STYLE = 'main-7TQ1XW4B.css';
const files: Record<string, Buffer> = {
  'index.html': Buffer.from(
    `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Operations console</title>\n<link rel="stylesheet" href="/assets/${STYLE}">\n<script type="module" src="/assets/${SCRIPT}"></script>\n</head>\n<body>\n<div id="app"></div>\n</body>\n</html>\n`,
  ),
  [`assets/${SCRIPT}`]: Buffer.from(Array.from({ length: 400 }, (_, i) => `export const screen${i} = () => fetch("/api/public/sm/v1/problems?limit=${i}");\n`).join('')),
  [`assets/${SCRIPT}.map`]: Buffer.from(JSON.stringify({ version: 3, sources: ['app/main.tsx'], mappings: 'AAAA;'.repeat(500) })),
  [`assets/${STYLE}`]: Buffer.from(':root { --bg: #fff; }\n'.repeat(200)),
  'assets/chunk-Q8WZ2M1C.js': Buffer.from('x'),
  'assets/logo-5RT7YH2K.png': randomBytes(4096),
};

let dir: string;
let p: TestPlatform;
t.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ops-console-dist-'));
  mkdirSync(join(dir, 'assets'));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  p = await startTestPlatform({ parts: ['api'], replace: [createApiPart({ consoleDir: dir })], logLevel: 'warn' });
});
t.teardown(async () => {
  await p?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** A request with exactly these headers, answered as sent (fetch would add Accept-Encoding and decode). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET', base = p.base): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string | undefined>, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function hasConsoleHeaders(t: Test, answer: Raw, what: string): void {
  t.equal(answer.headers['content-security-policy'], CSP, `${what}: the CSP, no inline script or style`);
  t.equal(answer.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  t.equal(answer.headers['referrer-policy'], 'same-origin', `${what}: referrer policy`);
}

function isProblem(t: Test, answer: Raw, status: number, code: string, what: string): void {
  t.equal(answer.status, status, `${what}: ${status}`);
  t.equal(answer.headers['content-type'], 'application/problem+json', `${what}: problem+json`);
  const body = JSON.parse(answer.body.toString());
  checkProblem(answer.status, body, what);
  t.equal(body.code, code, `${what}: ${code}`);
}

t.test('the policy the routes send is the one the issue states', async (t) => {
  t.equal(CONTENT_SECURITY_POLICY, CSP);
});

t.test('/ and every console URL answer index.html, revalidated on every load', async (t) => {
  const index = files['index.html']!;
  for (const path of ['/', '/problems', '/problems/0b6f2c1e-4f4a-4f7e-9d7c-1f2e3d4c5b6a', '/cmdb/ci/5', '/sign-in?next=%2Fproblems', '/admin/', '/a/b/c/d']) {
    const answer = await raw(path);
    t.equal(answer.status, 200, `${path}: 200`);
    t.equal(answer.headers['content-type'], 'text/html; charset=utf-8', `${path}: html`);
    t.equal(answer.headers['cache-control'], 'no-cache', `${path}: no-cache`);
    t.ok(answer.body.equals(index), `${path}: the page`);
    t.match(answer.headers['etag'], /^"[A-Za-z0-9_-]+"$/, `${path}: a strong ETag`);
    t.equal(answer.headers['content-encoding'], undefined, `${path}: not encoded when the request accepts no coding`);
    t.equal(answer.headers['vary'], 'Accept-Encoding');
    hasConsoleHeaders(t, answer, path);
  }
  const head = await raw('/cmdb/ci/5', {}, 'HEAD');
  t.equal(head.status, 200, 'HEAD of a deep link');
  t.equal(head.headers['content-length'], String(index.length), 'with the length of the page');
  t.equal(head.body.length, 0, 'and no body');
  hasConsoleHeaders(t, head, 'HEAD');
});

t.test('the hashed assets: their types, cached for a year as immutable', async (t) => {
  const types: Record<string, string> = {
    [SCRIPT]: 'text/javascript; charset=utf-8',
    [`${SCRIPT}.map`]: 'application/json; charset=utf-8',
    [STYLE]: 'text/css; charset=utf-8',
    'logo-5RT7YH2K.png': 'image/png',
  };
  for (const [name, type] of Object.entries(types)) {
    const answer = await raw(`/assets/${name}`);
    t.equal(answer.status, 200, name);
    t.equal(answer.headers['content-type'], type, `${name}: ${type}`);
    t.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable', `${name}: a year, immutable`);
    t.ok(answer.body.equals(files[`assets/${name}`]!), `${name}: its bytes`);
    t.ok(answer.headers['etag'], `${name}: an ETag`);
    hasConsoleHeaders(t, answer, name);
  }
});

t.test('gzip and brotli by Accept-Encoding, where they make a file smaller', async (t) => {
  const script = files[`assets/${SCRIPT}`]!;
  const cases: Array<[string, string | undefined]> = [
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['br;q=0, gzip;q=0', undefined],
  ];
  for (const [accept, coding] of cases) {
    const answer = await raw(`/assets/${SCRIPT}`, { 'accept-encoding': accept });
    t.equal(answer.status, 200, accept);
    t.equal(answer.headers['content-encoding'], coding, `Accept-Encoding: ${accept} → ${coding ?? 'none'}`);
    const decoded = coding === 'br' ? brotliDecompressSync(answer.body) : coding === 'gzip' ? gunzipSync(answer.body) : answer.body;
    t.ok(decoded.equals(script), `${accept}: decodes to the file`);
    if (coding) t.ok(answer.body.length < script.length / 4, `${accept}: ${answer.body.length} bytes of ${script.length}`);
    t.equal(answer.headers['vary'], 'Accept-Encoding');
    t.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable');
  }
  const br = await raw(`/assets/${SCRIPT}`, { 'accept-encoding': 'br' });
  const gz = await raw(`/assets/${SCRIPT}`, { 'accept-encoding': 'gzip' });
  const plain = await raw(`/assets/${SCRIPT}`);
  t.equal(new Set([br.headers['etag'], gz.headers['etag'], plain.headers['etag']]).size, 3, 'each encoding has its own ETag');
  const page = await raw('/problems', { 'accept-encoding': 'gzip, br' });
  t.equal(page.headers['content-encoding'], 'br', 'the page too');
  t.ok(brotliDecompressSync(page.body).equals(files['index.html']!));

  const tiny = await raw('/assets/chunk-Q8WZ2M1C.js', { 'accept-encoding': 'br, gzip' });
  t.equal(tiny.headers['content-encoding'], undefined, 'a file encoding would not make smaller is sent as it is');
  t.equal(tiny.body.toString(), 'x');
  const image = await raw('/assets/logo-5RT7YH2K.png', { 'accept-encoding': 'br, gzip' });
  t.equal(image.headers['content-encoding'], undefined, 'an image is not encoded');
  t.equal(image.headers['vary'], undefined, 'nor does its answer vary by coding');
});

t.test('a matching If-None-Match gets 304 with the same headers and no body', async (t) => {
  for (const [path, accept] of [
    ['/', undefined],
    ['/problems/42', 'br'],
    [`/assets/${SCRIPT}`, 'gzip'],
    [`/assets/${STYLE}`, undefined],
  ] as const) {
    const headers: Record<string, string> = accept ? { 'accept-encoding': accept } : {};
    const first = await raw(path, headers);
    const tag = first.headers['etag']!;
    const again = await raw(path, { ...headers, 'if-none-match': tag });
    t.equal(again.status, 304, `${path}: 304`);
    t.equal(again.body.length, 0, `${path}: no body`);
    t.equal(again.headers['etag'], tag, `${path}: the same ETag`);
    t.equal(again.headers['content-length'], undefined, `${path}: no length of its own`);
    t.equal(again.headers['cache-control'], first.headers['cache-control'], `${path}: the same caching`);
    hasConsoleHeaders(t, again, `${path} 304`);
    t.equal((await raw(path, { ...headers, 'if-none-match': `"other", W/${tag}` })).status, 304, `${path}: a list, weakly compared`);
    t.equal((await raw(path, { ...headers, 'if-none-match': '"other"' })).status, 200, `${path}: another tag gets the file`);
  }
  const gzTag = (await raw(`/assets/${SCRIPT}`, { 'accept-encoding': 'gzip' })).headers['etag']!;
  t.equal((await raw(`/assets/${SCRIPT}`, { 'accept-encoding': 'br', 'if-none-match': gzTag })).status, 200, "the gzip variant's tag does not stand for the brotli one");
});

t.test('a missing asset is 404 (with the console headers); paths with an extension are not console URLs', async (t) => {
  const missing = await raw('/assets/main-MISSING1.js');
  isProblem(t, missing, 404, 'console.file_not_found', 'a missing asset');
  hasConsoleHeaders(t, missing, 'a missing asset');
  isProblem(t, await raw('/assets/nested/main.js'), 404, 'http.route_not_found', 'below assets/');
  isProblem(t, await raw('/assets'), 404, 'http.route_not_found', 'assets itself');
  isProblem(t, await raw('/favicon.ico'), 404, 'http.route_not_found', 'a file name outside assets/');
  isProblem(t, await raw('/problems/report.csv'), 404, 'http.route_not_found', 'a deep path with an extension');
  isProblem(t, await raw('/build.json'), 404, 'http.route_not_found', 'the build description is not served');
});

t.test("the API's and the process's own paths are left to them", async (t) => {
  isProblem(t, await raw('/api/nowhere'), 404, 'http.route_not_found', 'an unknown API path');
  isProblem(t, await raw('/api'), 404, 'http.route_not_found', '/api');
  isProblem(t, await raw('/api/console/v1/session', {}, 'PUT'), 405, 'http.method_not_allowed', 'another method of an API route');
  isProblem(t, await raw('/api/public/sm/v2/rsm/config-items'), 401, 'auth.header_missing', 'an API route');
  isProblem(t, await raw('/metrics/x'), 404, 'http.route_not_found', 'below /metrics');
  isProblem(t, await raw('/healthz/x'), 404, 'http.route_not_found', 'below /healthz');
  isProblem(t, await raw('/readyz/x'), 404, 'http.route_not_found', 'below /readyz');
  const health = await raw('/healthz');
  t.same(JSON.parse(health.body.toString()), { status: 'ok' });
  t.equal(health.headers['content-security-policy'], undefined, 'the console headers are the console’s');
  t.match((await raw('/metrics')).body.toString(), /ops_http_requests_total\{route="console\.page",method="GET",status="200"\}/, 'console answers are counted by route');
  t.equal((await raw('/api/openapi.json')).status, 200);
  isProblem(t, await raw('/problems', {}, 'POST'), 404, 'http.route_not_found', 'POST of a console URL');
  isProblem(t, await raw('/', {}, 'POST'), 405, 'http.method_not_allowed', 'POST /');
});

t.test('the console is not in the OpenAPI document', async (t) => {
  const doc = JSON.parse((await raw('/api/openapi.json')).body.toString());
  t.same(
    Object.keys(doc.paths).filter((path) => !path.startsWith('/api/') && !['/healthz', '/readyz', '/metrics'].includes(path)),
    [],
  );
  t.ok(doc.paths['/api/console/v1/session'], 'its session endpoint is');
});

// chDB opens one data directory per process: the platforms below replace the one above.
t.test('a console that cannot be read answers 503 with the reason, and the API goes on', async (t) => {
  await p.stop();
  const broken = await startTestPlatform({ parts: ['api'], replace: [createApiPart({ consoleDir: join(dir, 'no-such-dir') })], logLevel: 'fatal' });
  try {
    const answer = await raw('/problems', {}, 'GET', broken.base);
    isProblem(t, answer, 503, 'console.not_built', 'no dist/');
    t.match(JSON.parse(answer.body.toString()).detail, /index\.html/);
    hasConsoleHeaders(t, answer, 'no dist/');
    t.equal((await broken.api('GET', '/api/admin/v1/me')).status, 200, 'the API is served');
  } finally {
    await broken.stop();
  }
});

t.test('the real build: the API part builds the console when stale and serves what build.json names', async (t) => {
  const real = await startTestPlatform({ parts: ['api'], logLevel: 'fatal' });
  try {
    const page = await raw('/', {}, 'GET', real.base);
    t.equal(page.status, 200, `the console is served (${page.body.toString().slice(0, 300)})`);
    const built = JSON.parse(readFileSync(join(DIST_DIR, 'build.json'), 'utf8')) as { script: string; style?: string };
    t.match(page.body.toString(), `src="/${built.script}"`, 'the page names the built script');
    const script = await raw(`/${built.script}`, { 'accept-encoding': 'br' }, 'GET', real.base);
    t.equal(script.status, 200);
    t.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    t.equal(script.headers['content-encoding'], 'br');
    t.ok(brotliDecompressSync(script.body).equals(readFileSync(join(DIST_DIR, built.script))), 'the built script');
    t.notMatch(page.body.toString(), /<script>|<style>|style="/, 'no inline script or style in the page');
  } finally {
    await real.stop();
  }
});

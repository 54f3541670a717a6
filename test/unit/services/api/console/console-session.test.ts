/**
 * Issue #32: the pure pieces of the console's session and files: reading the cookie, comparing
 * the CSRF proof, when the cookie is Secure, the Set-Cookie values, which codings a request
 * accepts, and which paths are console URLs.
 */
import t from 'tap';
import { acceptedCodings, isConsolePath } from '../../../../../services/api/console/console.routes.js';
import { clearedCookie, cookieIsSecure, csrfMatches, sessionCookie, sessionSecretOf } from '../../../../../services/api/sessions.js';

t.test('the session secret is read from the ops_session cookie among others', async (t) => {
  t.equal(sessionSecretOf(undefined), undefined);
  t.equal(sessionSecretOf(''), undefined);
  t.equal(sessionSecretOf('ops_session=abc'), 'abc');
  t.equal(sessionSecretOf('theme=dark; ops_session=abc; lang=en'), 'abc');
  t.equal(sessionSecretOf('theme=dark;ops_session= abc '), 'abc', 'spaces around are not part of it');
  t.equal(sessionSecretOf('xops_session=abc; ops_sessions=def'), undefined, 'only that name');
  t.equal(sessionSecretOf('ops_session=first; ops_session=second'), 'first', 'the first of two');
  t.equal(sessionSecretOf('ops_session='), '', 'an emptied cookie');
});

t.test('the CSRF proof must be exactly the session’s', async (t) => {
  t.equal(csrfMatches('abc', 'abc'), true);
  t.equal(csrfMatches('abd', 'abc'), false);
  t.equal(csrfMatches('ab', 'abc'), false, 'shorter');
  t.equal(csrfMatches('abcd', 'abc'), false, 'longer');
  t.equal(csrfMatches('', 'abc'), false);
});

t.test('OPS_COOKIE_SECURE: always, never, or auto by X-Forwarded-Proto', async (t) => {
  t.equal(cookieIsSecure('always', {}), true);
  t.equal(cookieIsSecure('never', { 'x-forwarded-proto': 'https' }), false);
  t.equal(cookieIsSecure('auto', {}), false, 'plain HTTP');
  t.equal(cookieIsSecure('auto', { 'x-forwarded-proto': 'https' }), true);
  t.equal(cookieIsSecure('auto', { 'x-forwarded-proto': 'HTTPS' }), true);
  t.equal(cookieIsSecure('auto', { 'x-forwarded-proto': 'https, http' }), true, 'the first proxy tells how the client came');
  t.equal(cookieIsSecure('auto', { 'x-forwarded-proto': 'http' }), false);
});

t.test('the Set-Cookie values', async (t) => {
  t.equal(sessionCookie('s3cret', false), 'ops_session=s3cret; HttpOnly; SameSite=Strict; Path=/');
  t.equal(sessionCookie('s3cret', true), 'ops_session=s3cret; HttpOnly; SameSite=Strict; Path=/; Secure');
  t.equal(clearedCookie(false), 'ops_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
  t.equal(clearedCookie(true), 'ops_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0; Secure');
});

t.test('Accept-Encoding: the codings accepted, best first', async (t) => {
  const cases: Array<[string | undefined, string[]]> = [
    [undefined, []],
    ['', []],
    ['identity', []],
    ['gzip', ['gzip']],
    ['br', ['br']],
    ['gzip, deflate, br, zstd', ['br', 'gzip']],
    ['gzip;q=1.0, br;q=0.8', ['gzip', 'br']],
    ['GZIP; Q=0.5, BR; q=0.5', ['br', 'gzip']],
    ['br;q=0, gzip', ['gzip']],
    ['br;q=0.0, gzip;q=0', []],
    ['*', ['br', 'gzip']],
    ['*;q=0.3, gzip', ['gzip', 'br']],
    ['*;q=0, br', ['br']],
    ['x-gzip', ['gzip']],
  ];
  for (const [header, codings] of cases) t.same(acceptedCodings(header), codings, String(header));
});

t.test('console URLs: outside the API, the assets and the process endpoints, without a file extension', async (t) => {
  for (const path of ['/', '/problems', '/problems/0b6f2c1e', '/cmdb/ci/5', '/sign-in', '/admin/', '/apis', '/assetsx/y', '/metricsboard'])
    t.equal(isConsolePath(path), true, path);
  for (const path of ['/api', '/api/', '/api/public/x', '/assets', '/assets/main.js', '/metrics', '/healthz', '/readyz', '/readyz/x', '/favicon.ico', '/problems/x.csv', '/.env'])
    t.equal(isConsolePath(path), false, path);
});

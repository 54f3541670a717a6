/**
 * Issue #34, the small input checks: an integer query parameter is decimal digits on every route
 * (TypeBox's Convert took `1.5` as 1 and `1e3` as 1000), and the Alertmanager receiver reads
 * payload version 4 only.
 */
import t from 'tap';
import { call } from '../../support/http.js';
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { createStream } from '../../support/streams.js';

let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform({});
});
t.teardown(() => p.stop());

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

t.test('a non-integer text for an integer query parameter is a 400 naming the parameter, on every route', async (t) => {
  const cases: Array<[string, string, string, unknown?]> = [
    ['GET', '/api/admin/v1/triggers?streamId=1.5', 'streamId'],
    ['GET', '/api/admin/v1/triggers?streamId=1e3', 'streamId'],
    ['GET', '/api/public/sm/v1/sla/ordered/1/timeline?configItemId=1.5', 'configItemId'],
    ['POST', '/api/public/sm/v1/rsm-maintenance/preview?occurrences=1.5', 'occurrences', {}],
  ];
  for (const [method, path, name, json] of cases) {
    const answer = await call(p.base, method, path, { headers: admin, ...(json === undefined ? {} : { json }) });
    t.equal(answer.status, 400, `${method} ${path}`);
    t.equal(answer.body.code, 'http.query_invalid');
    t.strictSame(answer.body.errors, [{ path: `/${name}`, message: 'must be an integer (decimal digits, no fraction or exponent)' }]);
  }
  const fine = await call(p.base, 'GET', '/api/admin/v1/triggers?streamId=7', { headers: admin });
  t.equal(fine.status, 200, 'digits are an integer');
});

t.test('an Alertmanager payload of another version than 4 is a 400 with its own code', async (t) => {
  const stream = await createStream(p, 'alertmanager-version');
  const body = (version?: string) => ({ ...(version === undefined ? {} : { version }), groupKey: 'g', status: 'firing', receiver: 'ops', alerts: [] });
  const post = (json: unknown) => call(p.base, 'POST', `/api/public/cl/v1/alertmanager?streamKey=${stream.key}`, { json });
  t.equal((await post(body('4'))).status, 200);
  const v3 = await post(body('3'));
  t.equal(v3.status, 400);
  t.equal(v3.body.code, 'ingest.alertmanager_version');
  t.match(v3.body.detail, /version is "3"; this receiver reads version 4/);
  const none = await post(body());
  t.equal(none.status, 400);
  t.equal(none.body.code, 'http.body_invalid');
  t.match(none.body.errors, [{ path: '/version' }]);
});

/**
 * Foundation: every process serves /healthz, /readyz (engines reachable), /metrics (Prometheus
 * text) and /api/openapi.json generated from the route schemas.
 */
import t from 'tap';
import { startDistributed } from '../../support/distributed.js';
import { call } from '../../support/http.js';
import { startTestPlatform } from '../../support/platform.js';
import { missingServices } from '../../support/services.js';

t.test('embedded: health, readiness, metrics and the OpenAPI document', async (t) => {
  const p = await startTestPlatform();
  t.teardown(() => p.stop());
  t.same((await call(p.base, 'GET', '/healthz')).body, { status: 'ok' });
  const ready = await call(p.base, 'GET', '/readyz');
  t.equal(ready.status, 200);
  t.same(ready.body.engines, {
    analytics: { ok: true, kind: 'chdb' },
    bus: { ok: true, kind: 'memory' },
    journal: { ok: true, kind: 'lmdb' },
    problemState: { ok: true, kind: 'lmdb' },
  });

  await p.api('GET', '/api/public/sm/v2/rsm/config-item-types');
  await p.api('GET', '/api/public/sm/v2/rsm/config-items/abc');
  const metrics = await call(p.base, 'GET', '/metrics');
  t.equal(metrics.status, 200);
  t.match(metrics.headers.get('content-type'), /^text\/plain/);
  t.match(metrics.text, /ops_http_requests_total\{route="cmdb\.listConfigItemTypes",method="GET",status="200"\} 1/);
  t.match(metrics.text, /ops_http_requests_total\{route="cmdb\.getConfigItem",method="GET",status="400"\} 1/);
  t.match(metrics.text, /ops_http_request_duration_seconds_bucket\{le="0\.005",route="cmdb\.listConfigItemTypes",method="GET"\}/);
  t.match(metrics.text, /ops_bus_pending_messages\{stream="RECORDS"\} 0/);
  t.match(metrics.text, /process_cpu_user_seconds_total/);

  const doc = await call(p.base, 'GET', '/api/openapi.json');
  t.equal(doc.body.openapi, '3.1.0');
  const operations = Object.values(doc.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((o) => Object.values(o).map((x) => x.operationId));
  for (const route of p.platform.http.routes().filter((r) => !r.hidden)) t.ok(operations.includes(route.name), `${route.name} is documented`);
  t.same(
    p.platform.http
      .routes()
      .filter((r) => r.hidden)
      .map((r) => r.name),
    ['console.page', 'console.asset'],
    'only the console’s files are left out',
  );
  const create = doc.body.paths['/api/public/sm/v2/rsm/config-items'].post;
  t.equal(create.requestBody.content['application/json'].schema.type, 'object');
  t.ok(create.responses['201'].content['application/json'].schema.properties.sharedToWorkGroups, 'the CI model is described');
  t.same(create.security, [{ bearer: [] }, { session: [] }]);
  t.same(doc.body.paths['/api/public/cl/v1/stream-data'].post.security, [{ streamKeyQuery: [] }, { streamKeyHeader: [] }]);
  t.same(Object.keys(doc.body.paths['/api/public/cl/v1/stream-data'].post.requestBody.content).sort(), [
    'application/json',
    'application/jsonlines',
    'application/ndjson',
    'application/x-ndjson',
    'text/plain',
    'text/xml',
  ]);
});

const skip = missingServices('nats-server', 'redis-server');
t.test('distributed: /readyz answers 503 naming the engine that is down, 200 once it is back', { skip }, async (t) => {
  const servers = await startDistributed();
  t.teardown(() => servers.stop());
  const p = await startTestPlatform({ env: servers.env(), parts: ['api'] });
  t.teardown(() => p.stop());
  const ready = await call(p.base, 'GET', '/readyz');
  t.equal(ready.status, 200);
  t.same(
    Object.values(ready.body.engines)
      .map((e) => (e as { kind: string }).kind)
      .sort(),
    ['clickhouse', 'jetstream', 'redis', 'redis'],
  );
  await servers.nats.kill(true);
  const down = await call(p.base, 'GET', '/readyz');
  t.equal(down.status, 503);
  t.equal(down.body.status, 'not-ready');
  t.equal(down.body.engines.bus.ok, false);
  t.equal(down.body.engines.journal.ok, true);
  t.equal((await call(p.base, 'GET', '/healthz')).status, 200, 'alive all the same');
  await servers.nats.restart();
  const deadline = Date.now() + 15_000;
  let status = 0;
  while (Date.now() < deadline && status !== 200) {
    status = (await call(p.base, 'GET', '/readyz')).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(status, 200, 'ready again after the bus is back');
});

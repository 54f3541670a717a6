/**
 * Foundation acceptance: `npm start` (services/main.ts) on a fresh data directory answers /healthz
 * within 30 s and logs where the data lives; SIGTERM stops it with exit 0; started again it keeps
 * what the journal and chDB held; a bad variable stops the start with one line naming it.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/free-port.js';
import { call } from '../../support/http.js';
import { runEntry } from '../../support/process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'ops-npm-start-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(port: number) {
  const service = runEntry('services/main.ts', { OPS_PORT: String(port), OPS_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  await service.waitFor(/listening on port/);
  return service;
}

t.test('first start: health within 30 s, data location logged, admin token printed once, SIGTERM exits 0', async (t) => {
  const port = await freePort();
  const started = Date.now();
  const service = await start(port);
  const base = `http://127.0.0.1:${port}`;
  t.equal((await call(base, 'GET', '/healthz')).status, 200);
  t.ok(Date.now() - started < 30_000);
  t.match(service.output(), new RegExp(`chDB at ${dataDir}/clickhouse`));
  t.match(service.output(), new RegExp(`LMDB at ${dataDir}/control`));
  const token = /Bootstrap admin token[^\n]*\n\n\s+(\S+)/.exec(service.output())?.[1];
  t.ok(token, 'the generated admin token is printed');
  const ready = await call(base, 'GET', '/readyz');
  t.equal(ready.status, 200);
  t.same(Object.keys(ready.body.engines).sort(), ['analytics', 'bus', 'journal', 'problemState']);
  const wg = await call(base, 'POST', '/api/admin/v1/work-groups', { json: { name: 'Persisted' }, headers: { authorization: `Bearer ${token}` } });
  t.equal(wg.status, 201);
  service.child.kill('SIGTERM');
  const exit = await service.exited;
  t.equal(exit.code, 0);
  t.match(service.output(), /"msg":"stopped"/);

  t.test('second start keeps the journal and the analytics store', async (t) => {
    const again = await start(port);
    t.notMatch(again.output(), /Bootstrap admin token/, 'no new admin on a non-empty installation');
    const groups = await call(base, 'GET', '/api/public/sm/v2/rsm/work-groups', { headers: { authorization: `Bearer ${token}` } });
    t.equal(groups.status, 200, 'the admin token from the first start still works');
    t.same(groups.body, [{ id: wg.body.id, name: 'Persisted' }]);
    t.notMatch(again.output(), /analytics migrations applied/, 'migrations already applied are not applied again');
    again.child.kill('SIGTERM');
    t.equal((await again.exited).code, 0);
  });
});

t.test('a bad variable stops the start with one line naming it', async (t) => {
  const service = runEntry('services/main.ts', { OPS_PORT: 'eighty', OPS_DATA_DIR: dataDir });
  const exit = await service.exited;
  t.equal(exit.code, 1);
  t.equal(service.output().trim(), 'ops: OPS_PORT must be an integer port from 1 to 65535 (got "eighty")');
});

t.test('a service alone refuses embedded engines', async (t) => {
  const service = runEntry('services/api/main.ts', { OPS_DATA_DIR: dataDir });
  const exit = await service.exited;
  t.equal(exit.code, 1);
  t.match(service.output(), /^ops: the api service runs as its own process only in distributed mode/);
});

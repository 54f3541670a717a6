/**
 * The embedded engine and the process's stdin: chDB takes whatever waits on stdin as data for an
 * INSERT (services/runtime/stdin.ts). `npm start` with bytes piped in must start, store exactly the
 * records it accepted, and nothing of what was piped.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createChdbStore } from '../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { freePort } from '../../support/free-port.js';
import { call } from '../../support/http.js';
import { runEntry } from '../../support/process.js';

const TOKEN = 'stdin-test-admin-token-0123456789abcdef';
// A well-formed event row and a line of noise: either would end up in (or break) an insert.
const PIPED = '{"id":"00000000-0000-0000-0000-000000000001","stream_id":1,"payload":"from stdin"}\nnoise\n';

t.test('npm start with data piped on stdin stores exactly the accepted records', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-stdin-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const service = runEntry('services/main.ts', { OPS_PORT: String(port), OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'info' }, { stdin: PIPED });
  await service.waitFor(/listening on port/);
  const base = `http://127.0.0.1:${port}`;
  const stream = await call(base, 'POST', '/api/admin/v1/streams', { json: { name: 'piped' }, headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(stream.status, 201);
  for (let i = 0; i < 3; i++) {
    const sent = await call(base, 'POST', `/api/public/cl/v1/stream-data?streamKey=${stream.body.key}`, { json: { n: i } });
    t.equal(sent.status, 200, `record ${i} accepted`);
  }
  service.child.kill('SIGTERM');
  t.equal((await service.exited).code, 0);

  const store = await createChdbStore({ dataDir: join(dataDir, 'clickhouse') }, { logger: silentLogger() });
  t.teardown(() => store.close());
  const rows = await store.query<{ stream_id: string; payload: string }>('SELECT stream_id, payload FROM events ORDER BY payload');
  t.same(
    rows.map((r) => [Number(r.stream_id), JSON.parse(r.payload)]),
    [0, 1, 2].map((n) => [stream.body.id, { n }]),
    'the three records, and no row from stdin',
  );
});

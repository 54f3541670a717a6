import { randomBytes } from 'node:crypto';
import t from 'tap';
import { createClickHouseStore } from '../../services/runtime/adapters/analytics/clickhouse.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { startClickHouseHttp } from '../support/clickhouse-http.js';
import { freePort } from '../support/free-port.js';
import { analyticsContract } from './analytics.contract.js';

// The engine behind the HTTP interface is chDB (test/support/clickhouse-http-server.ts).
const server = await startClickHouseHttp();
t.teardown(() => server.stop());

analyticsContract(t, 'clickhouse', async () => {
  const config = { url: server.url, database: `ops_${randomBytes(4).toString('hex')}` };
  const deps = { logger: silentLogger() };
  return { store: await createClickHouseStore(config, deps), reopen: () => createClickHouseStore(config, deps) };
});

t.test('clickhouse: opening where no server listens rejects', async (t) => {
  const url = `http://127.0.0.1:${await freePort()}`;
  await t.rejects(createClickHouseStore({ url, database: 'ops' }, { logger: silentLogger() }));
});

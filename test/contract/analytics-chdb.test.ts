import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createChdbStore } from '../../services/runtime/adapters/analytics/chdb.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { analyticsContract } from './analytics.contract.js';

// chDB binds one data directory per process: every store in this file shares this one, each test
// in a database of its own.
const dataDir = mkdtempSync(join(tmpdir(), 'ops-chdb-contract-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

analyticsContract(t, 'chdb', async () => {
  const config = { dataDir, database: `ops_${randomBytes(4).toString('hex')}` };
  const deps = { logger: silentLogger() };
  return { store: await createChdbStore(config, deps), reopen: () => createChdbStore(config, deps) };
});

/**
 * Benchmark child, the CMDB seeder: starts the whole platform on its embedded engines in the data
 * directory OPS_DATA_DIR (made by the orchestrator, kept after this process), creates two
 * workgroups and a non-admin user (member of one) with a token through the admin API, seeds the
 * 100 000 CIs of cmdb-dataset.ts in a few control-plane commits, stops the platform (everything
 * on disk), then prints one JSON line on stdout: `{ token, ... }` and exits. The orchestrator
 * then starts the platform on that directory as `npm start` does, with BENCH_ADMIN_TOKEN as its
 * admin token.
 *
 * Environment: OPS_DATA_DIR, LOG_LEVEL (default `warn`; logs go to stderr).
 */
import { pino } from 'pino';
import { parts } from '../../services/parts.js';
import { startPlatform } from '../../services/platform.js';
import { loadConfig } from '../../services/runtime/config.js';
import { createLogger } from '../../services/runtime/logger.js';
import { detachStdin } from '../../services/runtime/stdin.js';
import { adminApi } from './admin-api.js';
import { BENCH_ADMIN_TOKEN, CI_COUNT, type CmdbSeedInfo, type DatasetContext, readableByOps, seedChanges } from './cmdb-dataset.js';

const SEED_CHUNK = 10_000;
const SEED_TIME = '2026-01-01T00:00:00.000Z';

detachStdin();
const logLevel = process.env['LOG_LEVEL'] || 'warn';
const dataDir = process.env['OPS_DATA_DIR'];
if (!dataDir) throw new Error('OPS_DATA_DIR names the data directory to seed');
const config = loadConfig({ OPS_PORT: '1', OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: BENCH_ADMIN_TOKEN, LOG_LEVEL: logLevel });
config.port = 0;
// Logs go to stderr: stdout carries the answer.
const logger = createLogger(config.logLevel, pino.destination(2));

try {
  const platform = await startPlatform(config, parts, { logger });
  const admin = adminApi(`http://127.0.0.1:${platform.port}`, BENCH_ADMIN_TOKEN);

  const me = await admin('GET', '/api/admin/v1/me');
  const ops = await admin('POST', '/api/admin/v1/work-groups', { name: 'Operations' });
  const net = await admin('POST', '/api/admin/v1/work-groups', { name: 'Network' });
  const user = await admin('POST', '/api/admin/v1/users', { name: 'bench-reader', roles: [], workGroupIds: [ops.id] });
  const issued = await admin('POST', `/api/admin/v1/users/${user.id}/tokens`, { name: 'benchmark' });
  if (user.rights.length !== 0) throw new Error(`the benchmark user must hold no platform right, has ${user.rights.join(', ')}`);

  const model = platform.controlPlane.model;
  const typeId = model.slices.cmdb.defaultType()?.id;
  if (typeId === undefined) throw new Error('no default CI type after bootstrap');
  if (model.slices.cmdb.cis.size !== 0 || model.sequences.current('ci') !== 0 || model.sequences.current('grant') !== 0) {
    throw new Error('the benchmark needs an empty CMDB');
  }
  const ctx: DatasetContext = { opsWorkGroupId: ops.id, netWorkGroupId: net.id, typeId, author: { id: me.user.id, name: me.user.name }, now: SEED_TIME };
  const seedStart = performance.now();
  for (let from = 1; from <= CI_COUNT; from += SEED_CHUNK) {
    const changes = seedChanges(from, Math.min(from + SEED_CHUNK - 1, CI_COUNT), ctx);
    await platform.controlPlane.execute(() => ({ changes, result: () => undefined }));
  }
  const seedMs = performance.now() - seedStart;
  if (model.slices.cmdb.cis.size !== CI_COUNT) throw new Error(`seeded ${model.slices.cmdb.cis.size} CIs, expected ${CI_COUNT}`);

  const readableIds: number[] = [];
  for (let id = 1; id <= CI_COUNT; id++) if (readableByOps(id)) readableIds.push(id);
  await platform.stop('seeded');
  const info: CmdbSeedInfo = {
    token: issued.token,
    user: { id: user.id, name: user.name, workGroupIds: user.workGroupIds },
    workGroups: { ops: ops.id, net: net.id },
    ciCount: CI_COUNT,
    readableIds,
    seedMs: Math.round(seedMs),
  };
  process.stdout.write(`${JSON.stringify(info)}\n`, () => process.exit(0));
} catch (error) {
  process.stderr.write(`cmdb-seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`, () => process.exit(1));
}

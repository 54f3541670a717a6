/**
 * Benchmark child of the console benchmark's part 2: on the installation problems-api-seed.ts
 * left in OPS_DATA_DIR (the platform stopped), starts the API part and commits the maintenance
 * modes of console-part2-dataset.ts to the control-plane journal in commits of 2 000, as
 * problems-api-seed.ts commits the CIs; then stops. The API would refuse the modes that have
 * already ended, and one commit per mode would take minutes. Prints one JSON line (Part2SeedInfo)
 * on stdout and exits; logs go to stderr; stdin is detached (chDB would read it).
 */
import { pino } from 'pino';
import { apiPart } from '../../services/api/api.part.js';
import { startPlatform } from '../../services/platform.js';
import { loadConfig } from '../../services/runtime/config.js';
import { createLogger } from '../../services/runtime/logger.js';
import { detachStdin } from '../../services/runtime/stdin.js';
import { maintenanceChanges, type ModeSummary } from './console-part2-dataset.js';
import { BENCH_ADMIN_TOKEN } from './problems-api-dataset.js';

detachStdin();

export interface Part2SeedInfo extends ModeSummary {
  /** The instant the modes were laid out around (ms). */
  nowMs: number;
  seconds: number;
}

const COMMIT = 2_000;
const config = loadConfig({ ...process.env, OPS_HOST: '127.0.0.1', OPS_ADMIN_TOKEN: BENCH_ADMIN_TOKEN, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' });
config.port = 0;
const platform = await startPlatform(config, [apiPart], { logger: createLogger(config.logLevel, pino.destination(2)) });

try {
  const started = performance.now();
  const me = (await (await fetch(`http://127.0.0.1:${platform.port}/api/admin/v1/me`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } })).json()) as {
    user: { id: number };
  };
  const model = platform.controlPlane.model;
  if (model.slices.cmdb.cis.size === 0 || model.slices.maintenance.modes.size !== 0) throw new Error('part 2 needs the seeded CMDB and no maintenance mode yet');
  const nowMs = Date.now();
  const { changes, summary } = maintenanceChanges(nowMs, me.user.id);
  for (let from = 0; from < changes.length; from += COMMIT) {
    const chunk = changes.slice(from, from + COMMIT);
    await platform.controlPlane.execute(() => ({ changes: chunk, result: () => undefined }));
  }
  const info: Part2SeedInfo = { ...summary, nowMs, seconds: Math.round((performance.now() - started) / 100) / 10 };
  await platform.stop('seeded');
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`part-2 seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await platform.stop('seed failed').catch(() => undefined);
  process.exit(1);
}

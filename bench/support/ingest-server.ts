/**
 * The platform under the ingestion benchmark, in this child process: all parts in one process on
 * a temporary data directory (chDB + LMDB), with the bus the environment names (in-process, or
 * NATS_URL). Prints {"port","key"} once a stream exists; then answers `count` lines on stdin with
 * the number of event rows stored, and `stop` by stopping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { loadConfig } from '../../services/runtime/config.js';
import { createLogger } from '../../services/runtime/logger.js';
import { startPlatform } from '../../services/platform.js';
import { allPartNames } from '../../services/parts.js';

const TOKEN = 'bench-admin-token-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'ops-bench-ingest-'));
const config = loadConfig({ ...process.env, OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: TOKEN, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' });
config.port = 0;
// Logs go to stderr: stdout carries the answers to the orchestrator.
const platform = await startPlatform(config, allPartNames, { logger: createLogger(config.logLevel, pino.destination(2)) });
const createStream = async (name: string): Promise<{ id: number; key: string }> => {
  const created = await fetch(`http://127.0.0.1:${platform.port}/api/admin/v1/streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return (await created.json()) as { id: number; key: string };
};
const stream = await createStream('bench');
// The exact check counts only this stream: the sort key starts with stream_id, so a FINAL read
// of it stays cheap however many rows the timed runs left behind.
const verify = await createStream('verify');
process.stdout.write(JSON.stringify({ port: platform.port, key: stream.key, verifyKey: verify.key, bus: platform.engines.bus.kind }) + '\n');

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'count') {
    const [row] = await platform.engines.analytics.query<{ n: string; ids: string }>(
      'SELECT count() AS n, uniqExact(id) AS ids FROM events FINAL WHERE stream_id = {stream:UInt64}',
      { stream: verify.id },
    );
    const pending = (await platform.engines.bus.stats()).pending['RECORDS'] ?? 0;
    process.stdout.write(JSON.stringify({ count: Number(row?.n ?? 0), distinctIds: Number(row?.ids ?? 0), pending }) + '\n');
  } else if (line === 'stop') break;
}
await platform.stop('bench done');
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);

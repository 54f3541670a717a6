/**
 * The platform under the ingestion benchmark, in this child process: all parts in one process on
 * a temporary data directory (chDB + LMDB), with the bus the environment names (in-process, or
 * NATS_URL). Prints {"port","key"} once a stream exists; then answers `count` messages on its IPC
 * channel with the event rows of the verification stream (on stdout): on disk (no FINAL), their
 * distinct ids, and as a FINAL read sees them; and `stop` by stopping. Commands do
 * not come on stdin: the embedded engine would take them for insert data (services/runtime/stdin.ts). Its data directory is OPS_DATA_DIR,
 * which the orchestrator creates and removes (see ingest.bench.ts on why not here).
 */
import { pino } from 'pino';
import { parts } from '../../services/parts.js';
import { startPlatform } from '../../services/platform.js';
import { loadConfig } from '../../services/runtime/config.js';
import { createLogger } from '../../services/runtime/logger.js';
import { detachStdin } from '../../services/runtime/stdin.js';

detachStdin();

const TOKEN = 'bench-admin-token-0123456789abcdef';
const dataDir = process.env['OPS_DATA_DIR'];
if (!dataDir) throw new Error('OPS_DATA_DIR names the data directory the orchestrator made for this run');
const config = loadConfig({ ...process.env, OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: TOKEN, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' });
config.port = 0;
// Logs go to stderr: stdout carries the answers to the orchestrator.
const platform = await startPlatform(config, parts, { logger: createLogger(config.logLevel, pino.destination(2)) });
const createStream = async (name: string): Promise<{ id: number; key: string }> => {
  const created = await fetch(`http://127.0.0.1:${platform.port}/api/admin/v1/streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return (await created.json()) as { id: number; key: string };
};
const stream = await createStream('bench');
// The exact check counts only this stream: the sort key starts with stream_id, so its reads (FINAL
// too) stay cheap however many rows the timed runs left behind.
const verify = await createStream('verify');
process.stdout.write(`${JSON.stringify({ port: platform.port, key: stream.key, verifyKey: verify.key, bus: platform.engines.bus.kind })}\n`);

const commands: string[] = [];
let wake: (() => void) | undefined;
process.on('message', (command: string) => {
  commands.push(command);
  wake?.();
});
for (;;) {
  if (commands.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  const command = commands.shift()!;
  if (command === 'count') {
    // Rows on disk, not through FINAL: a record stored twice counts twice (issue 13).
    const [row] = await platform.engines.analytics.query<{ rows: string; ids: string }>(
      'SELECT count() AS rows, uniqExact(id) AS ids FROM events WHERE stream_id = {stream:UInt64}',
      { stream: verify.id },
    );
    const [final] = await platform.engines.analytics.query<{ n: string }>('SELECT count() AS n FROM events FINAL WHERE stream_id = {stream:UInt64}', { stream: verify.id });
    const pending = (await platform.engines.bus.stats()).pending['RECORDS'] ?? 0;
    process.stdout.write(`${JSON.stringify({ rows: Number(row?.rows ?? 0), distinctIds: Number(row?.ids ?? 0), finalRows: Number(final?.n ?? 0), pending })}\n`);
  } else if (command === 'stop') break;
}
process.disconnect?.();
await platform.stop('bench done');
process.exit(0);

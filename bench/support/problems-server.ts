/**
 * The platform process of the problems benchmark: the parts BENCH_PARTS names (comma-separated;
 * all of them by default, as `npm start` runs them) on the engines the environment names — a
 * temporary OPS_DATA_DIR (chDB, LMDB, in-process bus), or NATS_URL / REDIS_URL / CLICKHOUSE_URL.
 * Prints {"port"} once listening (the orchestrator sets up CIs, streams and the trigger through
 * the API), then answers JSON commands on its IPC channel, one JSON line on stdout each:
 *   {"cmd":"count","streams":[ids]}  event rows per stream (on disk, no FINAL), bus pending by stream,
 *                                    the control-plane revision this process's model is at;
 *   {"cmd":"final","streams":[ids]}  per stream: rows and uniqExact(id); problems: rows on disk, and
 *                                    problems and open problems through FINAL;
 *   {"cmd":"journal","since":rev}    journal entries after `rev` and the changes they carry;
 *   {"cmd":"stop"}.
 * Commands do not come on stdin: an embedded chDB would read it (services/runtime/stdin.ts).
 */
import { pino } from 'pino';
import type { PartName } from '../../services/part.js';
import { allPartNames, partsNamed } from '../../services/parts.js';
import { startPlatform } from '../../services/platform.js';
import { HITS_STREAM } from '../../services/runtime/bus-streams.js';
import { loadConfig } from '../../services/runtime/config.js';
import { createLogger } from '../../services/runtime/logger.js';
import { detachStdin } from '../../services/runtime/stdin.js';

detachStdin();

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

const dataDir = process.env['OPS_DATA_DIR'];
if (!dataDir) throw new Error('OPS_DATA_DIR names the data directory the orchestrator made for this run');
const parts = (process.env['BENCH_PARTS'] ? process.env['BENCH_PARTS'].split(',') : allPartNames) as PartName[];
const config = loadConfig({ ...process.env, OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: BENCH_ADMIN_TOKEN, LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' });
config.port = 0;
// Logs go to stderr: stdout carries the answers to the orchestrator.
const platform = await startPlatform(config, partsNamed(parts), { logger: createLogger(config.logLevel, pino.destination(2)) });
const { analytics, bus, journal } = platform.engines;
// So that this process's bus statistics include the hits (a process without an event worker
// does not declare that stream otherwise); the same spec as the event worker's.
await bus.ensureStream(HITS_STREAM);
process.stdout.write(`${JSON.stringify({ port: platform.port, bus: bus.kind })}\n`);

type Command = { cmd: 'count' | 'final'; streams: number[] } | { cmd: 'journal'; since: number } | { cmd: 'pending' } | { cmd: 'stop' };
const commands: Command[] = [];
let wake: (() => void) | undefined;
process.on('message', (command: string) => {
  commands.push(JSON.parse(command) as Command);
  wake?.();
});
const answer = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);
const list = (ids: number[]): string => ids.map((id) => String(Math.trunc(id))).join(',');

for (;;) {
  if (commands.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  const command = commands.shift()!;
  try {
    if (command.cmd === 'count') {
      // Rows on disk, not through FINAL: a record stored twice counts twice.
      const rows = await analytics.query<{ s: string; n: string }>(
        `SELECT stream_id AS s, count() AS n FROM events WHERE stream_id IN (${list(command.streams)}) GROUP BY stream_id`,
      );
      const pending = (await bus.stats()).pending;
      answer({ rows: Object.fromEntries(rows.map((r) => [r.s, Number(r.n)])), pending, revision: platform.controlPlane.model.revision });
    } else if (command.cmd === 'pending') {
      // The bus only: a count would query ClickHouse beside the inserts it measures.
      answer({ pending: (await bus.stats()).pending });
    } else if (command.cmd === 'final') {
      const rows = await analytics.query<{ s: string; n: string; ids: string }>(
        `SELECT stream_id AS s, count() AS n, uniqExact(id) AS ids FROM events WHERE stream_id IN (${list(command.streams)}) GROUP BY stream_id`,
      );
      const [physical] = await analytics.query<{ n: string }>('SELECT count() AS n FROM problems');
      const [final] = await analytics.query<{ n: string; open: string }>('SELECT count() AS n, countIf(date_end IS NULL) AS open FROM problems FINAL');
      answer({
        streams: Object.fromEntries(rows.map((r) => [r.s, { rows: Number(r.n), ids: Number(r.ids) }])),
        problemRows: Number(physical?.n ?? 0),
        problems: Number(final?.n ?? 0),
        openProblems: Number(final?.open ?? 0),
      });
    } else if (command.cmd === 'journal') {
      const entries = await journal.readSince(command.since);
      answer({ revision: platform.controlPlane.model.revision, entries: entries.length, changes: entries.reduce((n, e) => n + e.changes.length, 0) });
    } else break;
  } catch (error) {
    answer({ error: (error as Error).message });
  }
}
process.disconnect?.();
await platform.stop('bench done');
process.exit(0);

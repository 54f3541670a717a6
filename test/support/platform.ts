/**
 * Starts the whole platform in-process on a free port, on embedded engines in a temporary data
 * directory (or on the servers named in `env`), with a known admin token. Logs go to `logs`
 * so tests can inspect them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Part, PartName } from '../../services/part.js';
import { allPartNames, partsNamed } from '../../services/parts.js';
import { type Platform, startPlatform } from '../../services/platform.js';
import { loadConfig } from '../../services/runtime/config.js';
import { createLogger } from '../../services/runtime/logger.js';
import { type Answer, call } from './http.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestPlatform {
  platform: Platform;
  base: string;
  dataDir: string;
  logs: string[];
  /** A request as the admin (or with `token`). */
  api(method: string, path: string, options?: { json?: unknown; body?: string; headers?: Record<string, string>; token?: string | null }): Promise<Answer>;
  /** Stops the platform; keeps the data directory unless `remove`. */
  stop(remove?: boolean): Promise<void>;
}

export async function startTestPlatform(
  options: { env?: Record<string, string>; dataDir?: string; parts?: readonly PartName[]; logLevel?: string; now?: () => number; replace?: readonly Part[] } = {},
): Promise<TestPlatform> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ops-platform-'));
  // Tests run on fixed clocks (the records' receipt and the problems' dates may be months behind the
  // real one), so the retention is made the longest there is; and on whatever disk the machine has,
  // so ingestion is not paused for it. Tests of either give their own values (issue #34).
  const config = loadConfig({
    OPS_PORT: '1',
    OPS_HOST: '127.0.0.1',
    OPS_DATA_DIR: dataDir,
    OPS_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: options.logLevel ?? 'info',
    OPS_EVENTS_RETENTION_DAYS: '3650',
    OPS_PROBLEMS_RETENTION_DAYS: '3650',
    OPS_DEAD_LETTERS_RETENTION_DAYS: '3650',
    OPS_MIN_FREE_DISK: '0',
    ...options.env,
  });
  config.port = 0;
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const platform = await startPlatform(config, partsNamed(options.parts ?? allPartNames, options.replace), {
    logger,
    ...(options.now ? { now: options.now } : {}),
  });
  const base = `http://127.0.0.1:${platform.port}`;
  let stopped = false;
  return {
    platform,
    base,
    dataDir,
    logs,
    api(method, path, { token = ADMIN_TOKEN, headers = {}, ...rest } = {}) {
      const auth: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
      return call(base, method, path, { ...rest, headers: { ...auth, ...headers } });
    },
    async stop(remove = true) {
      if (!stopped) await platform.stop('test done');
      stopped = true;
      if (remove && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The platform as `npm start` runs it, for the benchmarks: `services/main.ts` with package.json's
 * Node flags (child.ts), every part in one process on a data directory the caller made, its log
 * lines (LOG_LEVEL, `info` by default as for a user) written to a file in that directory rather
 * than to a pipe read by the benchmark. Resolves once /readyz answers 200.
 */
import { join } from 'node:path';
import { freePort } from '../../test/support/free-port.js';
import { type Child, startChild } from './child.js';

export interface NpmStartPlatform {
  url: string;
  child: Child;
  logFile: string;
  logLevel: string;
}

export async function startAsNpmStart(name: string, options: { dataDir: string; adminToken: string; env?: Record<string, string> }): Promise<NpmStartPlatform> {
  const port = await freePort();
  const logLevel = process.env['LOG_LEVEL'] || 'info';
  const logFile = join(options.dataDir, 'platform.log');
  const child = startChild(
    name,
    'services/main.ts',
    { OPS_DATA_DIR: options.dataDir, OPS_HOST: '127.0.0.1', OPS_PORT: String(port), OPS_ADMIN_TOKEN: options.adminToken, LOG_LEVEL: logLevel, ...options.env },
    { stdoutFile: logFile },
  );
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 180_000; ;) {
    if (child.process.exitCode !== null) throw new Error(`the platform exited: ${child.describe()}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the platform was not ready in 180 s: ${child.describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child, logFile, logLevel };
}

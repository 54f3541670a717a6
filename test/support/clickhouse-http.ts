/**
 * Starts the test-only ClickHouse HTTP server (clickhouse-http-server.ts, chDB behind it) in its
 * own process, on a free port and a temporary data directory: chDB binds one data directory per
 * process, so it cannot share the test's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

export interface ClickHouseHttp {
  url: string;
  stop(): Promise<void>;
}

const script = fileURLToPath(new URL('./clickhouse-http-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

function pings(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${url}/ping`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** `parentDir`: where its data goes (a benchmark names the file system); by default the temp dir. */
export async function startClickHouseHttp({ timeoutMs = 20_000, parentDir = tmpdir() }: { timeoutMs?: number; parentDir?: string } = {}): Promise<ClickHouseHttp> {
  const dir = mkdtempSync(join(parentDir, 'ops-clickhouse-http-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--port', String(port), '--data', dir], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer): void => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.once('error', (error) => keep(Buffer.from(String(error))));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  try {
    // Polling readiness, not waiting for time: the loop ends as soon as /ping answers.
    while (!(await pings(url))) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`clickhouse-http-server exited: ${output}`);
      if (Date.now() > deadline) throw new Error(`clickhouse-http-server did not answer /ping in ${timeoutMs} ms: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

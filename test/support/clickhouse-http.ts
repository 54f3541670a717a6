/**
 * Starts the test-only ClickHouse HTTP server (clickhouse-http-server.ts, chDB behind it) in its
 * own process, on a free port and a temporary data directory: chDB binds one data directory per
 * process, so it cannot share the test's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

export interface ClickHouseHttp {
  url: string;
  /** Kills the server process (SIGKILL when `hard`, else SIGTERM: it finishes the queries it has), keeping its data directory. */
  kill(hard?: boolean): Promise<void>;
  /** Starts it again on the same port and data directory, once stopped by kill(); resolves when /ping answers. */
  restart(): Promise<void>;
  /** Kills it and removes its data directory. */
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
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';
  const keep = (d: Buffer): void => {
    output = (output + d.toString()).slice(-4000);
  };
  const running = (c: ChildProcess | undefined): c is ChildProcess => c !== undefined && c.exitCode === null && c.signalCode === null;

  const kill = async (hard = false): Promise<void> => {
    const c = child;
    if (!running(c)) return;
    c.kill(hard ? 'SIGKILL' : 'SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  /** Spawns the server on `port` and `dir` and waits for /ping; kills it again if it never answers. */
  const launch = async (): Promise<void> => {
    if (running(child)) throw new Error(`clickhouse-http-server already runs on port ${port}`);
    const c = spawn(process.execPath, ['--import', 'tsx', script, '--port', String(port), '--data', dir], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = c;
    c.stdout.on('data', keep);
    c.stderr.on('data', keep);
    c.once('error', (error) => keep(Buffer.from(String(error))));
    exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    const deadline = Date.now() + timeoutMs;
    try {
      // Polling readiness, not waiting for time: the loop ends as soon as /ping answers.
      while (!(await pings(url))) {
        if (!running(c)) throw new Error(`clickhouse-http-server exited: ${output}`);
        if (Date.now() > deadline) throw new Error(`clickhouse-http-server did not answer /ping in ${timeoutMs} ms: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } catch (error) {
      await kill(true);
      throw error;
    }
  };

  const stop = async (): Promise<void> => {
    await kill();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await launch();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { url, kill, restart: launch, stop };
}

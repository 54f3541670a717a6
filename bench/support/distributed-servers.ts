/**
 * The servers of the distributed mode for a benchmark: nats-server (JetStream store under
 * `parentDir`), redis-server (no persistence) and ClickHouse over HTTP — the test-only
 * test/support/clickhouse-http-server.ts (chDB behind ClickHouse's HTTP interface, the only
 * ClickHouse this machine has), its data under `parentDir` too, so that the benchmark's data is
 * on the file system it names. Fresh servers each call; `stop` kills them and removes their data.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { startNats, startRedis, type RunningService } from '../../test/support/services.js';
import { freePort } from '../../test/support/free-port.js';

const root = new URL('../../', import.meta.url).pathname;

export interface DistributedServers {
  /** NATS_URL, REDIS_URL, CLICKHOUSE_URL and friends for every process of one installation. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

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

async function startClickHouseHttp(parentDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(parentDir, 'ops-bench-clickhouse-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/clickhouse-http-server.ts', '--port', String(port), '--data', dir], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer): void => void (output = (output + d.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
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
  const deadline = Date.now() + 30_000;
  while (!(await pings(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`clickhouse-http-server did not answer /ping: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop };
}

export async function startDistributedServers(parentDir: string): Promise<DistributedServers> {
  const started: Array<{ stop(): Promise<void> }> = [];
  const stop = async (): Promise<void> => void (await Promise.allSettled(started.map((s) => s.stop())));
  try {
    const nats: RunningService = await startNats(parentDir);
    started.push(nats);
    const redis: RunningService = await startRedis();
    started.push(redis);
    const clickhouse = await startClickHouseHttp(parentDir);
    started.push(clickhouse);
    return {
      env: { NATS_URL: nats.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench:', CLICKHOUSE_URL: clickhouse.url, CLICKHOUSE_DATABASE: 'bench' },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

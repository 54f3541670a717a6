/**
 * Starts real nats-server and redis-server processes from the installed binaries, on free
 * ports in temporary directories, for the tests that need them (DESIGN §10). Without the
 * binary a test is skipped with the reason; REQUIRE_SERVICES=1 (CI) turns that into a failure.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface RunningService {
  url: string;
  port: number;
  /** Kills the process (SIGKILL when `hard`), keeping its data directory. */
  kill(hard?: boolean): Promise<void>;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
  /** Kills it and removes its data directory. */
  stop(): Promise<void>;
}

export function binaryPath(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name} || ls /usr/sbin/${name} /usr/bin/${name} 2>/dev/null | head -n1`], {
    encoding: 'utf8',
  });
  const path = found.stdout.trim().split('\n')[0];
  return path ? path : undefined;
}

/**
 * Why a test needing `binaries` cannot run here, or false when it can. Throws under
 * REQUIRE_SERVICES=1, so CI never silently skips.
 */
export function missingServices(...binaries: string[]): string | false {
  const missing = binaries.filter((b) => !binaryPath(b));
  if (missing.length === 0) return false;
  const reason = `${missing.join(', ')} not installed (apt-get install -y ${missing.join(' ')})`;
  if (process.env['REQUIRE_SERVICES'] === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  return reason;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on port ${port} after ${timeoutMs} ms`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

async function startProcess(name: string, args: (port: number, dir: string) => string[], url: (port: number) => string, parentDir: string = tmpdir()): Promise<RunningService> {
  const bin = binaryPath(name);
  if (!bin) throw new Error(`${name} is not installed`);
  const dir = mkdtempSync(join(parentDir, `ops-${name}-`));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';

  const launch = async (): Promise<void> => {
    child = spawn(bin, args(port, dir), { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    const exited = new Promise<never>((_, reject) => child?.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${output}`))));
    await Promise.race([waitForPort(port, 10_000), exited]);
  };
  const kill = async (hard = false): Promise<void> => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill(hard ? 'SIGKILL' : 'SIGTERM');
    await gone;
  };
  await launch();
  return {
    url: url(port),
    port,
    kill,
    restart: launch,
    async stop() {
      await kill(true);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * nats-server with JetStream, its store in a temporary directory (under `parentDir` if given);
 * `maxPayloadBytes` sets the largest message it takes (its default is 1 MB).
 */
export function startNats(parentDir?: string, options: { maxPayloadBytes?: number } = {}): Promise<RunningService> {
  return startProcess(
    'nats-server',
    (port, dir) => {
      const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir];
      if (options.maxPayloadBytes === undefined) return args;
      // max_payload has no command-line flag: it goes in a configuration file.
      const config = join(dir, 'nats.conf');
      writeFileSync(config, `max_payload: ${options.maxPayloadBytes}\n`);
      return ['-c', config, ...args];
    },
    (port) => `nats://127.0.0.1:${port}`,
    parentDir,
  );
}

/** redis-server without persistence, in a temporary directory. */
export function startRedis(): Promise<RunningService> {
  return startProcess(
    'redis-server',
    (port, dir) => ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    (port) => `redis://127.0.0.1:${port}`,
  );
}

/**
 * A real Alertmanager (Debian's `prometheus-alertmanager`) for the notification tests (issue #31):
 * on a free port of 127.0.0.1, its store in a temporary directory, clustering off
 * (`--cluster.listen-address=`), answering once `/-/ready` says so. Without the binary a test is
 * skipped with the reason; REQUIRE_SERVICES=1 (CI) turns that into a failure (services.ts).
 *
 * Its one route sends to the receiver `null` (no notification), or, given `webhookUrl`, to a
 * webhook with `send_resolved`, so a test can hear Alertmanager itself say an alert fired and
 * resolved. Groups by `problem_id`, with short waits so a notification follows a push at once.
 *
 * What its v2 API shows (0.25, checked by hand): `GET /api/v2/alerts` lists only alerts whose
 * `endsAt` is still ahead — a resolved alert is gone from it whatever the `active`, `silenced`,
 * `inhibited` filters say. Every push is counted at `/metrics` in
 * `alertmanager_alerts_received_total{status="firing"|"resolved"}`, judged at its arrival.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './bus-recorder.js';
import { freePort } from './free-port.js';
import { binaryPath, missingServices } from './services.js';

export const ALERTMANAGER_BINARY = 'prometheus-alertmanager';

/** An alert as `GET /api/v2/alerts` answers it (the fields the tests read). */
export interface GettableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  updatedAt: string;
  fingerprint: string;
  generatorURL?: string;
  receivers: Array<{ name: string }>;
  status: { state: 'active' | 'suppressed' | 'unprocessed'; silencedBy: string[]; inhibitedBy: string[] };
}

export interface RunningAlertmanager {
  /** Its base URL, what an `alertmanager` receiver's `url` holds. */
  url: string;
  port: number;
  /** `GET /api/v2/alerts`, narrowed by label matchers (`{ problem_id: '…' }`: equality). */
  alerts(labels?: Record<string, string>): Promise<GettableAlert[]>;
  /** How many alerts it has received so far, by the state it judged them in at arrival. */
  received(): Promise<{ firing: number; resolved: number }>;
  /** What it printed (the last 8000 characters), for a failure message. */
  output(): string;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/** Why a test needing Alertmanager cannot run here, or false; throws under REQUIRE_SERVICES=1. */
export const missingAlertmanager = (): string | false => missingServices(ALERTMANAGER_BINARY);

export interface AlertmanagerOptions {
  /** A webhook Alertmanager notifies (with `send_resolved: true`); none by default. */
  webhookUrl?: string;
  /** Its whole `alertmanager.yml` instead (e.g. a recipe read from the README). */
  config?: string;
}

function configOf(options: AlertmanagerOptions): string {
  if (options.config !== undefined) return options.config;
  const receiver = options.webhookUrl === undefined ? '"null"' : 'hook';
  return [
    'route:',
    `  receiver: ${receiver}`,
    '  group_by: [problem_id]',
    '  group_wait: 100ms',
    '  group_interval: 500ms',
    '  repeat_interval: 1h',
    'receivers:',
    '  - name: "null"',
    ...(options.webhookUrl === undefined ? [] : ['  - name: hook', '    webhook_configs:', `      - url: ${JSON.stringify(options.webhookUrl)}`, '        send_resolved: true']),
    '',
  ].join('\n');
}

const matcherText = (labels: Record<string, string>): string[] => Object.entries(labels).map(([name, value]) => `${name}=${JSON.stringify(value)}`);

export async function startAlertmanager(options: AlertmanagerOptions = {}): Promise<RunningAlertmanager> {
  const bin = binaryPath(ALERTMANAGER_BINARY);
  if (!bin) throw new Error(`${ALERTMANAGER_BINARY} is not installed`);
  const dir = mkdtempSync(join(tmpdir(), 'ops-alertmanager-'));
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(config, configOf(options));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    bin,
    [`--config.file=${config}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=', '--log.level=info'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const collect = (d: Buffer): void => {
    output = (output + d.toString()).slice(-8000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const ready = eventually(`Alertmanager ready at ${url}/-/ready`, async () => (await fetch(`${url}/-/ready`)).ok, 15_000, 50);
    const died = exited.then(() => {
      throw new Error(`${ALERTMANAGER_BINARY} exited with ${child.exitCode ?? child.signalCode}: ${output}`);
    });
    // Whichever loses the race settles unheard: exiting at stop is no failure.
    ready.catch(() => undefined);
    died.catch(() => undefined);
    await Promise.race([ready, died]);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    port,
    async alerts(labels = {}) {
      const query = new URLSearchParams(matcherText(labels).map((m): [string, string] => ['filter', m]));
      const response = await fetch(`${url}/api/v2/alerts?${query}`);
      if (!response.ok) throw new Error(`GET /api/v2/alerts: ${response.status} ${await response.text()}`);
      return (await response.json()) as GettableAlert[];
    },
    async received() {
      const text = await (await fetch(`${url}/metrics`)).text();
      const sum = (status: string): number =>
        [...text.matchAll(new RegExp(`^alertmanager_alerts_received_total\\{[^}]*status="${status}"[^}]*\\} (\\d+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
      return { firing: sum('firing'), resolved: sum('resolved') };
    },
    output: () => output,
    stop,
  };
}

/**
 * Notifications benchmark (issue #31): `node --import tsx bench/notifications.bench.ts`
 * (`--quick`: one round, for a smoke run).
 *
 * 10 000 problem transitions offered evenly over 10 s on 1 000 CIs (five triggers; each
 * (trigger, CI) key opens once and resolves once: support/notify-plan.ts) to the platform
 * all-in-one on its embedded engines (support/problems-server.ts, what `npm start` runs: in-process
 * bus, chDB, LMDB; OPS_NOTIFY_ALLOW_NETWORKS=127.0.0.1/32), with three policies created through
 * the admin API, each sending problem.opened and problem.resolved, ungrouped
 * (groupWindowSeconds 0, NOTIFY_GROUP_WINDOW_SECONDS), to its own webhook receiver; and, in the same rounds, the same
 * transitions with no policy (the baseline). Every run starts a fresh platform.
 *
 * Processes: the platform; the load generator (support/notify-load.ts: one single-record POST per
 * transition at its scheduled instant, an open loop, reporting each record's acknowledgement
 * time, its own send rate, lateness and CPU); the receiver (support/notify-receiver.ts: the webhook
 * receivers, every signature verified with `standardwebhooks`, webhook-ids counted, and an
 * observer of GET /problems/stream for when each change reached the change feed). This process
 * only sets up through the API, polls the receiver, reads the platform's /metrics and the CPU
 * time of the others from /proc.
 *
 * Figures (support/notify-report.ts): transition (2xx) → receipt p50 / p99 over every
 * (policy, event) pair, delivered / expected, and the ingest rate — transitions on the change
 * feed per second — with policies against without. Results: bench/results/notifications.md.
 *
 * Knobs: BENCH_RUNS (3 of each), NOTIFY_TRANSITIONS (10 000), NOTIFY_SECONDS (10), NOTIFY_CIS
 * (1 000; transitions / (2 × CIs) triggers, at most 10), BENCH_QUIET_SECONDS (30: a run ends after
 * this long without progress), BENCH_MAX_DRAIN_SECONDS (900), BENCH_DATA_DIR (the OS temporary
 * directory, the disk here; /dev/shm for tmpfs: the result names the file system), BENCH_PROFILE=1
 * (after the measured runs, one more run of each kind with the platform under --cpu-prof, left out
 * of the medians; the result lists where its main thread's CPU went; BENCH_PROFILE_KEEP=<dir> keeps
 * the .cpuprofile files there), BENCH_LOG_DIR (keeps the
 * platform's output), LOG_LEVEL (warn). Benchmarks assert nothing.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, lines, startChild, stopAllChildren } from './support/child.js';
import { cpuWindow } from './support/cpu-time.js';
import { monotonicMicros, profileLines, readProfile } from './support/cpu-profile.js';
import type { LoadReport, LoadSpec } from './support/notify-load.js';
import { CHECKS, type PlanSpec, transitionsOf, WARM_CHECK } from './support/notify-plan.js';
import type { ReceiverReport, ReceiverSpec, ReceiverStatus } from './support/notify-receiver.js';
import { type CpuShares, figuresOf, markdown, type Mode, type RunFigures, type TimelinePoint } from './support/notify-report.js';
import { threadWindow } from './support/notify-threads.js';
import { machineDescription, writeResultFile } from './support/report.js';

const quick = process.argv.includes('--quick');
const RUNS = Number(process.env['BENCH_RUNS'] ?? (quick ? 1 : 3));
const TRANSITIONS = Number(process.env['NOTIFY_TRANSITIONS'] ?? 10_000);
const SECONDS = Number(process.env['NOTIFY_SECONDS'] ?? 10);
const CIS = Number(process.env['NOTIFY_CIS'] ?? 1000);
const TRIGGERS = TRANSITIONS / (2 * CIS);
if (!Number.isInteger(TRIGGERS) || TRIGGERS < 1 || TRIGGERS > CHECKS.length)
  throw new Error(`NOTIFY_TRANSITIONS / (2 × NOTIFY_CIS) must be a whole number from 1 to ${CHECKS.length}`);
const RATE = TRANSITIONS / SECONDS;
const QUIET_SECONDS = Number(process.env['BENCH_QUIET_SECONDS'] ?? 30);
/** Every policy's groupWindowSeconds: 0, each event alone at once (a 30 s window would put p99 past 30 s by design). */
const GROUP_WINDOW = Number(process.env['NOTIFY_GROUP_WINDOW_SECONDS'] ?? 0);
/**
 * The backlog is sampled from /metrics this often during a measured run. A scrape is not free:
 * the embedded bus counts the pending messages by walking them (about 1.7 s of the main thread's
 * 25 s in a policies run when sampled every second), so not more often.
 */
const SAMPLE_MS = 2000;
const MAX_DRAIN_SECONDS = Number(process.env['BENCH_MAX_DRAIN_SECONDS'] ?? 900);
const PROFILE = process.env['BENCH_PROFILE'] === '1';
const LOG_DIR = process.env['BENCH_LOG_DIR'];
const PROFILE_KEEP = process.env['BENCH_PROFILE_KEEP'];
const TOKEN = 'bench-admin-token-0123456789abcdef';
const MAIN: PlanSpec = { ciPrefix: 'host-', cis: CIS, checks: CHECKS.slice(0, TRIGGERS) };
/**
 * The warm-up, drained before the measured run: a trigger of its own on the same CIs at the same
 * rate, so its opens and resolves are as far apart as the measured ones.
 */
const WARM: PlanSpec = { ciPrefix: 'host-', cis: CIS, checks: [WARM_CHECK] };
const POLICY_KINDS = ['problem.opened', 'problem.resolved'];

const DATA_ROOT = process.env['BENCH_DATA_DIR'] ?? tmpdir();
const FS_TYPES: Record<number, string> = { 16914836: 'tmpfs', 61267: 'ext2/3/4', 1481003842: 'xfs', 2435016766: 'btrfs' };
const fileSystem = (): string => {
  const type = statfsSync(DATA_ROOT).type;
  return FS_TYPES[type] ?? `file system type 0x${type.toString(16)}`;
};
const log = (text: string): void => void process.stderr.write(`${text}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const now = (): number => performance.timeOrigin + performance.now();

async function api(port: number, method: string, path: string, json: unknown): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    const text = await answer.text();
    if (answer.status === 503 && attempt < 20) {
      await sleep(20 * attempt);
      continue;
    }
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return JSON.parse(text);
  }
}

/** The three policies, as configured (described in the result). */
const policyBodies = (wg: number, receivers: number[], triggerIds: number[]): Array<{ body: Record<string, unknown>; what: string }> => [
  {
    what: "`all CIs`: configItems 'all'",
    body: { name: 'all CIs', ownerWorkGroup: { id: wg }, configItems: 'all', kinds: POLICY_KINDS, receiverIds: [receivers[0]], groupWindowSeconds: GROUP_WINDOW },
  },
  {
    what: '`prod hosts`: configItems {labels: [env=prod]} (every CI of the run carries env=prod)',
    body: {
      name: 'prod hosts',
      ownerWorkGroup: { id: wg },
      configItems: { labels: ['env=prod'] },
      kinds: POLICY_KINDS,
      receiverIds: [receivers[1]],
      groupWindowSeconds: GROUP_WINDOW,
    },
  },
  {
    what: "`host triggers, P2`: configItems 'all', triggerIds: the run's triggers (the warm-up's too), priorities [Problem2] (the records' severity `major`)",
    body: {
      name: 'host triggers, P2',
      ownerWorkGroup: { id: wg },
      configItems: 'all',
      triggerIds,
      priorities: ['Problem2'],
      kinds: POLICY_KINDS,
      receiverIds: [receivers[2]],
      groupWindowSeconds: GROUP_WINDOW,
    },
  },
];
const POLICY_COUNT = 3;
let policyDescriptions: string[] = [];

/** CIs, the stream, the triggers and, with policies, the receivers and policies, through the API. */
async function install(port: number, mode: Mode, receiverPort: number, secrets: string[]): Promise<{ key: string }> {
  const wg = await api(port, 'POST', '/api/admin/v1/work-groups', { name: 'hosts' });
  const names = Array.from({ length: MAIN.cis }, (_, i) => `${MAIN.ciPrefix}${i}`);
  let next = 0;
  const creator = async (): Promise<void> => {
    while (next < names.length) await api(port, 'POST', '/api/public/sm/v2/rsm/config-items', { name: names[next++], ownerWorkGroup: { id: wg.id }, labels: { env: 'prod' } });
  };
  await Promise.all(Array.from({ length: 8 }, creator));
  const stream = await api(port, 'POST', '/api/admin/v1/streams', { name: 'hosts' });
  const triggerIds: number[] = [];
  for (const check of [...MAIN.checks, WARM_CHECK]) {
    const trigger = await api(port, 'POST', '/api/admin/v1/triggers', {
      name: check,
      streamIds: [stream.id],
      match: [{ field: 'check', op: 'equals', value: check }],
      ci: { by: 'nameField', field: 'host' },
      priority: { field: 'severity', map: { critical: 1, major: 2, minor: 3 }, default: 4 },
      resolve: { field: 'status', values: ['ok'] },
      influence: { value: 50, maxInfluence: false },
    });
    triggerIds.push(trigger.id);
  }
  if (mode === 'policies') {
    const receivers: number[] = [];
    for (let i = 0; i < POLICY_COUNT; i++) {
      const receiver = await api(port, 'POST', '/api/admin/v1/notifications/receivers', {
        type: 'webhook',
        name: `hook-${i}`,
        ownerWorkGroup: { id: wg.id },
        url: `http://127.0.0.1:${receiverPort}/hook/${i}`,
        secrets: [secrets[i]],
        // The highest the API takes; the dispatcher has no per-receiver limit yet (docs/notifications.md).
        rateLimitPerSecond: 1000,
      });
      receivers.push(receiver.id);
    }
    const policies = policyBodies(wg.id, receivers, triggerIds);
    for (const p of policies) await api(port, 'POST', '/api/admin/v1/notifications/policies', p.body);
    policyDescriptions = policies.map(
      (p, i) =>
        `policy ${i + 1}, ${p.what}; kinds ${POLICY_KINDS.join(', ')}; groupWindowSeconds ${GROUP_WINDOW}; no repeat; → webhook receiver \`hook-${i}\` (its own whsec_ secret of 32 bytes, rateLimitPerSecond 1000)`,
    );
  }
  return { key: stream.key };
}

/** Sums of the platform's metrics of interest, by series. */
async function scrape(port: number): Promise<Record<string, number>> {
  const wanted =
    /^(ops_notifications_deliveries_total\{[^}]*outcome="[a-z_]+"\}|ops_notifications_delivery_seconds_(?:sum|count)\{[^}]*\}|ops_consumer_messages_total\{consumer="[a-z-]+",outcome="[a-z_]+"\}|ops_bus_redeliveries_total|ops_problem_stage_transitions_total|ops_problem_stage_lag_seconds_(?:sum|count)) (\S+)$/;
  const sums: Record<string, number> = {};
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  for (const line of text.split('\n')) {
    const m = wanted.exec(line);
    if (!m) continue;
    // Per receiver id is too fine: summed over receivers.
    const name = m[1]!.replace(/receiver="\d+",?/, '');
    sums[name] = (sums[name] ?? 0) + Number(m[2]);
  }
  return sums;
}

function keepLogs(child: Child, name: string): void {
  if (!LOG_DIR) return;
  mkdirSync(LOG_DIR, { recursive: true });
  const file = join(LOG_DIR, `${name}.log`);
  child.process.stdout?.on('data', (d: Buffer | string) => appendFileSync(file, d));
  child.process.stderr?.on('data', (d: Buffer | string) => appendFileSync(file, d));
}

/**
 * Messages waiting on the bus, by stream (ops_bus_pending_messages), and the notifications' own
 * split of theirs by stage (ops_notifications_backlog_messages: `to route`, `to deliver`), where
 * the platform has it.
 */
async function pending(port: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const streams = [...text.matchAll(/^ops_bus_pending_messages\{stream="([^"]+)"\} (\S+)$/gm)].map((m) => [m[1]!, Number(m[2])]);
  const stages = [...text.matchAll(/^ops_notifications_backlog_messages\{stage="([^"]+)"\} (\S+)$/gm)].map((m) => [`NOTIFICATIONS to ${m[1]!}`, Number(m[2])]);
  return Object.fromEntries([...streams, ...stages]);
}

/**
 * Polls the receiver every 200 ms until `done`, or nothing moved for `quietMs`, or `maxMs`
 * passed; true when done. `sample`, when given, is called every SAMPLE_MS with the latest status;
 * what it answers (the backlog) counts as progress too when it changes.
 */
async function until(
  status: () => Promise<ReceiverStatus>,
  done: (s: ReceiverStatus) => boolean,
  quietMs: number,
  maxMs: number,
  label: string,
  sample?: (s: ReceiverStatus) => Promise<string>,
): Promise<boolean> {
  const start = Date.now();
  let lastProgress = Date.now();
  let last = '';
  let lastLog = 0;
  let lastSample = 0;
  let sampled = '';
  for (;;) {
    const s = await status();
    if (sample && Date.now() - lastSample >= SAMPLE_MS) {
      lastSample = Date.now();
      sampled = await sample(s);
    }
    if (done(s)) return true;
    const mark = JSON.stringify([s.landed, s.delivered, s.requests, sampled]);
    if (mark !== last) {
      last = mark;
      lastProgress = Date.now();
    }
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(
        `  ${label}: on the feed ${s.landed.main + s.landed.warm}, pairs received ${s.delivered.main + s.delivered.warm}, requests ${s.requests} (${((Date.now() - start) / 1000).toFixed(0)} s)`,
      );
    }
    if (Date.now() - lastProgress > quietMs || Date.now() - start > maxMs) return false;
    await sleep(200);
  }
}

interface RunResult {
  figures: RunFigures;
  profile?: string[];
}

async function run(mode: Mode, round: number, profile: boolean): Promise<RunResult> {
  const dataDir = mkdtempSync(join(DATA_ROOT, 'ops-bench-notify-'));
  const profileDir = join(dataDir, 'cpu-profile');
  const server = startChild(
    'platform',
    'bench/support/problems-server.ts',
    {
      NATS_URL: '',
      REDIS_URL: '',
      CLICKHOUSE_URL: '',
      OPS_DATA_DIR: dataDir,
      BENCH_PARTS: '',
      OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32',
      ...(profile ? { BENCH_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
    },
    { ipc: true },
  );
  keepLogs(server, `round-${round}-${mode}-platform`);
  try {
    const { port } = JSON.parse(await lines(server)()) as { port: number };
    const secrets = Array.from({ length: POLICY_COUNT }, () => `whsec_${randomBytes(32).toString('base64')}`);
    const receiver = startChild('receiver', 'bench/support/notify-receiver.ts');
    const fromReceiver = lines(receiver);
    receiver.send(`${JSON.stringify({ platformUrl: `http://127.0.0.1:${port}`, token: TOKEN, secrets, warmCheck: WARM_CHECK } satisfies ReceiverSpec)}\n`);
    const receiverPort = (JSON.parse(await fromReceiver()) as { port: number }).port;
    const status = async (): Promise<ReceiverStatus> => {
      receiver.send('status\n');
      return JSON.parse(await fromReceiver()) as ReceiverStatus;
    };
    const setUpStart = performance.now();
    const { key } = await install(port, mode, receiverPort, secrets);
    log(`round ${round} ${mode}: set up in ${((performance.now() - setUpStart) / 1000).toFixed(1)} s`);
    await sleep(1000);
    const generator = startChild('generator', 'bench/support/notify-load.ts');
    const fromGenerator = lines(generator);
    await fromGenerator();
    const url = `http://127.0.0.1:${port}/api/public/cl/v1/stream-data?streamKey=${key}`;
    const policies = mode === 'policies' ? POLICY_COUNT : 0;
    const load = async (plan: PlanSpec): Promise<LoadReport> => {
      generator.send(`${JSON.stringify({ url, plan, rate: RATE } satisfies LoadSpec)}\n`);
      return JSON.parse(await fromGenerator()) as LoadReport;
    };

    const warm = await load(WARM);
    const warmAcked = warm.acceptedAt.filter((a) => a !== null).length;
    const warmDone = await until(status, (s) => s.landed.warm >= warmAcked && s.delivered.warm >= policies * warmAcked, 10_000, 300_000, 'warm-up');
    if (!warmDone) log(`  the warm-up did not finish: ${JSON.stringify(await status())}`);
    await sleep(1000);

    const metricsBefore = await scrape(port);
    const pids = { platform: server.process.pid, generator: generator.process.pid, receiver: receiver.process.pid };
    const loadWindow = cpuWindow(pids);
    const threads = threadWindow(server.process.pid);
    const timedFrom = monotonicMicros();
    const loadStart = now();
    const timeline: TimelinePoint[] = [];
    const pendingMax: Record<string, number> = {};
    const sample = async (s: ReceiverStatus): Promise<string> => {
      const p = await pending(port);
      for (const [stream, n] of Object.entries(p)) pendingMax[stream] = Math.max(pendingMax[stream] ?? 0, n);
      timeline.push({ seconds: (now() - loadStart) / 1000, landed: s.landed.main, delivered: s.delivered.main, pending: p });
      return JSON.stringify(p);
    };
    // Samples during the load too (the generator runs apart; this process only polls).
    let loading = true;
    const duringLoad = (async () => {
      while (loading) {
        await sample(await status());
        await sleep(SAMPLE_MS);
      }
    })();
    const report = await load(MAIN);
    const loadEndAt = now();
    const cpuLoad: CpuShares = loadWindow();
    const drainWindow = cpuWindow(pids);
    loading = false;
    await duringLoad;
    const acked = report.acceptedAt.filter((a) => a !== null).length;
    log(
      `round ${round} ${mode}: ${acked} of ${report.offered} records acknowledged, sent at ${Math.round(report.sendRate)}/s (at most ${report.maxBehindMs.toFixed(1)} ms behind schedule)`,
    );
    // Every transition once per policy, a folded resolve (notify-receiver.ts) too.
    const complete = await until(
      status,
      (s) => s.landed.main >= acked && s.delivered.main >= policies * acked,
      QUIET_SECONDS * 1000,
      MAX_DRAIN_SECONDS * 1000,
      'measured run',
      sample,
    );
    await sample(await status());
    const cpuDrain: CpuShares = drainWindow();
    const threadCpu = threads();
    const timedTo = monotonicMicros();
    const metricsAfter = await scrape(port);
    receiver.send('report\n');
    const received = JSON.parse(await fromReceiver()) as ReceiverReport;
    generator.send('', true);
    await generator.output(10_000);
    const metrics = Object.fromEntries(Object.entries(metricsAfter).map(([name, value]) => [name, value - (metricsBefore[name] ?? 0)]));
    const figures = figuresOf({
      round,
      mode,
      plan: MAIN,
      rate: RATE,
      policies,
      load: report,
      loadEndAt,
      receiver: received,
      complete,
      cpuLoad,
      cpuDrain,
      cores: cpus().length,
      metrics,
      threadCpu,
      pendingMax,
      timeline,
    });
    log(
      `round ${round} ${mode}: ${figures.landed} on the feed at ${Math.round(figures.landedRate)}/s (p99 ${Math.round(figures.landP99Ms)} ms)` +
        (mode === 'policies'
          ? `; ${figures.delivered} / ${figures.expected} pairs received, transition → receipt p50 ${Math.round(figures.receiptP50Ms)} ms, p99 ${figures.receiptP99Ms} ms`
          : '') +
        (complete ? '' : ' (INCOMPLETE)'),
    );
    server.message(JSON.stringify({ cmd: 'stop' }));
    // Let it exit by itself (a --cpu-prof profile is written only then), SIGTERM only after that.
    await server.output(60_000).catch(() => undefined);
    const cpuProfile = profile ? readProfile(profileDir, server.process.pid!) : undefined;
    return { figures, ...(cpuProfile ? { profile: [`### ${mode}, an extra run`, '', ...profileLines(cpuProfile, timedFrom, timedTo, 25), ''] } : {}) };
  } finally {
    await stopAllChildren();
    if (profile && PROFILE_KEEP) cpSync(profileDir, join(PROFILE_KEEP, `${mode}-${round}`), { recursive: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The code measured: the commit, and the platform's files changed but not committed (others work
 * in this tree). `id` names the platform's code alone (the trees of services/, pipelines/ and
 * schemas/ at HEAD and the uncommitted diff of them), so a commit elsewhere is no change.
 */
function codeState(): { id: string; text: string } {
  const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const paths = ['services', 'pipelines', 'schemas'];
  try {
    // Porcelain lines are `XY path`: not trimmed, or the first line's X (a space) would be lost.
    const dirty = git('status', '--porcelain', '--', ...paths)
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    const diff = createHash('sha256')
      .update(git('diff', 'HEAD', '--', ...paths))
      .digest('hex')
      .slice(0, 10);
    const trees = git('rev-parse', ...paths.map((p) => `HEAD:${p}`)).trim();
    const listed = dirty.length > 8 ? `${dirty.slice(0, 8).join(', ')} and ${dirty.length - 8} more` : dirty.join(', ');
    const changes = dirty.length === 0 ? 'no uncommitted change in services/, pipelines/, schemas/' : `uncommitted changes (diff ${diff}) in ${listed}`;
    return {
      id: `${trees} ${dirty.length === 0 ? '' : diff}`,
      text: `commit ${git('log', '-1', '--format=%h').trim()} (${git('log', '-1', '--format=%s').trim().slice(0, 100)}), ${changes}`,
    };
  } catch (error) {
    return { id: 'unknown', text: `unknown (${(error as Error).message})` };
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const codeAtStart = codeState();
  process.once('SIGINT', () => void stopAllChildren().finally(() => process.exit(130)));
  const results: RunResult[] = [];
  for (let round = 1; round <= RUNS; round++) {
    const order: Mode[] = round % 2 === 1 ? ['policies', 'baseline'] : ['baseline', 'policies'];
    for (const mode of order) results.push(await run(mode, round, false));
  }
  // The profiler slows the platform: its runs come after the measured ones and stay out of the medians.
  const profiles: string[] = [];
  if (PROFILE) {
    for (const mode of ['policies', 'baseline'] as const) {
      const profiled = await run(mode, 0, true);
      const f = profiled.figures;
      profiles.push(
        ...(profiled.profile ?? []),
        `That run (under the profiler): ${f.landed} transitions on the feed at ${Math.round(f.landedRate)}/s` +
          (mode === 'policies' ? `, ${f.delivered} / ${f.expected} pairs received, transition → receipt p50 ${Math.round(f.receiptP50Ms)} ms.` : '.'),
        '',
      );
    }
  }
  const codeAtEnd = codeState();
  const text = markdown(
    results.map((r) => r.figures),
    {
      transitions: TRANSITIONS,
      seconds: SECONDS,
      cis: CIS,
      triggers: TRIGGERS,
      policies: policyDescriptions,
      warmTransitions: transitionsOf(WARM),
      quietSeconds: QUIET_SECONDS,
      sampleSeconds: SAMPLE_MS / 1000,
      maxDrainSeconds: MAX_DRAIN_SECONDS,
      dataRoot: DATA_ROOT,
      fileSystem: fileSystem(),
      machine: [
        ...machineDescription(loadAtStart),
        `- platform code at the start: ${codeAtStart.text}`,
        ...(codeAtEnd.id === codeAtStart.id ? [] : [`- platform code at the end (it changed during the run): ${codeAtEnd.text}`]),
      ],
      notes: [
        `${TRIGGERS} triggers on one stream (check = ${MAIN.checks.join(', ')}; the CI by the \`host\` field; resolved by status=ok; priority from severity) and the warm-up's (check = ${WARM_CHECK}); ${CIS} CIs \`${MAIN.ciPrefix}<i>\` owned by the policies' workgroup, labelled env=prod`,
        'the platform: bench/support/problems-server.ts, all parts in one process on its embedded engines, OPS_NOTIFY_ALLOW_NETWORKS=127.0.0.1/32, LOG_LEVEL warn; the generator and the receiver (with the observer) each in a process of their own',
        `the generator: one JSON POST per record over keep-alive connections (up to 256), at its scheduled instant without waiting for earlier answers`,
      ],
      ...(PROFILE ? { profile: profiles } : {}),
    },
  );
  writeResultFile(new URL('./results/notifications.md', import.meta.url), text);
  process.stdout.write(text);
}

await main();

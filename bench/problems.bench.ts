/**
 * Problems benchmark (DESIGN §7a, the keyed problem stage): `node --import tsx bench/problems.bench.ts`
 * (`--quick`: one round of 5 s, for a smoke run).
 *
 * NDJSON bodies of 1 000 records, one per CI of 1 000, every record matching a trigger (check=cpu,
 * CI by the `host` name, resolved by status=ok), each CI's status changing from one body to the
 * next with probability 0.1 (so about 10 % of the records are state changes); dates advance one
 * second per body. The same bodies go, in the same run, to a stream without a trigger (`plain`,
 * the baseline) and to the stream with it (`triggered`), alternating which goes first from round
 * to round, against (a) the platform all-in-one on its embedded engines (in-process bus, chDB,
 * LMDB: what `npm start` runs), (b) distributed with JetStream and one event worker process,
 * (c) the same with two event worker processes. Load from wrk (support/wrk.ts), which is not the
 * bottleneck: each round also measures wrk with the same script against a bare route that parses
 * every line (the ceiling).
 *
 * Throughput: acknowledged records/s (1 000 × responses under 400, over wrk's duration) and
 * stored+processed records/s: the event rows of the stream (on disk, no FINAL) once every
 * acknowledged record is stored and the bus holds nothing (RECORDS and HITS: the problem stage has
 * drained), over the time from wrk's start to that moment (polled every 200 ms).
 *
 * Distributed: nats-server, redis-server (journal and keyed store) and, as ClickHouse, the
 * test-only chDB-behind-HTTP server (test/support/clickhouse-http-server.ts: no ClickHouse server
 * can be installed here), all started fresh for each run; the api and ingress parts in one
 * process (support/problems-server.ts), each event worker in its own (services/event-worker/main.ts,
 * as `npm run start:event-worker`). Conflicts and redeliveries are the sums over the workers'
 * /metrics. All processes share the machine's cores with wrk. Each JetStream run first measures
 * its ClickHouse endpoint's own insert ceiling for the worker's rows (support/endpoint-ceiling.ts),
 * against which the worker's stored rate is given, and every load samples the RECORDS backlog: the
 * stream's pace (paceBytes) holds it bounded, the ingress slowing (then 503) instead.
 *
 * Data directories go under BENCH_DATA_DIR, by default the OS temporary directory (on this
 * machine the disk, not tmpfs); the results name the file system. Results: bench/results/problems.md.
 * Benchmarks assert nothing.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { STORE_AHEAD } from '../services/event-worker/event-worker.part.js';
import { RECORDS_STREAM } from '../services/runtime/bus-streams.js';
import { freePort } from '../test/support/free-port.js';
import { type Child, lines, startChild, stopAllChildren } from './support/child.js';
import { type DistributedServers, startDistributedServers } from './support/distributed-servers.js';
import { fileSystemOf } from './support/problems-api-report.js';
import { machineDescription, median, writeResultFile } from './support/report.js';
import { sampleMax } from './support/sample-max.js';
import { runWrk, stopAllWrk, type WrkResult, writeWrkScript } from './support/wrk.js';

const quick = process.argv.includes('--quick');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? (quick ? 1 : 3));
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? (quick ? 5 : 12));
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 8);
/**
 * Bodies per stream and run at most: wrk stops there if the duration has not ended first. (Before
 * JetStream's RECORDS stream was paced, its ingress acknowledged far faster than the workers
 * stored, and the cap was 300 bodies to keep the drain short; now the backlog stays near the pace.)
 */
const MAX_BODIES = Number(process.env['BENCH_MAX_BODIES'] ?? 3000);
/** The endpoint ceiling's inserts (support/endpoint-ceiling.ts): rows each, and how long it inserts. */
const CEILING_ROWS_PER_INSERT = Number(process.env['BENCH_CEILING_ROWS'] ?? 40_000);
const CEILING_SECONDS = Number(process.env['BENCH_CEILING_SECONDS'] ?? 5);
/**
 * The worker alone (JetStream, one worker): bodies sent while it is stopped, which it then stores
 * with nothing else running. 250 bodies of about 110 kB stay under the stream's pace (32 MiB),
 * beyond which the ingress would refuse them; the stored rows are read every ALONE_SAMPLE_MS.
 */
const ALONE_BODIES = Number(process.env['BENCH_ALONE_BODIES'] ?? 250);
const ALONE_SAMPLE_MS = 50;
/** Backlogs the worker stores alone per round: one times only about three of its inserts. */
const ALONE_REPEATS = Number(process.env['BENCH_ALONE_REPEATS'] ?? 3);
/** How often the bus backlog is read during a load. */
const PENDING_SAMPLE_MS = 250;
/** When set, every platform process's stdout and stderr are appended to files there. */
const LOG_DIR = process.env['BENCH_LOG_DIR'];
const THREADS = 1;
const CIS = 1000;
const TEMPLATES = 100;
const FLIP = 0.1;
const TOKEN = 'bench-admin-token-0123456789abcdef';
const PATH = '/api/public/cl/v1/stream-data';
type Mode = 'embedded' | 'jetstream-1' | 'jetstream-2';
const ALL_MODES: Mode[] = ['embedded', 'jetstream-1', 'jetstream-2'];
const MODES = (process.env['BENCH_MODES'] ? process.env['BENCH_MODES'].split(',') : ALL_MODES) as Mode[];
type Stream = 'plain' | 'triggered';

const DATA_ROOT = process.env['BENCH_DATA_DIR'] ?? tmpdir();
const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(DATA_ROOT, prefix));
  dirs.push(dir);
  return dir;
};

interface Phase {
  round: number;
  mode: Mode;
  stream: Stream;
  wrk: WrkResult;
  acknowledged: number;
  ackPerSec: number;
  /** Event rows of the stream at the moment everything acknowledged was stored and the bus was empty. */
  stored: number;
  storedPerSec: number;
  /** Seconds from wrk's end to that moment. */
  drainSeconds: number;
  drained: boolean;
  /** Once settled: rows on disk and distinct ids. */
  rows: number;
  ids: number;
  transitions: number;
  conflicts: number;
  redeliveries: number;
  ingressBatches: number;
  insertBatches: number;
  hitsPlaced: number;
  hitsKnown: number;
  hitsTooLate: number;
  journalEntries: number;
  journalChanges: number;
  problems: number;
  openProblems: number;
  /** Problem rows on disk (no FINAL): every change of a key rewrites the problems of its window. */
  problemRows: number;
  /** The most RECORDS messages waiting on the bus at once during the load (sampled). */
  maxPendingRecords: number;
}
const phases: Phase[] = [];
/** Per JetStream run: the ClickHouse endpoint's own insert ceiling, measured before its loads. */
interface EndpointCeiling {
  round: number;
  mode: Mode;
  rowsPerSec: number;
  inserts: number;
}
const endpointCeilings: EndpointCeiling[] = [];
/**
 * Per jetstream-1 run: the worker storing a backlog alone. The rate is over the rows stored after
 * the first sample that saw any (its start-up and first insert are not timed).
 */
interface WorkerAlone {
  round: number;
  /** Records acknowledged while the worker was stopped, and bodies refused. */
  backlog: number;
  refused: number;
  rowsPerSec: number;
  timedRows: number;
  /** Backlogs stored (ALONE_REPEATS). */
  backlogs: number;
}
const workerAlone: WorkerAlone[] = [];
const ceilings: WrkResult[] = [];
let flipShare = 0;

async function api(port: number, method: string, path: string, json: unknown): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    const text = await answer.text();
    // 503: the control plane is busy (concurrent commits in distributed mode); it asks for a retry.
    if (answer.status === 503 && attempt < 20) {
      await new Promise((r) => setTimeout(r, 20 * attempt));
      continue;
    }
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return JSON.parse(text);
  }
}

/** 1 000 CIs, the two streams and the trigger, through the API. */
async function install(port: number): Promise<Record<Stream, { id: number; key: string }>> {
  const wg = await api(port, 'POST', '/api/admin/v1/work-groups', { name: 'hosts' });
  let next = 0;
  const creator = async (): Promise<void> => {
    while (next < CIS) await api(port, 'POST', '/api/public/sm/v2/rsm/config-items', { name: `host-${next++}`, ownerWorkGroup: { id: wg.id } });
  };
  await Promise.all(Array.from({ length: 8 }, creator));
  const plain = await api(port, 'POST', '/api/admin/v1/streams', { name: 'plain' });
  const triggered = await api(port, 'POST', '/api/admin/v1/streams', { name: 'triggered' });
  await api(port, 'POST', '/api/admin/v1/triggers', {
    name: 'cpu',
    streamIds: [triggered.id],
    match: [{ field: 'check', op: 'equals', value: 'cpu' }],
    ci: { by: 'nameField', field: 'host' },
    priority: { field: 'severity', map: { critical: 1, major: 2, minor: 3 }, default: 4 },
    resolve: { field: 'status', values: ['ok'] },
    influence: { value: 50, maxInfluence: false },
  });
  return { plain: { id: plain.id, key: plain.key }, triggered: { id: triggered.id, key: triggered.key } };
}

/** Sums of the figures of interest over the processes' /metrics. */
async function scrape(ports: number[]): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  const wanted =
    /^(ops_problem_stage_transitions_total|ops_problem_stage_conflicts_total|ops_bus_redeliveries_total|ops_batch_records_count\{stage="(?:ingress|insert)"\}|ops_problem_stage_hits_total\{outcome="[a-z_]+"\}) (\S+)$/;
  for (const port of ports) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const line of text.split('\n')) {
      const m = wanted.exec(line);
      if (m) sums[m[1]!] = (sums[m[1]!] ?? 0) + Number(m[2]);
    }
  }
  return sums;
}

async function waitReady(port: number, child: Child): Promise<void> {
  for (const deadline = Date.now() + 60_000; ;) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (child.process.exitCode !== null || Date.now() > deadline) throw new Error(`not ready: ${child.describe()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Keeps a child's output in BENCH_LOG_DIR, if set. */
function keepLogs(child: Child, name: string): void {
  if (!LOG_DIR) return;
  mkdirSync(LOG_DIR, { recursive: true });
  const file = join(LOG_DIR, `${name}.log`);
  child.process.stdout?.on('data', (d: Buffer | string) => appendFileSync(file, d));
  child.process.stderr?.on('data', (d: Buffer | string) => appendFileSync(file, d));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function platformRun(mode: Mode, round: number, script: string, aloneScripts: readonly string[]): Promise<void> {
  const dataDir = tempDir('ops-bench-problems-');
  const distributed: DistributedServers | undefined = mode === 'embedded' ? undefined : await startDistributedServers(DATA_ROOT);
  // Embedded: no server named, whatever this shell's environment says.
  const engines: Record<string, string> = distributed?.env ?? { NATS_URL: '', REDIS_URL: '', CLICKHOUSE_URL: '' };
  const server = startChild(
    `platform-${mode}`,
    'bench/support/problems-server.ts',
    { ...engines, OPS_DATA_DIR: dataDir, BENCH_PARTS: mode === 'embedded' ? '' : 'api,ingress' },
    { ipc: true },
  );
  keepLogs(server, `round-${round}-${mode}-platform`);
  const workers: Array<{ child: Child; port: number }> = [];
  try {
    const next = lines(server);
    const { port } = JSON.parse(await next()) as { port: number };
    const ask = async <T>(command: unknown): Promise<T> => {
      server.message(JSON.stringify(command));
      const answer = JSON.parse(await next()) as T & { error?: string };
      if (answer.error) throw new Error(`platform: ${answer.error}`);
      return answer;
    };
    /** Starts event worker k (1, 2) in its own process; `waitReady` false: resolves once it is spawned. */
    const startWorker = async (k: number, ready = true): Promise<{ child: Child; port: number }> => {
      const workerPort = await freePort();
      const child = startChild(`event-worker-${k}`, 'services/event-worker/main.ts', {
        ...engines,
        OPS_PORT: String(workerPort),
        OPS_HOST: '127.0.0.1',
        OPS_DATA_DIR: tempDir('ops-bench-worker-'),
        LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
        ...(process.env['BENCH_WORKER_NODE_ARGS'] ? { BENCH_NODE_ARGS: process.env['BENCH_WORKER_NODE_ARGS'] } : {}),
      });
      keepLogs(child, `round-${round}-${mode}-worker-${k}`);
      if (ready) await waitReady(workerPort, child);
      return { child, port: workerPort };
    };
    for (let k = 1; k <= (mode === 'jetstream-2' ? 2 : mode === 'jetstream-1' ? 1 : 0); k++) workers.push(await startWorker(k));
    const metricPorts = (): number[] => [port, ...workers.map((w) => w.port)];
    const streams = await install(port);
    const ids = [streams.plain.id, streams.triggered.id];
    type Count = { rows: Record<string, number>; pending: Record<string, number>; revision: number };
    const count = (): Promise<Count> => ask<Count>({ cmd: 'count', streams: ids });
    // Every process has the trigger and the CIs before the first record.
    await sleep(1000);
    if (distributed) {
      // The endpoint's own ceiling for the worker's rows, in this run, before its loads.
      const ceiling = startChild('endpoint-ceiling', 'bench/support/endpoint-ceiling.ts', {
        ...engines,
        CEILING_ROWS_PER_INSERT: String(CEILING_ROWS_PER_INSERT),
        CEILING_SECONDS: String(CEILING_SECONDS),
      });
      const measured = JSON.parse((await ceiling.output(300_000)).trim().split('\n').pop()!) as { rows: number; seconds: number; inserts: number };
      endpointCeilings.push({ round, mode, rowsPerSec: measured.rows / measured.seconds, inserts: measured.inserts });
      process.stderr.write(
        `round ${round} ${mode}: endpoint ceiling ${int(measured.rows / measured.seconds)} rows/s (${measured.inserts} inserts of ${CEILING_ROWS_PER_INSERT})\n`,
      );
    }
    if (mode === 'jetstream-1') {
      // The worker alone: a backlog left on the bus while it was stopped, stored with nothing else
      // running; ALONE_REPEATS backlogs, their timed rows over their timed seconds.
      const alone: WorkerAlone = { round, backlog: 0, refused: 0, rowsPerSec: Number.NaN, timedRows: 0, backlogs: 0 };
      let timedSeconds = 0;
      for (const [repeat, aloneScript] of aloneScripts.entries()) {
        await workers[0]!.child.stop(20_000);
        // One connection: a bus message per body, so the worker takes the backlog in several pulls.
        const fill = await runWrk(`http://127.0.0.1:${port}${PATH}?streamKey=${streams.plain.key}`, aloneScript, { threads: THREADS, connections: 1, seconds: 60 });
        const backlog = (fill.requests - fill.status) * CIS;
        const id = String(streams.plain.id);
        const base = (await count()).rows[id] ?? 0;
        workers[0] = await startWorker(1, false);
        const samples: Array<{ at: number; rows: number }> = [];
        // Until the backlog is stored and acknowledged (the rows may exceed the records wrk counted:
        // it stops after its last counted answer, with requests still in flight).
        for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
          const at = await count();
          const rows = (at.rows[id] ?? 0) - base;
          samples.push({ at: performance.now(), rows });
          if (rows >= backlog && (at.pending['RECORDS'] ?? 0) === 0) break;
          await sleep(ALONE_SAMPLE_MS);
        }
        await waitReady(workers[0].port, workers[0].child);
        const first = samples.find((s) => s.rows > 0);
        // Stored: the first count that saw every row, not the later one that also saw the acks.
        const last = samples.find((s) => s.rows >= backlog) ?? samples[samples.length - 1]!;
        alone.backlog += backlog;
        alone.refused += fill.status;
        alone.backlogs++;
        if (first && last.rows > first.rows) {
          alone.timedRows += last.rows - first.rows;
          timedSeconds += (last.at - first.at) / 1000;
        }
        process.stderr.write(`round ${round} ${mode}: the worker alone, backlog ${repeat + 1}: ${first ? last.rows - first.rows : 0} rows timed of ${backlog}\n`);
      }
      alone.rowsPerSec = timedSeconds > 0 ? alone.timedRows / timedSeconds : Number.NaN;
      workerAlone.push(alone);
      process.stderr.write(`round ${round} ${mode}: the worker alone stored ${int(alone.rowsPerSec)} records/s over ${alone.backlogs} backlogs\n`);
    }

    const order: Stream[] = round % 2 === 1 ? ['plain', 'triggered'] : ['triggered', 'plain'];
    for (const stream of order) {
      const id = String(streams[stream].id);
      const before = await count();
      const metricsBefore = await scrape(metricPorts());
      const start = performance.now();
      const backlog = sampleMax(async () => (await ask<{ pending: Record<string, number> }>({ cmd: 'pending' })).pending['RECORDS'] ?? 0, PENDING_SAMPLE_MS);
      const wrk = await runWrk(`http://127.0.0.1:${port}${PATH}?streamKey=${streams[stream].key}`, script, { threads: THREADS, connections: CONNECTIONS, seconds: SECONDS });
      const wrkEnd = performance.now();
      const maxPendingRecords = await backlog.stop();
      const acknowledged = (wrk.requests - wrk.status) * CIS;
      const rowsOf = (c: Count): number => (c.rows[id] ?? 0) - (before.rows[id] ?? 0);
      // Stored and processed: every acknowledged record stored, nothing left on the bus.
      let at = await count();
      let end = performance.now();
      let drained = false;
      for (const deadline = Date.now() + 600_000; Date.now() < deadline;) {
        const empty = (at.pending['RECORDS'] ?? 0) === 0 && (at.pending['HITS'] ?? 0) === 0;
        if (empty && rowsOf(at) >= acknowledged) {
          drained = true;
          break;
        }
        await sleep(200);
        at = await count();
        end = performance.now();
      }
      const stored = rowsOf(at);
      // Settled (the requests in flight when wrk stopped may still add rows): unchanged over a second.
      let last = at;
      for (let same = 0; same < 2;) {
        await sleep(500);
        const now = await count();
        same = rowsOf(now) === rowsOf(last) && (now.pending['HITS'] ?? 0) === 0 && (now.pending['RECORDS'] ?? 0) === 0 ? same + 1 : 0;
        last = now;
      }
      const final = await ask<{ streams: Record<string, { rows: number; ids: number }>; problems: number; openProblems: number; problemRows: number }>({
        cmd: 'final',
        streams: ids,
      });
      const journal = await ask<{ entries: number; changes: number }>({ cmd: 'journal', since: before.revision });
      const m = await scrape(metricPorts());
      const delta = (name: string): number => (m[name] ?? 0) - (metricsBefore[name] ?? 0);
      const rowsBefore = before.rows[id] ?? 0;
      const phase: Phase = {
        round,
        mode,
        stream,
        wrk,
        acknowledged,
        ackPerSec: acknowledged / (wrk.durationUs / 1e6),
        stored,
        storedPerSec: stored / ((end - start) / 1000),
        drainSeconds: (end - wrkEnd) / 1000,
        drained,
        rows: (final.streams[id]?.rows ?? 0) - rowsBefore,
        ids: (final.streams[id]?.ids ?? 0) - rowsBefore,
        transitions: delta('ops_problem_stage_transitions_total'),
        conflicts: delta('ops_problem_stage_conflicts_total'),
        redeliveries: delta('ops_bus_redeliveries_total'),
        ingressBatches: delta('ops_batch_records_count{stage="ingress"}'),
        insertBatches: delta('ops_batch_records_count{stage="insert"}'),
        hitsPlaced: delta('ops_problem_stage_hits_total{outcome="placed"}'),
        hitsKnown: delta('ops_problem_stage_hits_total{outcome="known"}'),
        hitsTooLate: delta('ops_problem_stage_hits_total{outcome="too_late"}'),
        journalEntries: journal.entries,
        journalChanges: journal.changes,
        problems: final.problems,
        openProblems: final.openProblems,
        problemRows: final.problemRows,
        maxPendingRecords,
      };
      phases.push(phase);
      process.stderr.write(
        `round ${round} ${mode} ${stream}: ${int(phase.ackPerSec)} acknowledged records/s, ${int(phase.storedPerSec)} stored+processed records/s (drained ${phase.drainSeconds.toFixed(1)} s after wrk${drained ? '' : ', NOT DRAINED'}), ` +
          `${phase.transitions} transitions, ${phase.journalEntries} journal entries / ${phase.journalChanges} changes, ${phase.conflicts} conflicts\n`,
      );
    }
  } finally {
    for (const w of workers) await w.child.stop(20_000);
    if (server.process.exitCode === null && server.process.connected) {
      server.message(JSON.stringify({ cmd: 'stop' }));
      // Let it exit by itself (a --cpu-prof profile is written only then), SIGTERM only after that.
      await server.output(20_000).catch(() => undefined);
    }
    await server.stop(20_000);
    await distributed?.stop();
  }
}

const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const ratio = (a: number, b: number): string => (Number.isFinite(a / b) ? (a / b).toFixed(2) : '–');

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const scriptDir = tempDir('ops-bench-wrk-');
  const stop = (): void => {
    stopAllWrk();
    void stopAllChildren().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Dates from an hour ago, one second per body: a round's bodies stay clear of the next's.
      const script = join(scriptDir, `round-${round}.lua`);
      const ceilingScript = join(scriptDir, `round-${round}-ceiling.lua`);
      const bodies = { cis: CIS, templates: TEMPLATES, flip: FLIP, startSeconds: Math.floor(Date.now() / 1000) - 3600, threads: THREADS };
      flipShare = writeWrkScript(script, { ...bodies, maxRequestsPerThread: Math.ceil(MAX_BODIES / THREADS) }).flipShare;
      // The ceiling: the same bodies, for the whole duration.
      writeWrkScript(ceilingScript, bodies);
      // The worker's backlogs (JetStream, one worker): bodies dated before the loads', each backlog
      // before the one stored ahead of it, so no two carry the same records.
      const aloneScripts = Array.from({ length: ALONE_REPEATS }, (_, repeat) => {
        const path = join(scriptDir, `round-${round}-alone-${repeat + 1}.lua`);
        writeWrkScript(path, { ...bodies, startSeconds: bodies.startSeconds - (2 + repeat) * ALONE_BODIES, maxRequestsPerThread: Math.ceil(ALONE_BODIES / THREADS) });
        return path;
      });
      const bare = startChild('ceiling', 'bench/support/bare-ingest-server.ts');
      const { port } = JSON.parse(await bare.firstLine(10_000)) as { port: number };
      ceilings.push(await runWrk(`http://127.0.0.1:${port}${PATH}?streamKey=ceiling`, ceilingScript, { threads: THREADS, connections: CONNECTIONS, seconds: SECONDS }));
      await bare.stop();
      for (const mode of MODES) await platformRun(mode, round, script, aloneScripts);
      process.stderr.write(`round ${round} done\n`);
    }
  } finally {
    stopAllWrk();
    await stopAllChildren();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  report(loadAtStart);
}

function report(loadAtStart: number[]): void {
  const of = (mode: Mode, stream: Stream): Phase[] => phases.filter((p) => p.mode === mode && p.stream === stream);
  const med = (list: Phase[], f: (p: Phase) => number): number => median(list.map(f));
  const ceiling = median(ceilings.map((c) => ((c.requests - c.status) * CIS) / (c.durationUs / 1e6)));
  const failures = (list: Phase[]): number => list.reduce((n, p) => n + p.wrk.status + p.wrk.connect + p.wrk.read + p.wrk.write + p.wrk.timeout, 0);
  const rows: string[] = [
    '| platform | stream | acknowledged records/s | stored+processed records/s | triggered / plain (stored) | drain after load, s | p50 / p99 ms | non-2xx + errors |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
    `| ceiling (wrk → bare route parsing every line) | – | ${int(ceiling)} | – | – | – | – | ${ceilings.reduce((n, c) => n + c.status + c.connect + c.read + c.write + c.timeout, 0)} |`,
  ];
  for (const mode of MODES) {
    const plain = of(mode, 'plain');
    const triggered = of(mode, 'triggered');
    for (const [stream, list] of [
      ['plain', plain],
      ['triggered', triggered],
    ] as const) {
      rows.push(
        `| ${mode} | ${stream} | ${int(med(list, (p) => p.ackPerSec))} | ${int(med(list, (p) => p.storedPerSec))} | ${
          stream === 'triggered'
            ? ratio(
                med(triggered, (p) => p.storedPerSec),
                med(plain, (p) => p.storedPerSec),
              )
            : ''
        } | ${med(list, (p) => p.drainSeconds).toFixed(1)} | ${(med(list, (p) => p.wrk.p50Us) / 1000).toFixed(0)} / ${(med(list, (p) => p.wrk.p99Us) / 1000).toFixed(0)} | ${failures(list)} |`,
      );
    }
  }
  const stored = (mode: Mode): number => med(of(mode, 'triggered'), (p) => p.storedPerSec);
  const sum = (list: Phase[], f: (p: Phase) => number): number => list.reduce((n, p) => n + f(p), 0);
  const triggeredAll = phases.filter((p) => p.stream === 'triggered');
  const jetstream = triggeredAll.filter((p) => p.mode !== 'embedded');
  const targets: string[] = [];
  if (MODES.includes('embedded')) {
    targets.push(
      `- embedded: triggered ≥ 50 % of untriggered records/s (stored+processed): ${ratio(
        stored('embedded'),
        med(of('embedded', 'plain'), (p) => p.storedPerSec),
      )}`,
    );
  }
  if (MODES.includes('jetstream-1') && MODES.includes('jetstream-2')) {
    targets.push(`- JetStream: 2 workers ≥ 1.0× the triggered throughput of 1 (stored+processed): ${ratio(stored('jetstream-2'), stored('jetstream-1'))}`);
  }
  if (jetstream.length > 0) {
    targets.push(
      `- JetStream: 0 cross-worker conflicts or retries (ops_problem_stage_conflicts_total, ops_bus_redeliveries_total, summed over the workers, all runs): ${sum(jetstream, (p) => p.conflicts)} conflicts, ${sum(jetstream, (p) => p.redeliveries)} redeliveries`,
    );
  }
  targets.push(
    `- embedded: ${sum(
      phases.filter((p) => p.mode === 'embedded'),
      (p) => p.conflicts,
    )} conflicts, ${sum(
      phases.filter((p) => p.mode === 'embedded'),
      (p) => p.redeliveries,
    )} redeliveries`,
  );
  const detail = [
    '| round | platform | stream | acknowledged records/s | stored+processed records/s | records stored (rows, no FINAL) | distinct ids | ingress batches | insert batches | hits placed / known / too late | CI state transitions | journal entries | journal changes | problems (open) | problem rows on disk | conflicts | redeliveries |',
    '|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...phases.map(
      (p) =>
        `| ${p.round} | ${p.mode} | ${p.stream} | ${int(p.ackPerSec)} | ${int(p.storedPerSec)}${p.drained ? '' : ' (not drained)'} | ${p.rows} | ${p.ids}${p.ids === p.rows ? '' : ' (DUPLICATES)'} | ${p.ingressBatches} | ${p.insertBatches} | ${p.hitsPlaced} / ${p.hitsKnown} / ${p.hitsTooLate} | ${p.transitions} | ${p.journalEntries} | ${p.journalChanges} | ${p.stream === 'triggered' ? `${p.problems} (${p.openProblems})` : ''} | ${p.stream === 'triggered' ? p.problemRows : ''} | ${p.conflicts} | ${p.redeliveries} |`,
    ),
  ];
  // The worker's stored rate (plain: inserts only, no problem stage) against the endpoint's ceiling of the same run.
  const phaseOf = (c: EndpointCeiling, stream: Stream): Phase | undefined => phases.find((p) => p.round === c.round && p.mode === c.mode && p.stream === stream);
  const underLoad = (c: EndpointCeiling): string => {
    const plain = phaseOf(c, 'plain');
    return plain ? ratio(plain.storedPerSec, c.rowsPerSec) : '–';
  };
  const ceilingRows = endpointCeilings.map((c) => {
    const plain = phaseOf(c, 'plain');
    const triggered = phaseOf(c, 'triggered');
    const perInsert = plain && plain.insertBatches > 0 ? plain.rows / plain.insertBatches : 0;
    const alone = c.mode === 'jetstream-1' ? workerAlone.find((a) => a.round === c.round) : undefined;
    const aloneCells = alone
      ? `${int(alone.rowsPerSec)} (${alone.timedRows.toLocaleString('en-US')} of ${alone.backlog.toLocaleString('en-US')} timed, ${alone.backlogs} backlogs${alone.refused > 0 ? `, ${alone.refused} bodies refused` : ''}) | ${ratio(alone.rowsPerSec, c.rowsPerSec)}`
      : '– | –';
    return `| ${c.round} | ${c.mode} | ${int(c.rowsPerSec)} (${c.inserts} inserts) | ${aloneCells} | ${plain ? int(plain.storedPerSec) : '–'} | ${underLoad(c)} | ${int(perInsert)} | ${plain?.maxPendingRecords ?? '–'} / ${triggered?.maxPendingRecords ?? '–'} |`;
  });
  const ceilingOf = (round: number): number => endpointCeilings.find((c) => c.round === round && c.mode === 'jetstream-1')?.rowsPerSec ?? Number.NaN;
  if (MODES.includes('jetstream-1')) {
    targets.push(
      `- JetStream, one worker: stored records/s ≥ 0.8 of the ClickHouse endpoint's own insert ceiling in the same run, the worker storing a backlog alone: ${workerAlone.map((a) => ratio(a.rowsPerSec, ceilingOf(a.round))).join(' / ')}; under the load (plain stream, beside the ingress and wrk): ${endpointCeilings
        .filter((c) => c.mode === 'jetstream-1')
        .map(underLoad)
        .join(' / ')}`,
    );
  }
  const backlog = phases.filter((p) => p.mode !== 'embedded');
  if (backlog.length > 0) {
    targets.push(
      `- JetStream: the RECORDS backlog stays bounded under a load above what the workers store (the stream's pace, ${((RECORDS_STREAM.paceBytes ?? 0) / 1048576).toFixed(0)} MiB; it refuses only at ${((RECORDS_STREAM.maxBytes ?? 0) / 1048576).toFixed(0)} MiB or ${(RECORDS_STREAM.maxMessages ?? 0).toLocaleString('en-US')} messages): at most ${Math.max(...backlog.map((p) => p.maxPendingRecords)).toLocaleString('en-US')} messages waiting, sampled every ${PENDING_SAMPLE_MS} ms, all JetStream runs`,
    );
  }
  const journalNote = triggeredAll.map(
    (p) =>
      `- round ${p.round} ${p.mode}: ${p.rows} records in ${p.ingressBatches} ingress batches (${p.insertBatches} insert batches) → ${p.transitions} CI state transitions (${((100 * p.transitions) / Math.max(1, p.rows)).toFixed(1)} % of the records); the journal grew by ${p.journalChanges} changes in ${p.journalEntries} entries (revisions)`,
  );
  const text = [
    '# Problems benchmark (keyed problem stage)',
    '',
    `NDJSON bodies of ${CIS} records, one per CI of ${CIS}, every record matching the trigger of the \`triggered\` stream; ${(100 * flipShare).toFixed(1)} % of the records change their CI's status (firing ↔ ok). ` +
      `The same bodies go to a stream without a trigger (\`plain\`) in the same run, plain first in odd rounds, triggered first in even ones. ` +
      `Medians over ${ROUNDS} round(s); per stream and run, load for ${SECONDS} s or ${MAX_BODIES} bodies, whichever ends first, over ${CONNECTIONS} connections, from wrk (${THREADS} thread, support/wrk.ts). ` +
      "Stored+processed: the stream's event rows (on disk, no FINAL) once every acknowledged record is stored and the bus is empty (RECORDS and HITS: the problem stage has drained), over the time from the start of the load to that moment. " +
      'Embedded: all parts in one process (in-process bus, chDB, LMDB). JetStream: nats-server, redis-server (journal, keyed store) and ClickHouse over HTTP — the test-only chDB-behind-HTTP server, one Node process —, the api and ingress parts in one process and each event worker in its own. Every process shares the machine with wrk.',
    '',
    rows.join('\n'),
    '',
    '## Targets',
    ...targets,
    '',
    "## JetStream: the worker against the ClickHouse endpoint's own ceiling",
    `Before its loads, each JetStream run inserts event rows straight into its ClickHouse endpoint (support/endpoint-ceiling.ts: the worker's row text and settings through the same adapter, ${CEILING_ROWS_PER_INSERT.toLocaleString('en-US')} rows per insert, ${STORE_AHEAD} inserts at once as the worker makes them, for ${CEILING_SECONDS} s of inserts; the rows are made between rounds of inserts and not timed). The worker alone (one worker): it is stopped, ${ALONE_BODIES} bodies go to the plain stream, then it is started again and stores that backlog with nothing else running, ${ALONE_REPEATS} times; each backlog is timed over the rows stored after the first count that saw any, up to the first count that saw them all (read every ${ALONE_SAMPLE_MS} ms), so neither its start-up nor its last acks are timed, and the rate is the timed rows over the timed seconds of all. Under the load: the plain stream's stored rate (its inserts, no problem stage), while the ingress, nats-server and wrk share the two cores with it and the endpoint. Backlog: the RECORDS messages waiting on the bus, read from the platform's bus every ${PENDING_SAMPLE_MS} ms during each load.`,
    '',
    "| round | platform | endpoint ceiling, rows/s | worker alone, records/s | alone / ceiling | worker stored under the load (plain), records/s | under the load / ceiling | worker's rows per insert (plain) | most RECORDS messages waiting (plain / triggered) |",
    '|--:|---|--:|--:|--:|--:|--:|--:|--:|',
    ...ceilingRows,
    '',
    '## Journal growth: CI state transitions, not batches',
    ...journalNote,
    '',
    '## Each run',
    ...detail,
    '',
    '## Machine',
    ...machineDescription(loadAtStart),
    `- data directories (platform, nats-server, ClickHouse HTTP) under ${DATA_ROOT} (${fileSystemOf(DATA_ROOT)}); redis-server without persistence`,
    '',
  ].join('\n');
  writeResultFile(new URL('./results/problems.md', import.meta.url), text);
  process.stdout.write(text);
}

await main();

/**
 * Custom SLA report benchmark of the SLA issues (#8, #18). Run with:
 *
 *   node --import tsx bench/sla-report.bench.ts            (SLA_SCALES=1x,10x by default)
 *
 * Scales: 1x = 10 000 CIs and 1 000 000 problems, 10x = 100 000 CIs and 10 000 000 problems, over
 * the 30 days before the run (100 per CI, 1 min to 4 h long, priorities 1–4, influences 30 / 60 /
 * max, 1 % still open). Per scale, the whole platform runs in this process on its embedded
 * engines (chDB, LMDB, in-process bus) in a temporary directory, seeded once: the CIs in
 * control-plane commits of 10 000, the problems inserted into the problems table, and a template
 * listing every CI with a Mon–Fri 09:00–18:00 Europe/Berlin calendar and a 99.9 target. The
 * seeding's 100 inserts leave parts that ClickHouse merges for a while after: the timing waits
 * until no merge of `problems` has run for 3 s (the result says how long that took), as a store
 * filled over 30 days would be.
 * - Reports: per thread count (the platform restarted with OPS_SLA_THREADS), three reports of the
 *   30 days are ordered one after the other over HTTP and polled to `Ok`; the table shows the
 *   medians. The 1-thread run is the baseline of the 2-thread ratio. The phase columns are the SLA
 *   worker's own figures (medians of its log lines): the ClickHouse part (copy the overlapping
 *   problems for the report, read them back as numbers), the maths (preparing the CIs and packing
 *   the problems on the event loop, then the piscina threads' runs, whose share is shown on its
 *   own), and storing the rows. Targets (#18): 1x under 1.5 s, 10x under 15 s.
 * - Live SLA: the time the API takes after a start to read the problems of the last 31 days into
 *   memory (its own log line; the reports are timed once it is done), the heap after it, and the latency of GET config-items/{id} with
 *   includeSla=true (three windows, and the budget and burn rates of the template) against the
 *   same GET without it, the baseline: 2 000 requests each, one at a time, on random CIs. The
 *   client runs in the same process as the platform (its share of the time is in both columns).
 * - Exports (1x): the xlsx and csv CI exports of the 10 000-row report, three times each, to their
 *   last byte. Target (#8): xlsx under 3 s.
 * Writes bench/results/sla-report.md. A benchmark asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { clickhouseDateTime } from '../pipelines/records/timestamps.js';
import type { CiRecord } from '../services/control-plane/cmdb/cmdb.types.js';
import { parts } from '../services/parts.js';
import { type Platform, startPlatform } from '../services/platform.js';
import { loadConfig } from '../services/runtime/config.js';
import { createLogger } from '../services/runtime/logger.js';
import { seededRandom as random } from '../test/support/random.js';
import { machineDescription, median, writeResultFile } from './support/report.js';
import { PROBLEMS, type ProblemRow } from '../schemas/tables/problems.table.js';

const SCALES: Record<string, { cis: number; perCi: number; okTargetS: number }> = {
  '1x': { cis: 10_000, perCi: 100, okTargetS: 1.5 },
  '10x': { cis: 100_000, perCi: 100, okTargetS: 15 },
};
const SCALE_NAMES = (process.env['SLA_SCALES'] ?? '1x,10x').split(',').filter((name) => name in SCALES);
const DAY = 86_400_000;
/** The reports' range and the problems': the 30 days before the run, so the live windows see them too. */
const RANGE_END = Math.floor(Date.now() / 60_000) * 60_000;
const RANGE_START = RANGE_END - 30 * DAY;
const RUNS = 3;
const LIVE_REQUESTS = 2000;
const TOKEN = 'bench-admin-token-0123456789abcdef';
const RESULT_FILE = new URL('./results/sla-report.md', import.meta.url);
const TARGET_EXPORT_S = 3;

interface Phases {
  problemsMs: number;
  mathsMs: number;
  threadsMs: number;
  storeMs: number;
}
/** The SLA worker's phase figures, from its "SLA report calculated" log lines. */
const phaseLog: Phases[] = [];
/** The live SLA's start, from its "live SLA problems loaded" log lines. */
const liveLoads: Array<{ problems: number; ms: number }> = [];
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) {
      if (line.includes('SLA report calculated')) {
        phaseLog.push(JSON.parse(line) as Phases);
        if (process.env['SLA_BENCH_VERBOSE']) process.stderr.write(`${line}\n`);
      } else if (line.includes('live SLA problems loaded')) liveLoads.push(JSON.parse(line) as { problems: number; ms: number });
      else if (/"level":(40|50|60)/.test(line)) process.stderr.write(`${line}\n`);
    }
    done();
  },
});

/**
 * Starts the platform and waits until its live SLA has read the problems (includeSla answers
 * 200), so that its first read does not run beside the reports timed next.
 */
async function start(dataDir: string, threads: number): Promise<{ platform: Platform; base: string }> {
  const config = loadConfig({ OPS_PORT: '1', OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: TOKEN, OPS_SLA_THREADS: String(threads), LOG_LEVEL: 'info' });
  config.port = 0;
  const platform = await startPlatform(config, parts, { logger: createLogger('info', logSink) });
  const base = `http://127.0.0.1:${platform.port}`;
  if (platform.controlPlane.model.slices.cmdb.cis.size > 0) {
    const id = platform.controlPlane.model.slices.cmdb.cis.keys().next().value!;
    for (;;) {
      const answer = await fetch(`${base}/api/public/sm/v2/rsm/config-items/${id}?includeSla=true`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await answer.arrayBuffer();
      if (answer.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return { platform, base };
}

async function api(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function seed(platform: Platform, base: string, ciCount: number, perCi: number): Promise<number> {
  const wg = await api(base, 'POST', '/api/admin/v1/work-groups', { name: 'bench' });
  const typeId = [...platform.controlPlane.model.slices.cmdb.types.values()].find((t) => t.isDefault)!.id;
  const now = new Date().toISOString();
  for (let first = 1; first <= ciCount; first += 10_000) {
    await platform.controlPlane.execute(() => {
      const changes = [];
      for (let id = first; id < Math.min(first + 10_000, ciCount + 1); id++) {
        const ci: CiRecord = {
          id,
          name: `host-${id}`,
          description: '',
          parentId: null,
          ownerWorkGroupId: wg.id,
          typeId,
          labels: null,
          cmdbSystemId: -1,
          cmdbLinks: [],
          grants: [],
          influentialIds: [],
          createdAt: now,
          createdBy: 1,
          createdByName: 'admin',
          updatedAt: now,
          updatedBy: 1,
          updatedByName: 'admin',
        };
        changes.push({ key: `ci:${id}`, value: ci });
      }
      changes.push({ key: 'seq:ci', value: Math.min(first + 9_999, ciCount) });
      return { changes, result: () => undefined };
    });
  }
  const rnd = random(20261121);
  const slot = (RANGE_END - RANGE_START) / perCi;
  for (let from = 1; from <= ciCount; from += 1000) {
    let lines = '';
    for (let ci = from; ci < from + 1000; ci++) {
      for (let k = 0; k < perCi; k++) {
        const startMs = Math.floor(RANGE_START + k * slot + rnd() * slot * 0.5);
        const open = k === perCi - 1 && rnd() < 0.01;
        const endMs = startMs + 60_000 + Math.floor(rnd() * 4 * 3_600_000);
        const roll = rnd();
        const hex = (ci * perCi + k).toString(16).padStart(12, '0');
        lines += `${JSON.stringify({
          id: `00000000-0000-4000-8000-${hex}`,
          trigger_id: 1,
          trigger_name: 'bench',
          ci_id: ci,
          date_start: clickhouseDateTime(startMs),
          date_end: open ? null : clickhouseDateTime(endMs),
          last_event_at: clickhouseDateTime(startMs),
          priority: 1 + Math.floor(rnd() * 4),
          tags: '[]',
          incidents: '[]',
          influence_value: roll < 0.4 ? 30 : 60,
          influence_max: roll > 0.8 ? 1 : 0,
          with_maintenance: 0,
          version: 1,
          is_deleted: 0,
        } satisfies Omit<ProblemRow, 'acknowledged' | 'comments_count'>)}\n`;
      }
    }
    await platform.engines.analytics.insert(PROBLEMS.name, Buffer.from(lines));
  }
  const template = await api(base, 'POST', '/api/admin/v1/sla/templates', {
    type: 'Single',
    name: 'bench',
    period: 'PreviousMonth',
    ownerType: 'User',
    userId: 1,
    timeZone: 'Europe/Berlin',
    configItems: Array.from({ length: ciCount }, (_, i) => ({ id: i + 1 })),
    target: 99.9,
    calendar: { week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })), holidays: [] },
  });
  return template.id;
}

async function timeToOk(base: string, templateId: number): Promise<{ seconds: number; id: string }> {
  const started = performance.now();
  const ordered = await api(base, 'POST', '/api/public/sm/v1/sla/ordered', {
    template: { id: templateId },
    range: { start: new Date(RANGE_START).toISOString(), end: new Date(RANGE_END).toISOString() },
  });
  for (;;) {
    const report = await api(base, 'GET', `/api/public/sm/v1/sla/ordered/${ordered.id}`);
    if (report.status === 'Ok') return { seconds: (performance.now() - started) / 1000, id: ordered.id };
    if (report.status === 'Error') throw new Error(`report failed: ${report.error}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The longest mergesSettled waits: past it the reports are timed anyway, and the result says so. */
const SETTLE_LIMIT_S = 300;

/**
 * Waits until ClickHouse has merged the parts the seeding wrote (100 inserts in a minute or two)
 * and no merge of `problems` has run for 3 s: a store filled over 30 days is not 100 fresh parts,
 * and their merges would run beside the first reports timed.
 */
async function mergesSettled(platform: Platform): Promise<{ seconds: number; parts: number; settled: boolean }> {
  const started = performance.now();
  const count = async (sql: string): Promise<number> => Number((await platform.engines.analytics.query<{ n: string }>(sql))[0]?.n);
  const elapsed = (): number => (performance.now() - started) / 1000;
  let quiet = 0;
  while (quiet < 3 && elapsed() < SETTLE_LIMIT_S) {
    await new Promise((r) => setTimeout(r, 1000));
    quiet = (await count("SELECT count() AS n FROM system.merges WHERE database = currentDatabase() AND table = 'problems'")) === 0 ? quiet + 1 : 0;
  }
  const parts = await count("SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = 'problems' AND active");
  return { seconds: elapsed(), parts, settled: quiet >= 3 };
}

async function timeExport(base: string, id: string, query: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const answer = await fetch(`${base}/api/public/sm/v1/sla/ordered/${id}/export${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const bytes = (await answer.arrayBuffer()).byteLength;
  if (answer.status !== 200) throw new Error(`export ${query}: ${answer.status}`);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/** Latency percentiles (ms) of `count` GETs of `path(id)` on random CIs, one at a time. */
async function latencies(base: string, count: number, cis: number, path: (id: number) => string): Promise<{ p50: number; p99: number }> {
  const rnd = random(7);
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await fetch(base + path(1 + Math.floor(rnd() * cis)), { headers: { authorization: `Bearer ${TOKEN}` } });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`GET: ${answer.status}`);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(count * 0.5)]!, p99: ms[Math.floor(count * 0.99)]! };
}

const load = loadavg();
/** What mergesSettled found, per scale, for the result's notes. */
const settleNotes: string[] = [];
const rows: string[][] = [];
const liveRows: string[][] = [];
let exportLines: string[] = [];
for (const scaleName of SCALE_NAMES) {
  const { cis: ciCount, perCi, okTargetS } = SCALES[scaleName]!;
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-sla-bench-'));
  try {
    let running = await start(dataDir, 1);
    const seeding = performance.now();
    const templateId = await seed(running.platform, running.base, ciCount, perCi);
    console.log(`${scaleName}: seeded ${ciCount} CIs and ${ciCount * perCi} problems in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    const settled = await mergesSettled(running.platform);
    settleNotes.push(
      settled.settled
        ? `${scaleName}: the seeding's merges of \`problems\` ended ${settled.seconds.toFixed(1)} s after it, ${settled.parts} parts left; the reports were timed after that`
        : `${scaleName}: the seeding's merges of \`problems\` still ran ${SETTLE_LIMIT_S} s after it (${settled.parts} parts), so the reports ran beside them`,
    );
    console.log(settleNotes.at(-1));
    const okSeconds = new Map<number, number>();
    let lastReport = '';
    for (const threads of [1, 2]) {
      await running.platform.stop('bench');
      liveLoads.length = 0;
      running = await start(dataDir, threads);
      const runs: number[] = [];
      phaseLog.length = 0;
      for (let i = 0; i < RUNS; i++) {
        const run = await timeToOk(running.base, templateId);
        runs.push(run.seconds);
        lastReport = run.id;
        console.log(`${scaleName}, threads ${threads}, run ${i + 1}: ${run.seconds.toFixed(2)} s to Ok`);
      }
      okSeconds.set(threads, median(runs));
      const phase = (key: keyof Phases) => (median(phaseLog.map((p) => p[key])) / 1000).toFixed(2);
      rows.push([
        `${scaleName}: ${ciCount.toLocaleString('en-US')} CIs, ${(ciCount * perCi).toLocaleString('en-US')} problems, ${threads} thread${threads > 1 ? 's' : ''}`,
        runs.map((x) => x.toFixed(2)).join(' / '),
        median(runs).toFixed(2),
        (okSeconds.get(1)! / median(runs)).toFixed(2),
        phase('problemsMs'),
        phase('mathsMs'),
        phase('threadsMs'),
        phase('storeMs'),
        `< ${okTargetS} s`,
      ]);
    }
    // The live SLA, as loaded at the last start.
    global.gc?.();
    const heapMiB = process.memoryUsage().heapUsed / 2 ** 20;
    const plain = await latencies(running.base, LIVE_REQUESTS, ciCount, (id) => `/api/public/sm/v2/rsm/config-items/${id}`);
    const withSla = await latencies(running.base, LIVE_REQUESTS, ciCount, (id) => `/api/public/sm/v2/rsm/config-items/${id}?includeSla=true`);
    const loaded = liveLoads.at(-1);
    liveRows.push([
      scaleName,
      ciCount.toLocaleString('en-US'),
      (loaded?.problems ?? 0).toLocaleString('en-US'),
      ((loaded?.ms ?? 0) / 1000).toFixed(1),
      heapMiB.toFixed(0),
      `${plain.p50.toFixed(2)} / ${plain.p99.toFixed(2)}`,
      `${withSla.p50.toFixed(2)} / ${withSla.p99.toFixed(2)}`,
      (withSla.p99 / plain.p99).toFixed(2),
    ]);
    console.log(`${scaleName}: GET p99 ${plain.p99.toFixed(2)} ms, with includeSla ${withSla.p99.toFixed(2)} ms`);
    if (scaleName === '1x') {
      const exports: string[][] = [];
      for (const [label, query] of [
        ['xlsx, 10 000 CI rows', '?format=xls&exportType=configItems'],
        ['csv, 10 000 CI rows', '?format=csv&exportType=configItems'],
      ] as const) {
        const runs: Array<{ seconds: number; bytes: number }> = [];
        for (let i = 0; i < RUNS; i++) runs.push(await timeExport(running.base, lastReport, query));
        const m = median(runs.map((r) => r.seconds));
        exports.push([
          label,
          runs.map((r) => r.seconds.toFixed(2)).join(' / '),
          m.toFixed(2),
          (runs[0]!.bytes / 1024).toFixed(0),
          label.startsWith('xlsx') ? `< ${TARGET_EXPORT_S} s` : '',
        ]);
        console.log(`${label}: ${m.toFixed(2)} s`);
      }
      exportLines = ['| export | runs (s) | median s | KiB | target |', '| --- | ---: | ---: | ---: | --- |', ...exports.map((r) => `| ${r.join(' | ')} |`)];
    }
    await running.platform.stop('bench');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const table = [
  '| time to Ok | runs (s) | median s | speed-up over 1 thread | problems copied + read s | maths s | of which on the threads s | rows stored s | target |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
];
const liveTable = [
  '| scale | CIs | problems in memory | load at start s | heap MiB | GET p50 / p99 ms (baseline) | GET includeSla p50 / p99 ms | p99 ratio |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...liveRows.map((r) => `| ${r.join(' | ')} |`),
];
const text = [
  '# SLA report benchmark',
  '',
  `Scales ${SCALE_NAMES.join(', ')}: 100 problems per CI over the 30 days before the run; Single template with a Mon–Fri 09:00–18:00 Europe/Berlin calendar; embedded engines; POST ordered → GET until Ok, over HTTP; data on disk (${tmpdir()}).`,
  '',
  ...settleNotes.map((note) => `- ${note}.`),
  '',
  ...table,
  '',
  '## Live SLA',
  '',
  `${LIVE_REQUESTS} GETs of random CIs each, one at a time, after the reports; the CI's template has a target, so includeSla also computes its budget and burn rates.`,
  '',
  ...liveTable,
  '',
  ...exportLines,
  '',
  '## Machine',
  '',
  ...machineDescription(load),
  '',
].join('\n');
writeResultFile(RESULT_FILE, text);
console.log(`\n${text}`);

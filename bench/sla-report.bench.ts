/**
 * Custom SLA report benchmark of the SLA issue. Run with:
 *
 *   node --import tsx bench/sla-report.bench.ts
 *
 * "10 000 CIs, 1 000 000 problems, 30-day range, Single template: time to `Ok`, with 1 piscina
 * thread and with 2, and the ratio; xlsx export time of the 10 000-row CI report. Target: under
 * 5 s to Ok, export under 3 s." The whole platform runs in this process on its embedded engines
 * (chDB, LMDB, in-process bus) in a temporary directory, seeded once: 10 000 CIs in one
 * control-plane commit, 1 000 000 problems inserted into the problems table (100 per CI over the
 * 30 days, 1 min to 4 h long, priorities 1–4, influences 30 / 60 / max, 1 % still open), a
 * template listing every CI with a Mon–Fri 09:00–18:00 Europe/Berlin calendar. Then, per thread
 * count (the platform restarted with OPS_SLA_THREADS), three reports are ordered one after the
 * other over HTTP and polled to `Ok`; the table shows the medians. The exports are timed to
 * their last byte, three times each. The 1-thread run is the baseline of the 2-thread ratio.
 * The phase columns are the SLA worker's own figures (medians of its log lines): the ClickHouse
 * part (copy the overlapping problems for the report, read them back grouped by CI), the maths on
 * the piscina threads, and storing the rows.
 * Writes bench/results/sla-report.md. A benchmark asserts nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { clickhouseDateTime } from '../pipelines/records/timestamps.js';
import type { CiRecord } from '../services/control-plane/cmdb/cmdb.types.js';
import { allPartNames } from '../services/parts.js';
import { type Platform, startPlatform } from '../services/platform.js';
import { loadConfig } from '../services/runtime/config.js';
import { createLogger } from '../services/runtime/logger.js';
import { seededRandom as random } from '../test/support/random.js';
import { machineDescription, median } from './support/report.js';

const CI_COUNT = 10_000;
const PER_CI = 100;
const DAY = 86_400_000;
const RANGE_START = Date.parse('2026-10-01T00:00:00.000Z');
const RANGE_END = RANGE_START + 30 * DAY;
const RUNS = 3;
const TOKEN = 'bench-admin-token-0123456789abcdef';
const RESULT_FILE = new URL('./results/sla-report.md', import.meta.url);
const TARGET_OK_S = 5;
const TARGET_EXPORT_S = 3;

interface Phases {
  problemsMs: number;
  mathsMs: number;
  storeMs: number;
}
/** The SLA worker's phase figures, from its "SLA report calculated" log lines. */
const phaseLog: Phases[] = [];
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) {
      if (line.includes('SLA report calculated')) phaseLog.push(JSON.parse(line) as Phases);
      else if (/"level":(40|50|60)/.test(line)) process.stderr.write(`${line}\n`);
    }
    done();
  },
});

async function start(dataDir: string, threads: number): Promise<{ platform: Platform; base: string }> {
  const config = loadConfig({ OPS_PORT: '1', OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: TOKEN, OPS_SLA_THREADS: String(threads), LOG_LEVEL: 'info' });
  config.port = 0;
  const platform = await startPlatform(config, allPartNames, { logger: createLogger('info', logSink) });
  return { platform, base: `http://127.0.0.1:${platform.port}` };
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

async function seed(platform: Platform, base: string): Promise<number> {
  const wg = await api(base, 'POST', '/api/admin/v1/work-groups', { name: 'bench' });
  const typeId = [...platform.controlPlane.model.slices.cmdb.types.values()].find((t) => t.isDefault)!.id;
  const now = new Date().toISOString();
  await platform.controlPlane.execute(() => {
    const changes = [];
    for (let id = 1; id <= CI_COUNT; id++) {
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
    changes.push({ key: 'seq:ci', value: CI_COUNT });
    return { changes, result: () => undefined };
  });
  const rnd = random(20261121);
  const slot = (RANGE_END - RANGE_START) / PER_CI;
  for (let from = 1; from <= CI_COUNT; from += 1000) {
    let lines = '';
    for (let ci = from; ci < from + 1000; ci++) {
      for (let k = 0; k < PER_CI; k++) {
        const startMs = Math.floor(RANGE_START + k * slot + rnd() * slot * 0.5);
        const open = k === PER_CI - 1 && rnd() < 0.01;
        const endMs = startMs + 60_000 + Math.floor(rnd() * 4 * 3_600_000);
        const roll = rnd();
        const hex = (ci * PER_CI + k).toString(16).padStart(12, '0');
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
        })}\n`;
      }
    }
    await platform.engines.analytics.insert('problems', Buffer.from(lines));
  }
  const template = await api(base, 'POST', '/api/admin/v1/sla/templates', {
    type: 'Single',
    name: 'bench',
    period: 'PreviousMonth',
    ownerType: 'User',
    userId: 1,
    timeZone: 'Europe/Berlin',
    configItems: Array.from({ length: CI_COUNT }, (_, i) => ({ id: i + 1 })),
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

async function timeExport(base: string, id: string, query: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const answer = await fetch(`${base}/api/public/sm/v1/sla/ordered/${id}/export${query}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const bytes = (await answer.arrayBuffer()).byteLength;
  if (answer.status !== 200) throw new Error(`export ${query}: ${answer.status}`);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

const load = loadavg();
const dataDir = mkdtempSync(join(tmpdir(), 'ops-sla-bench-'));
const rows: string[][] = [];
let exportLines: string[];
try {
  let running = await start(dataDir, 1);
  const seeding = performance.now();
  const templateId = await seed(running.platform, running.base);
  console.log(`seeded ${CI_COUNT} CIs and ${CI_COUNT * PER_CI} problems in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const okSeconds = new Map<number, number>();
  let lastReport = '';
  for (const threads of [1, 2]) {
    if (threads !== 1) {
      await running.platform.stop('bench');
      running = await start(dataDir, threads);
    }
    const runs: number[] = [];
    phaseLog.length = 0;
    for (let i = 0; i < RUNS; i++) {
      const run = await timeToOk(running.base, templateId);
      runs.push(run.seconds);
      lastReport = run.id;
      console.log(`threads ${threads}, run ${i + 1}: ${run.seconds.toFixed(2)} s to Ok`);
    }
    okSeconds.set(threads, median(runs));
    const phase = (key: keyof Phases) => (median(phaseLog.map((p) => p[key])) / 1000).toFixed(2);
    rows.push([
      `time to Ok, ${threads} thread${threads > 1 ? 's' : ''}`,
      runs.map((s) => s.toFixed(2)).join(' / '),
      median(runs).toFixed(2),
      (okSeconds.get(1)! / median(runs)).toFixed(2),
      phase('problemsMs'),
      phase('mathsMs'),
      phase('storeMs'),
      `< ${TARGET_OK_S} s`,
    ]);
  }
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
  await running.platform.stop('bench');
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const table = [
  '| scenario | runs (s) | median s | speed-up over 1 thread | problems copied + read s | maths (threads) s | rows stored s | target |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
];
const text = [
  '# SLA report benchmark',
  '',
  `${CI_COUNT} CIs, ${CI_COUNT * PER_CI} problems, 30-day range, Single template with a Mon–Fri 09:00–18:00 Europe/Berlin calendar; embedded engines; POST ordered → GET until Ok, over HTTP.`,
  '',
  ...table,
  '',
  ...exportLines,
  '',
  '## Machine',
  '',
  ...machineDescription(load),
  '',
].join('\n');
writeFileSync(RESULT_FILE, text);
console.log(`\n${text}`);

/**
 * Issue #34: how long /healthz waits while each hostile input runs, against an idle baseline in
 * the same run. The platform runs all-in-one in a child process (`services/main.ts`, its
 * embedded engines in a temporary directory) started as `npm start` does; this process sends
 * each input and polls /healthz on a second connection (test/support/healthz-probe.ts), and
 * does nothing else meanwhile. Each scenario runs ROUNDS times, interleaved; the table shows,
 * per scenario, the p99 and the max of all its /healthz answers, and how long the input took.
 * Writes bench/results/event-loop.md.
 *
 *   node --import tsx bench/event-loop.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port.js';
import { percentile, whileProbed } from '../test/support/healthz-probe.js';
import { HostileInputs, type Installed, REDOS_RECORD } from '../test/support/hostile-inputs.js';
import { runEntry } from '../test/support/process.js';
import { machineDescription, writeResultFile } from './support/report.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const IDLE_MS = 1000;
const TOKEN = 'bench-admin-token-0123456789abcdef';

interface Scenario {
  name: string;
  what: string;
  run(h: HostileInputs, installed: Installed, round: number): Promise<unknown>;
}

const flood = HostileInputs.deleteFlood();
const cap = HostileInputs.deleteFlood(50_000);
const scenarios: Scenario[] = [
  { name: 'idle', what: `nothing: /healthz alone for ${IDLE_MS} ms`, run: () => new Promise((resolve) => setTimeout(resolve, IDLE_MS)) },
  {
    name: 'redos',
    what: '`(a+)+$` trigger; the record `{"msg":"a…a!"}` (30 a), then a matching one, until its problem is open',
    run: async (h, installed, round) => {
      await h.post(installed.streamKey, [REDOS_RECORD]);
      await h.post(installed.streamKey, [{ msg: 'aaaa', status: round % 2 === 0 ? 'down' : 'ok' }]);
      await h.untilState(installed.ciId, round % 2 === 0 ? 'Problem' : 'Ok');
    },
  },
  { name: 'bulk flood', what: '32 KB gzip `_bulk` of 1.19 M `{"delete":{}}` lines (answered 413)', run: (h, installed) => h.bulkText(installed.streamKey, flood, true) },
  { name: 'bulk cap', what: '`_bulk` of 50 000 deletes, the cap (answered 200, 4.5 MB)', run: (h, installed) => h.bulkText(installed.streamKey, cap, true) },
  { name: 'bulk deep', what: '`_bulk` with a document nested 5 000 deep (400 item)', run: (h, installed) => h.bulkText(installed.streamKey, HostileInputs.deepBulk(), false) },
  { name: 'calendar', what: 'a 40-year daily mode (refused 400), a daily mode saved, the feed fetched', run: (h, installed) => h.calendar(installed.ciId) },
  { name: 'sparse rule', what: '`FREQ=MONTHLY;INTERVAL=12;BYDAY=5SU;COUNT=5000` from 2032-02-29: preview and save', run: (h, installed) => h.sparse(installed.ciId) },
];

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-bench-event-loop-'));
  const port = await freePort();
  const service = runEntry('services/main.ts', { OPS_PORT: String(port), OPS_HOST: '127.0.0.1', OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'info' });
  const figures = new Map<string, { samples: number[]; tookMs: number[]; firstMax: number }>();
  try {
    await service.waitFor(/listening on port/, 60_000);
    const h = new HostileInputs(`http://127.0.0.1:${port}`, TOKEN);
    const installed = await h.install('bench');
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of scenarios) {
        const started = performance.now();
        const { healthz } = await whileProbed(h.base, () => scenario.run(h, installed, round));
        const entry = figures.get(scenario.name) ?? { samples: [], tookMs: [], firstMax: healthz.max };
        entry.samples.push(...healthz.samples);
        entry.tookMs.push(performance.now() - started);
        figures.set(scenario.name, entry);
        console.log(`round ${round + 1} ${scenario.name}: /healthz max ${healthz.max.toFixed(1)} ms over ${healthz.count} polls`);
      }
    }
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }

  const rows = scenarios.map((s) => {
    const f = figures.get(s.name)!;
    const sorted = [...f.samples].sort((a, b) => a - b);
    const took = [...f.tookMs].sort((a, b) => a - b);
    return `| ${s.name} | ${s.what} | ${sorted.length} | ${percentile(sorted, 0.5).toFixed(1)} | ${percentile(sorted, 0.99).toFixed(1)} | ${sorted[sorted.length - 1]!.toFixed(1)} | ${f.firstMax.toFixed(1)} | ${percentile(took, 0.5).toFixed(0)} |`;
  });
  const text = [
    '# Event loop under hostile inputs (issue #34)',
    '',
    '`node --import tsx bench/event-loop.bench.ts` — the platform all-in-one in a child process; /healthz polled every 5 ms on a second connection while each input runs;',
    `${ROUNDS} rounds, scenarios interleaved. Latencies in ms, over every /healthz answer of the scenario; "first max" is the first round's (a cold process: code not yet optimised by the JIT).`,
    'Budget: 50 ms of event-loop work for one request or one record; the integration test asserts /healthz within 1 s over an idle second measured first.',
    '',
    '| scenario | input | polls | p50 | p99 | max | first max | input took (median) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    'Machine:',
    '',
    ...machineDescription(loadAtStart),
    '',
  ].join('\n');
  writeResultFile(new URL('./results/event-loop.md', import.meta.url), text);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * Interval-question benchmark of the maintenance issue. Run with:
 *
 *   node --import tsx bench/maintenance-intervals.bench.ts
 *
 * "The interval question for one CI over a 30-day range with 10 000 modes in the model answers
 * in under 1 ms." The model holds 20 000 CIs in a forest of 5-ary trees (depth up to 5) and
 * 10 000 modes spread over a year (1–3 scope entries each, a third `CiAndChildren` with depths
 * -1, 1 or 2, some canceled, some completed early, some entries ended early), 30 % of them
 * recurring (issue #17: daily, weekly or monthly rules in Europe/Berlin, America/New_York,
 * Australia/Sydney or UTC, endless or with a COUNT, windows of 1–4 h). Each call asks
 * `maintenanceIntervals` for a CI over 30 days; the baseline, measured in the same run, answers
 * the same question by scanning every mode. Scenarios: random leaf CIs, and leaves of a "busy"
 * subtree whose root carries 500 extra modes. Figures are per call after a warm-up. Prints a
 * table and writes it, with the machine, to bench/results/maintenance-intervals.md. A benchmark
 * asserts nothing: it reports whether the target holds.
 */
import { loadavg } from 'node:os';
import { compileRecurrence } from '../pipelines/maintenance/recurrence.js';
import type { MaintenanceRecord, RecurrenceRecord, ScopeEntryRecord } from '../services/control-plane/maintenance/maintenance.types.js';
import { type Interval, maintenanceIntervals, mergeIntervals, recurringOf } from '../services/control-plane/maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../services/control-plane/model.js';
import { seededRandom as random } from '../test/support/random.js';
import { buildModel, H, T0 } from '../test/support/model-fixture.js';
import { machineDescription, writeResultFile } from './support/report.js';

const CI_COUNT = 20_000;
const ROOTS = 20;
const MODE_COUNT = 10_000;
const BUSY_MODES = 500;
const DAY = 24 * H;
const RANGE = 30 * DAY;
const WARMUP = 2_000;
const CALLS = 10_000;
const BASELINE_CALLS = 1_000;
const TARGET_MS = 1;
const RECURRING_SHARE = 0.3;
const RULES = ['FREQ=DAILY', 'FREQ=WEEKLY;BYDAY=SU', 'FREQ=WEEKLY;BYDAY=MO,WE,FR', 'FREQ=MONTHLY;BYDAY=-1FR', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=SA', 'FREQ=DAILY;COUNT=20'];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'UTC'];
const RESULT_FILE = new URL('./results/maintenance-intervals.md', import.meta.url);

const rnd = random(20261121);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;

// CIs 1..ROOTS are roots; every later CI hangs under the earliest CI with room: 5-ary trees, depth up to 5.
const parents = new Map<number, number | null>();
for (let id = 1; id <= CI_COUNT; id++) parents.set(id, id <= ROOTS ? null : Math.floor((id - ROOTS - 1) / 5) + 1);
const leaves = [...parents.keys()].filter((id) => id * 5 + ROOTS + 1 > CI_COUNT + 5);
const busyRoot = 1;
const isUnder = (id: number, root: number): boolean => {
  for (let at: number | null = id; at !== null; at = parents.get(at) ?? null) if (at === root) return true;
  return false;
};
const busyLeaves = leaves.filter((id) => isUnder(id, busyRoot));

function mode(id: number, ciIds: number[], ciAndChildren: boolean): MaintenanceRecord {
  const start = T0 + Math.floor(rnd() * 365 * DAY);
  const recurring = rnd() < RECURRING_SHARE;
  let end = start + Math.floor(recurring ? H + rnd() * 3 * H : H + rnd() * 3 * DAY);
  let recurrence: RecurrenceRecord | undefined;
  if (recurring) {
    const rule = { rule: pick(RULES), timeZone: pick(ZONES), exdates: [] };
    recurrence = { ...rule, seriesEnd: compileRecurrence(rule, start, end).lastEnd };
  }
  const roll = rnd();
  const canceledAt = roll < 0.05 ? start - H : null;
  const completedAt = roll > 0.95 ? start + Math.floor((end - start) / 2) : null;
  if (completedAt !== null && recurrence) recurrence.seriesEnd = start + 40 * DAY;
  else if (completedAt !== null) end = completedAt;
  const last = recurrence?.seriesEnd ?? end;
  const entries: ScopeEntryRecord[] = ciIds.map((ciId) => ({
    ciId,
    scope: ciAndChildren ? 'CiAndChildren' : 'Ci',
    depth: ciAndChildren ? pick([-1, 1, 2]) : -1,
    start,
    end: rnd() < 0.1 ? start + Math.floor((Math.min(last, start + 90 * DAY) - start) / 3) : last,
  }));
  return {
    id,
    title: `mode ${id}`,
    start,
    end,
    ...(recurrence ? { recurrence } : {}),
    entries,
    labels: {},
    canceledAt,
    completedAt,
    createdAt: '',
    createdBy: 1,
    updatedAt: '',
    updatedBy: 1,
  };
}

const modes: MaintenanceRecord[] = [];
for (let id = 1; id <= MODE_COUNT; id++) {
  const ciIds = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => 1 + Math.floor(rnd() * CI_COUNT)))];
  modes.push(mode(id, ciIds, rnd() < 1 / 3));
}
for (let id = MODE_COUNT + 1; id <= MODE_COUNT + BUSY_MODES; id++) {
  const m = mode(id, [busyRoot], true);
  for (const e of m.entries) e.depth = -1;
  modes.push(m);
}
const model = buildModel(parents, modes);
const from = T0 + 150 * DAY;
const to = from + RANGE;

/**
 * The question answered without the index: every mode, every entry, ancestor distances per call
 * (a recurring mode's occurrences from the same compiled rule the index uses).
 */
function naiveIntervals(m: PlatformModel, ciId: number, lo: number, hi: number): Interval[] {
  const distance = new Map<number, number>([[ciId, 0]]);
  let d = 0;
  for (const ancestor of m.slices.cmdb.ancestors(ciId)) distance.set(ancestor, ++d);
  const raw: Interval[] = [];
  for (const record of m.slices.maintenance.modes.values()) {
    if (record.canceledAt !== null) continue;
    for (const entry of record.entries) {
      const dist = distance.get(entry.ciId);
      if (dist === undefined) continue;
      if (dist > 0 && !(entry.scope === 'CiAndChildren' && (entry.depth === -1 || entry.depth >= dist))) continue;
      const start = Math.max(entry.start, lo);
      const end = Math.min(entry.end, hi);
      if (start >= end) continue;
      const recurring = recurringOf(record);
      if (!recurring) raw.push({ start, end });
      else
        for (const o of recurring.occurrences(start, end))
          if (Math.max(o.start, start) < Math.min(o.end, end)) raw.push({ start: Math.max(o.start, start), end: Math.min(o.end, end) });
    }
  }
  return mergeIntervals(raw);
}

interface Row {
  scenario: string;
  calls: number;
  medianUs: number;
  p99Us: number;
  meanUs: number;
  intervals: number;
}

function measure(scenario: string, ciIds: readonly number[], calls: number, ask: (ciId: number) => Interval[]): Row {
  for (let i = 0; i < WARMUP; i++) ask(ciIds[i % ciIds.length]!);
  const times = new Float64Array(calls);
  let intervals = 0;
  for (let i = 0; i < calls; i++) {
    const ciId = ciIds[i % ciIds.length]!;
    const t0 = process.hrtime.bigint();
    const out = ask(ciId);
    times[i] = Number(process.hrtime.bigint() - t0) / 1000;
    intervals += out.length;
  }
  times.sort();
  const total = times.reduce((s, x) => s + x, 0);
  return { scenario, calls, medianUs: times[Math.floor(calls / 2)]!, p99Us: times[Math.floor(calls * 0.99)]!, meanUs: total / calls, intervals: intervals / calls };
}

const loadAtStart = loadavg();
const randomLeaves = Array.from({ length: 1_000 }, () => pick(leaves));
const busy = Array.from({ length: 1_000 }, () => pick(busyLeaves));
const indexed = (ciId: number) => maintenanceIntervals(model, ciId, from, to);
const naive = (ciId: number) => naiveIntervals(model, ciId, from, to);

const same = [...randomLeaves.slice(0, 200), ...busy.slice(0, 200)].every((id) => JSON.stringify(indexed(id)) === JSON.stringify(naive(id)));
const rows = [
  measure('baseline: scan all modes, random leaf CI', randomLeaves, BASELINE_CALLS, naive),
  measure('baseline: scan all modes, busy-subtree leaf', busy, BASELINE_CALLS, naive),
  measure('index: random leaf CI', randomLeaves, CALLS, indexed),
  measure('index: busy-subtree leaf (500 modes on its root)', busy, CALLS, indexed),
];

const header = ['scenario', 'calls', 'median µs', 'p99 µs', 'mean µs', 'intervals/answer', 'speed-up (median)', `p99 < ${TARGET_MS} ms`];
const baselineFor = (r: Row) => rows[r.scenario.includes('busy') ? 1 : 0]!.medianUs;
const body = rows.map((r) => [
  r.scenario,
  String(r.calls),
  r.medianUs.toFixed(1),
  r.p99Us.toFixed(1),
  r.meanUs.toFixed(1),
  r.intervals.toFixed(2),
  `${(baselineFor(r) / r.medianUs).toFixed(1)}×`,
  r.p99Us < TARGET_MS * 1000 ? 'yes' : 'no',
]);
const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
const rule = `|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`;
const table = [line(header), rule, ...body.map(line)].join('\n');
const index = rows.slice(2);
const verdict = index.every((r) => r.p99Us < TARGET_MS * 1000) ? 'holds' : 'does NOT hold';

process.stdout.write(`${table}\n\nanswers of index and baseline agree: ${same ? 'yes' : 'NO'}; target (< ${TARGET_MS} ms per call, p99) ${verdict}\n`);
writeResultFile(
  RESULT_FILE,
  [
    '# Maintenance intervals: one CI over 30 days, 10 000 modes, 30 % of them recurring',
    '',
    'Run: `node --import tsx bench/maintenance-intervals.bench.ts`',
    '',
    `Model: ${CI_COUNT.toLocaleString('en-US')} CIs in ${ROOTS} 5-ary trees; ${MODE_COUNT.toLocaleString('en-US')} modes over a year (1–3 entries, a third CiAndChildren with depth -1/1/2, 5 % canceled, 5 % completed early, 10 % of entries ended early; ${RECURRING_SHARE * 100} % recurring: ${RULES.join(', ')} in ${ZONES.join(', ')}, windows of 1–4 h) plus ${BUSY_MODES} CiAndChildren modes on one root. `,
    `Each call: \`maintenanceIntervals(model, ciId, from, from + 30 days)\`; ${WARMUP} warm-up calls, then per-call times over ${CALLS.toLocaleString('en-US')} calls (baseline ${BASELINE_CALLS.toLocaleString('en-US')}) cycling over 1 000 CIs. `,
    'Baseline (same run): scan every mode and entry against the CI and its ancestors.',
    '',
    table,
    '',
    `Answers of index and baseline agree: ${same ? 'yes' : 'no'}. Target (< ${TARGET_MS} ms per call, p99): ${verdict}.`,
    '',
    '## Machine',
    '',
    ...machineDescription(loadAtStart),
    '',
  ].join('\n'),
);

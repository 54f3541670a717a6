/**
 * The figures of one run of the notifications benchmark, from what its processes reported, and
 * the Markdown of the result. Pure: no process, no clock.
 *
 * A transition's instant is when its record was acknowledged (the generator's 2xx). From there:
 * - landed: its problem change on the change feed (the observer's SSE frame);
 * - received: its event in a request the webhook receiver got, per policy (each policy has its
 *   own receiver), first arrival.
 * Percentiles are over the expected pairs, those that never came counted as infinitely late: a
 * p99 is finite only when at least 99 % arrived.
 */
import type { LoadReport } from './notify-load.js';
import { keyOf, type PlanSpec, transitionAt } from './notify-plan.js';
import type { ReceiverReport } from './notify-receiver.js';
import { median } from './report.js';

export type Mode = 'policies' | 'baseline';

export interface CpuShares {
  seconds: number;
  shares: Record<string, number>;
  machineBusy: number;
}

/** A sample taken every few seconds from the load's start to the run's end. */
export interface TimelinePoint {
  /** Since the load's start. */
  seconds: number;
  /** Measured transitions on the feed, pairs received so far. */
  landed: number;
  delivered: number;
  /** Messages waiting on the bus, by stream. */
  pending: Record<string, number>;
}

export interface RunInput {
  round: number;
  mode: Mode;
  plan: PlanSpec;
  rate: number;
  policies: number;
  load: LoadReport;
  /** Epoch ms when the generator's report came (every request answered). */
  loadEndAt: number;
  receiver: ReceiverReport;
  /** Whether the run ended with everything expected in, rather than on a quiet spell or the time cap. */
  complete: boolean;
  cpuLoad: CpuShares;
  cpuDrain: CpuShares;
  /** The machine's cores, for the CPU the benchmark's own processes did not use. */
  cores: number;
  /** Deltas of platform metrics over the measured run. */
  metrics: Record<string, number>;
  /** The platform's CPU seconds by thread name over the measured run (load and drain). */
  threadCpu: Record<string, number>;
  /** The most messages waiting on the bus at once, by stream. */
  pendingMax: Record<string, number>;
  timeline: TimelinePoint[];
}

export interface RunFigures {
  round: number;
  mode: Mode;
  complete: boolean;
  offered: number;
  offeredRate: number;
  acknowledged: number;
  notAcknowledged: number;
  /** Generator: requests per second sent, the latest departure behind schedule, its answers' times. */
  sendRate: number;
  maxBehindMs: number;
  ackP50Ms: number;
  ackP99Ms: number;
  maxInFlight: number;
  /** Records acknowledged per second: from slot 0's instant to the last acknowledgement. */
  acknowledgedRate: number;
  landed: number;
  /** Resolves that reached the feed only folded into their opened change (notify-receiver.ts). */
  folded: number;
  /** Webhook problem.opened events of an already closed problem. */
  openedClosed: number;
  /** Ingest rate: transitions on the change feed per second, from slot 0's instant to the last landing. */
  landedRate: number;
  landP50Ms: number;
  landP99Ms: number;
  /** Seconds from the generator's last answer to the last landing. */
  lastLandedAfterLoad: number;
  expected: number;
  delivered: number;
  receiptP50Ms: number;
  receiptP99Ms: number;
  receiptMaxMs: number;
  /** The p99 over the pairs that arrived only (the p99 above counts a missing pair as infinitely late). */
  receiptP99ArrivedMs: number;
  /** From the change on the feed to its receipt (the notification path alone). */
  feedP50Ms: number;
  feedP99Ms: number;
  /** Distinct pairs received per second, first to last receipt. */
  deliveriesPerSec: number;
  lastReceiptAfterLoad: number;
  requests: number;
  /** TCP connections the platform opened to the receivers, the warm-up's included. */
  connections: number;
  batches: number;
  duplicateWebhookIds: number;
  duplicatePairs: number;
  badSignatures: number;
  unreadable: number;
  streamTrouble: number;
  cpuLoad: CpuShares;
  cpuDrain: CpuShares;
  /** CPU (1 = one core) used during the load by processes other than the platform, generator and receiver. */
  othersLoad: number;
  metrics: Record<string, number>;
  threadCpu: Record<string, number>;
  pendingMax: Record<string, number>;
  timeline: TimelinePoint[];
}

/** The p-th percentile of `values` among `total` expected samples, the missing ones counted as +∞. */
export function percentileOf(values: number[], total: number, p: number): number {
  if (total === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  return rank <= sorted.length ? sorted[rank - 1]! : Number.POSITIVE_INFINITY;
}

export function figuresOf(input: RunInput): RunFigures {
  const { load, receiver, plan } = input;
  const n = load.offered;
  const landLatency: number[] = [];
  const receipt: number[] = [];
  const feed: number[] = [];
  let acknowledged = 0;
  let lastAck = 0;
  let lastLanded = 0;
  let firstReceipt = Number.POSITIVE_INFINITY;
  let lastReceipt = 0;
  for (let slot = 0; slot < n; slot++) {
    const accepted = load.acceptedAt[slot];
    if (accepted === null || accepted === undefined) continue;
    acknowledged++;
    lastAck = Math.max(lastAck, accepted);
    const t = transitionAt(plan, slot);
    const key = keyOf(t.ci, t.check, t.kind);
    const landed = receiver.landedAt[key];
    if (landed !== undefined) {
      landLatency.push(landed - accepted);
      lastLanded = Math.max(lastLanded, landed);
    }
    for (const byKey of receiver.deliveredAt) {
      const at = byKey[key];
      if (at === undefined) continue;
      receipt.push(at - accepted);
      if (landed !== undefined) feed.push(at - landed);
      firstReceipt = Math.min(firstReceipt, at);
      lastReceipt = Math.max(lastReceipt, at);
    }
  }
  const expected = input.mode === 'policies' ? input.policies * acknowledged : 0;
  return {
    round: input.round,
    mode: input.mode,
    complete: input.complete,
    offered: n,
    offeredRate: input.rate,
    acknowledged,
    notAcknowledged: n - acknowledged,
    sendRate: load.sendRate,
    maxBehindMs: load.maxBehindMs,
    ackP50Ms: load.ackP50Ms,
    ackP99Ms: load.ackP99Ms,
    maxInFlight: load.maxInFlight,
    acknowledgedRate: acknowledged / ((lastAck - load.startedAt) / 1000),
    landed: landLatency.length,
    folded: receiver.folded.main,
    openedClosed: receiver.openedClosed,
    landedRate: landLatency.length / ((lastLanded - load.startedAt) / 1000),
    landP50Ms: percentileOf(landLatency, acknowledged, 50),
    landP99Ms: percentileOf(landLatency, acknowledged, 99),
    lastLandedAfterLoad: (lastLanded - input.loadEndAt) / 1000,
    expected,
    delivered: receipt.length,
    receiptP50Ms: percentileOf(receipt, expected, 50),
    receiptP99Ms: percentileOf(receipt, expected, 99),
    receiptMaxMs: receipt.length === expected ? percentileOf(receipt, expected, 100) : Number.POSITIVE_INFINITY,
    receiptP99ArrivedMs: percentileOf(receipt, receipt.length, 99),
    feedP50Ms: percentileOf(feed, expected, 50),
    feedP99Ms: percentileOf(feed, expected, 99),
    deliveriesPerSec: receipt.length > 1 ? receipt.length / ((lastReceipt - firstReceipt) / 1000) : Number.NaN,
    lastReceiptAfterLoad: receipt.length > 0 ? (lastReceipt - input.loadEndAt) / 1000 : Number.NaN,
    requests: receiver.requests,
    connections: receiver.connections,
    batches: receiver.batches,
    duplicateWebhookIds: receiver.duplicateWebhookIds,
    duplicatePairs: receiver.duplicatePairs,
    badSignatures: receiver.badSignatures,
    unreadable: receiver.unreadable,
    streamTrouble: receiver.streamTrouble,
    cpuLoad: input.cpuLoad,
    cpuDrain: input.cpuDrain,
    // Clamped: the two readings are not taken at the same instant, so an idle machine may come out a hair below 0.
    othersLoad: Math.max(0, input.cpuLoad.machineBusy * input.cores - Object.values(input.cpuLoad.shares).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0)),
    metrics: input.metrics,
    threadCpu: input.threadCpu,
    pendingMax: input.pendingMax,
    timeline: input.timeline,
  };
}

// ------------------------------------------------------------------------------------ Markdown

const int = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : x === Number.POSITIVE_INFINITY ? '∞' : '–');
const ms = (x: number): string => (x === Number.POSITIVE_INFINITY ? '∞ (not all arrived)' : Number.isFinite(x) ? int(x) : '–');
const sec = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '–');
const pct = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(0)} %` : '–');
const share = (c: CpuShares, name: string): string => pct(c.shares[name] ?? Number.NaN);
const med = (runs: RunFigures[], f: (r: RunFigures) => number): number => median(runs.map(f));

export interface ReportContext {
  transitions: number;
  seconds: number;
  cis: number;
  triggers: number;
  policies: string[];
  warmTransitions: number;
  quietSeconds: number;
  sampleSeconds: number;
  maxDrainSeconds: number;
  dataRoot: string;
  fileSystem: string;
  machine: string[];
  profile?: string[];
  notes: string[];
}

export function markdown(runs: RunFigures[], ctx: ReportContext): string {
  const withP = runs.filter((r) => r.mode === 'policies');
  const base = runs.filter((r) => r.mode === 'baseline');
  const both = (label: string, f: (r: RunFigures) => number, show: (x: number) => string, target = ''): string =>
    `| ${label} | ${show(med(withP, f))} | ${show(med(base, f))} | ${target} |`;
  const landedRatio = med(withP, (r) => r.landedRate) / med(base, (r) => r.landedRate);
  const ackRatio = med(withP, (r) => r.acknowledgedRate) / med(base, (r) => r.acknowledgedRate);
  const p99 = med(withP, (r) => r.receiptP99Ms);
  const deliveredShare = med(withP, (r) => r.delivered / r.expected);
  const table = [
    '| figure (median of the runs) | 3 policies | no policy (baseline) | target / ratio |',
    '|---|--:|--:|---|',
    both(
      'records acknowledged / offered',
      (r) => r.acknowledged,
      (x) => `${int(x)} / ${int(ctx.transitions)}`,
    ),
    both(
      'generator: requests sent/s (offered)',
      (r) => r.sendRate,
      (x) => `${int(x)} (${int(ctx.transitions / ctx.seconds)})`,
    ),
    both(
      'generator: latest departure behind schedule, ms',
      (r) => r.maxBehindMs,
      (x) => x.toFixed(1),
    ),
    `| record → 2xx p50 / p99, ms | ${ackPair(withP)} | ${ackPair(base)} | |`,
    both('records acknowledged/s', (r) => r.acknowledgedRate, int, `ratio ${ackRatio.toFixed(3)}`),
    both('transitions on the change feed', (r) => r.landed, int),
    both('of which resolves folded into their `opened` change on the feed (no `resolved` change)', (r) => r.folded, int),
    both('**ingest rate: transitions on the feed/s**', (r) => r.landedRate, int, `**ratio ${landedRatio.toFixed(3)}** (target ≥ 0.9)`),
    both('transition (2xx) → on the feed p50, ms', (r) => r.landP50Ms, ms),
    both('transition (2xx) → on the feed p99, ms', (r) => r.landP99Ms, ms),
    `| **delivered / expected** ((policy, event) pairs) | ${int(med(withP, (r) => r.delivered))} / ${int(med(withP, (r) => r.expected))} (${(100 * deliveredShare).toFixed(1)} %) | – | all |`,
    `| **transition → receipt p50, ms** | ${ms(med(withP, (r) => r.receiptP50Ms))} | – | |`,
    `| **transition → receipt p99, ms** | ${ms(p99)} | – | **< 2 000** |`,
    `| transition → receipt max, ms | ${ms(med(withP, (r) => r.receiptMaxMs))} | – | |`,
    `| transition → receipt p99 of the pairs that arrived, ms | ${ms(med(withP, (r) => r.receiptP99ArrivedMs))} | – | |`,
    `| on the feed → receipt p50 / p99, ms | ${ms(med(withP, (r) => r.feedP50Ms))} / ${ms(med(withP, (r) => r.feedP99Ms))} | – | |`,
    `| pairs received/s (first to last receipt) | ${int(med(withP, (r) => r.deliveriesPerSec))} | – | offered ${int((ctx.policies.length * ctx.transitions) / ctx.seconds)} |`,
    `| webhook requests / TCP connections the platform opened (warm-up included) | ${int(med(withP, (r) => r.requests))} / ${int(med(withP, (r) => r.connections))} | – | |`,
    `| last receipt after the load's last answer, s | ${sec(med(withP, (r) => r.lastReceiptAfterLoad))} | – | |`,
    `| duplicate webhook-ids / duplicate pairs / bad signatures (all runs) | ${sum(withP, (r) => r.duplicateWebhookIds)} / ${sum(withP, (r) => r.duplicatePairs)} / ${sum(withP, (r) => r.badSignatures)} | – | 0 |`,
    `| problem.opened events of an already closed problem (all runs) | ${sum(withP, (r) => r.openedClosed)} | – | 0 |`,
    `| CPU during the load: platform / generator / receiver+observer (1 core = 100 %) | ${cpuTriple(withP)} | ${cpuTriple(base)} | |`,
    `| CPU after the load until the end: platform / receiver+observer | ${cpuPair(withP)} | ${cpuPair(base)} | |`,
    both("CPU of the machine's other processes during the load (not this benchmark's)", (r) => r.othersLoad, pct),
  ];

  const perRun = [
    '| round | run | complete | acknowledged | sent/s | behind ms | records acked/s | on feed (folded) | feed/s | →feed p50 / p99 ms | delivered / expected | →receipt p50 / p99 / max ms | feed→receipt p99 ms | pairs/s | last receipt after load s | requests / TCP connections (batches), warm-up included | dup ids / pairs / bad sig | CPU load: platform / gen / recv / other processes | machine busy (load) |',
    '|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...runs.map(
      (r) =>
        `| ${r.round} | ${r.mode} | ${r.complete ? 'yes' : 'NO'} | ${r.acknowledged} | ${int(r.sendRate)} | ${r.maxBehindMs.toFixed(1)} | ${int(r.acknowledgedRate)} | ${r.landed} (${r.folded}) | ${int(r.landedRate)} | ${ms(r.landP50Ms)} / ${ms(r.landP99Ms)} | ${
          r.mode === 'policies' ? `${r.delivered} / ${r.expected}` : '–'
        } | ${r.mode === 'policies' ? `${ms(r.receiptP50Ms)} / ${ms(r.receiptP99Ms)} / ${ms(r.receiptMaxMs)}` : '–'} | ${r.mode === 'policies' ? ms(r.feedP99Ms) : '–'} | ${
          r.mode === 'policies' ? int(r.deliveriesPerSec) : '–'
        } | ${r.mode === 'policies' ? sec(r.lastReceiptAfterLoad) : '–'} | ${r.requests} / ${r.connections} (${r.batches}) | ${r.duplicateWebhookIds} / ${r.duplicatePairs} / ${r.badSignatures} | ${share(r.cpuLoad, 'platform')} / ${share(
          r.cpuLoad,
          'generator',
        )} / ${share(r.cpuLoad, 'receiver')} / ${pct(r.othersLoad)} | ${pct(r.cpuLoad.machineBusy)} |`,
    ),
  ];
  const metricNames = [...new Set(runs.flatMap((r) => Object.keys(r.metrics)))].sort();
  const metrics = [
    `| platform metric (growth over the measured run) | ${runs.map((r) => `${r.round} ${r.mode}`).join(' | ')} |`,
    `|---|${runs.map(() => '--:').join('|')}|`,
    ...metricNames.map((name) => `| \`${name}\` | ${runs.map((r) => fmtMetric(r.metrics[name])).join(' | ')} |`),
  ];
  const firstOf = (mode: Mode): RunFigures | undefined => runs.find((r) => r.mode === mode);
  const timelines = (['policies', 'baseline'] as const).flatMap((mode) => {
    const run = firstOf(mode);
    return run ? [`### ${mode}, round ${run.round}`, '', ...timelineTable(run), ''] : [];
  });
  const pendingStreams = [...new Set(runs.flatMap((r) => Object.keys(r.pendingMax)))].sort();
  return [
    '# Notifications benchmark (issue #31)',
    '',
    `${int(ctx.transitions)} problem transitions offered evenly over ${ctx.seconds} s (${int(ctx.transitions / ctx.seconds)}/s) on ${int(ctx.cis)} CIs × ${ctx.triggers} trigger${ctx.triggers === 1 ? '' : 's'}: ` +
      `each (trigger, CI) key opens once and resolves once, ${ctx.cis / (ctx.transitions / ctx.seconds)} s later; every record is a transition, sent as a single-record JSON POST at its scheduled instant (an open loop). ` +
      `With policies: ${ctx.policies.length} policies, each to its own webhook receiver (a local node:http server, every signature verified with \`standardwebhooks\`), every transition expected once per policy. ` +
      'Baseline: the same transitions on the same platform with no receiver and no policy (the dispatcher runs, with nothing to route to). ' +
      `Each run on a fresh platform; rounds interleave the two (policies first in odd rounds); before each measured run, ${int(ctx.warmTransitions)} warm-up transitions of a trigger of their own, at the same rate, not counted, drained first.`,
    '',
    table.join('\n'),
    '',
    '## Targets',
    `- transition → receipt p99 < 2 s: ${ms(p99)} ms (${Number.isFinite(p99) && p99 < 2000 ? 'met' : 'not met'})`,
    `- delivered / expected: ${(100 * deliveredShare).toFixed(1)} % (median of the runs)`,
    `- ingest rate with policies / without ≥ 0.9 (transitions on the change feed per second): ${landedRatio.toFixed(3)} (${landedRatio >= 0.9 ? 'met' : 'not met'})`,
    '',
    '## Definitions',
    '- **transition instant**: when the record causing it was acknowledged (the 2xx of its POST: the record is on the bus), at the generator.',
    '- **on the feed**: when the problem change (`opened` / `resolved`) reached a subscriber of `GET /api/public/sm/v1/problems/stream` (the observer, in the receiver process): the change feed the dispatcher reads too.',
    '- **receipt**: when the webhook receiver had read the whole request holding that problem event (CloudEvent `data.kind` and `data.problem`), first arrival per (policy, event); each policy has its own receiver URL.',
    "- **folded**: a key whose opening and resolving hits the problem stage placed in one step gives one `opened` change already carrying its dateEnd and no `resolved` change (`keyChanges`, pipelines/problems/problem-changes.ts); the observer counts that frame as both transitions on the feed. The dispatcher still tells both events (`problemEventsOf`, pipelines/notifications/problem-events.ts); one that did not would show as missing resolves and as `problem.opened` events of an already closed problem. It happens when the problem stage lags by about the 1 s between a key's open and resolve.",
    '- **delivered / expected**: distinct (policy, transition) pairs received against policies × records acknowledged. Percentiles are over the expected pairs, a missing one counting as infinitely late.',
    `- **ingest rate**: transitions whose change reached the feed, over the time from the first record's scheduled instant to the last landing; records acknowledged/s likewise to the last 2xx. With an open loop at a fixed offered rate, both are at most the offered ${int(
      ctx.transitions / ctx.seconds,
    )}/s and fall when the pipeline lags at the end.`,
    `- a run ends when everything expected arrived, or after ${ctx.quietSeconds} s without any progress, or ${ctx.maxDrainSeconds} s after the load (\`complete\` says which).`,
    '',
    '## Configuration',
    ...ctx.policies.map((p) => `- ${p}`),
    ...ctx.notes.map((n) => `- ${n}`),
    '',
    '## Each run',
    perRun.join('\n'),
    '',
    '## Platform metrics',
    metrics.join('\n'),
    '',
    '## Where the time goes',
    '',
    `The most messages waiting on the bus at once during each run (\`ops_bus_pending_messages\`, sampled every ${ctx.sampleSeconds} s):`,
    '',
    `| round | run | ${pendingStreams.join(' | ')} |`,
    `|--:|---|${pendingStreams.map(() => '--:').join('|')}|`,
    ...runs.map((r) => `| ${r.round} | ${r.mode} | ${pendingStreams.map((s) => int(r.pendingMax[s] ?? 0)).join(' | ')} |`),
    '',
    "The platform process's CPU by thread over the measured run, from the load's start to the run's end (/proc/<pid>/task; `node` is the main thread, where every part's JavaScript runs; chDB's threads carry ClickHouse's names), medians:",
    '',
    ...threadTable(withP, base),
    '',
    `Progress of the first run of each kind, sampled every ${ctx.sampleSeconds} s:`,
    '',
    ...timelines,
    ...(ctx.profile
      ? ["## The platform's main thread under the profiler (BENCH_PROFILE=1: extra runs after the measured ones, not in the figures above)", '', ...ctx.profile, '']
      : []),
    '## Machine',
    ...ctx.machine,
    `- platform data directory under ${ctx.dataRoot} (${ctx.fileSystem})`,
    '',
  ].join('\n');
}

const sum = (runs: RunFigures[], f: (r: RunFigures) => number): number => runs.reduce((n, r) => n + f(r), 0);
const ackPair = (runs: RunFigures[]): string => `${med(runs, (r) => r.ackP50Ms).toFixed(1)} / ${med(runs, (r) => r.ackP99Ms).toFixed(1)}`;

/** The platform's CPU seconds by thread name, medians per kind of run, the busiest first. */
function threadTable(withP: RunFigures[], base: RunFigures[]): string[] {
  const names = [...new Set([...withP, ...base].flatMap((r) => Object.keys(r.threadCpu)))];
  const of = (runs: RunFigures[], name: string): number => med(runs, (r) => r.threadCpu[name] ?? 0);
  const rows = names.map((name) => ({ name, p: of(withP, name), b: of(base, name) })).sort((x, y) => y.p + y.b - (x.p + x.b));
  const total = (runs: RunFigures[]): number => med(runs, (r) => Object.values(r.threadCpu).reduce((a, b) => a + b, 0));
  const wall = (runs: RunFigures[]): number => med(runs, (r) => r.cpuLoad.seconds + r.cpuDrain.seconds);
  return [
    '| platform thread (by name) | CPU s, 3 policies | CPU s, baseline |',
    '|---|--:|--:|',
    `| **all threads** (over a run of ${sec(wall(withP))} s / ${sec(wall(base))} s) | **${total(withP).toFixed(1)}** | **${total(base).toFixed(1)}** |`,
    ...rows.filter((r) => r.p + r.b >= 0.05).map((r) => `| \`${r.name}\` | ${r.p.toFixed(1)} | ${r.b.toFixed(1)} |`),
  ];
}

/** The first run's samples: every 2 s over the first 20 s, then every 10 s. */
function timelineTable(run: RunFigures): string[] {
  const streams = [...new Set(run.timeline.flatMap((p) => Object.keys(p.pending)))].sort();
  const step = (seconds: number): number => Math.floor(seconds / (seconds < 20 ? 2 : 10)) + (seconds < 20 ? 0 : 1000);
  const shown = run.timeline.filter((p, i, all) => i === 0 || i === all.length - 1 || step(p.seconds) !== step(all[i - 1]!.seconds));
  return [
    `| s since the load began | on the feed | pairs received | ${streams.map((s) => `pending ${s}`).join(' | ')} |`,
    `|--:|--:|--:|${streams.map(() => '--:').join('|')}|`,
    ...shown.map((p) => `| ${p.seconds.toFixed(1)} | ${p.landed} | ${p.delivered} | ${streams.map((s) => int(p.pending[s] ?? 0)).join(' | ')} |`),
  ];
}
const fmtMetric = (x: number | undefined): string => (x === undefined ? '' : Number.isInteger(x) ? int(x) : x.toFixed(3));
const cpuTriple = (runs: RunFigures[]): string => ['platform', 'generator', 'receiver'].map((name) => pct(med(runs, (r) => r.cpuLoad.shares[name] ?? Number.NaN))).join(' / ');
const cpuPair = (runs: RunFigures[]): string => ['platform', 'receiver'].map((name) => pct(med(runs, (r) => r.cpuDrain.shares[name] ?? Number.NaN))).join(' / ');

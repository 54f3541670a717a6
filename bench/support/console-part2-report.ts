/**
 * The part-2 section of bench/results/console.md (issue #33): the targets met or not, each run
 * (the warm-up apart), and where the time goes, from the pages' Resource Timing and a JSON.parse
 * of the same answer timed in the page.
 */
import type { Part2Result } from './console-part2.js';
import type { MonthRun, Part2Run, SlaRun } from './console-part2-runs.js';
import { AHEAD_DAYS, MODE_COUNT, RECURRING_SHARE, ZONES } from './console-part2-dataset.js';
import { machineDescription, median } from './report.js';

export const PART2_HEADING = '# Part 2: maintenance calendar and SLA report (issue #33)';
const TARGETS = { monthMs: 500, slaMs: 1000 };

const ms = (n: number | undefined): string => (n !== undefined && Number.isFinite(n) ? n.toFixed(0) : '–');
const kb = (bytes: number): string => (bytes / 1000).toFixed(1);
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
const count = (n: number): string => n.toLocaleString('en-US');
const windowsOf = (status: string): string => /^[\d,]+/.exec(status)?.[0] ?? '0';

function monthRow(name: string, m: MonthRun, e: MonthRun): string {
  const [first, second] = m.requests;
  return `| ${name} | ${ms(m.open.paintedMs)} | ${ms(m.open.seenMs)} | ${windowsOf(m.open.status)} / ${m.open.entries} | ${ms(m.next.paintedMs)} | ${windowsOf(m.next.status)} / ${m.next.entries} | ${ms(m.apiMs)} | ${count(m.apiModes)} / ${count(m.apiWindows)} | ${kb(m.apiBytes)} | ${ms(first ? first.endMs - first.startMs : undefined)} | ${ms(second ? second.endMs - second.startMs : undefined)} | ${ms(m.parseMs)} | ${ms(e.open.paintedMs)} | ${ms(e.next.paintedMs)} | ${ms(e.apiMs)} |`;
}

function slaRow(name: string, s: SlaRun): string {
  return `| ${name} | ${ms(s.open.paintedMs)} | ${ms(s.open.seenMs)} | ${s.open.entries} | ${s.open.rows} of ${Number(s.open.caption) - 1} | ${ms(s.report ? s.report.endMs - s.report.startMs : undefined)} | ${ms(s.exportRequest ? s.exportRequest.endMs - s.exportRequest.startMs : undefined)} | ${ms(s.parseMs)} | ${ms(s.apiMs)} | ${kb(s.apiBytes)} |`;
}

/** Medians of the phases: before the request, the request, JSON.parse (timed apart), the rest to the painted frame. */
function phases(runs: Part2Run[]): string[] {
  const med = (f: (r: Part2Run) => number | undefined): string => ms(median(runs.map(f).filter((x): x is number => x !== undefined)));
  const open = (r: Part2Run) => r.month.requests[0];
  const next = (r: Part2Run) => r.month.requests[1];
  const exp = (r: Part2Run) => r.sla.exportRequest;
  return [
    '| screen | until the data request starts | the data request (start → last byte) | JSON.parse of the answer (timed apart) | the rest: app maths, render, layout, paint | total (painted) |',
    '| --- | --: | --: | --: | --: | --: |',
    `| month, 10 000 modes (from navigation) | ${med((r) => open(r)?.startMs)} | ${med((r) => (open(r) ? open(r)!.endMs - open(r)!.startMs : undefined))} | ${med((r) => r.month.parseMs)} | ${med((r) => (open(r) ? r.month.open.paintedMs - open(r)!.endMs - r.month.parseMs : undefined))} | ${med((r) => r.month.open.paintedMs)} |`,
    `| next month (from the click) | ${med((r) => (next(r) ? next(r)!.startMs - r.month.next.originMs : undefined))} | ${med((r) => (next(r) ? next(r)!.endMs - next(r)!.startMs : undefined))} | ~${med((r) => r.month.parseMs)} | ${med((r) => (next(r) ? r.month.next.paintedMs - (next(r)!.endMs - r.month.next.originMs) - r.month.parseMs : undefined))} | ${med((r) => r.month.next.paintedMs)} |`,
    `| month with no mode (from navigation) | ${med((r) => r.emptyMonth.requests[0]?.startMs)} | ${med((r) => (r.emptyMonth.requests[0] ? r.emptyMonth.requests[0].endMs - r.emptyMonth.requests[0].startMs : undefined))} | ${med((r) => r.emptyMonth.parseMs)} | ${med((r) => (r.emptyMonth.requests[0] ? r.emptyMonth.open.paintedMs - r.emptyMonth.requests[0].endMs - r.emptyMonth.parseMs : undefined))} | ${med((r) => r.emptyMonth.open.paintedMs)} |`,
    `| SLA report, 10 000 CIs (from navigation) | ${med((r) => exp(r)?.startMs)} (report GET ${med((r) => (r.sla.report ? r.sla.report.endMs - r.sla.report.startMs : undefined))}) | ${med((r) => (exp(r) ? exp(r)!.endMs - exp(r)!.startMs : undefined))} | ${med((r) => r.sla.parseMs)} | ${med((r) => (exp(r) ? r.sla.open.paintedMs - exp(r)!.endMs - r.sla.parseMs : undefined))} | ${med((r) => r.sla.open.paintedMs)} |`,
  ];
}

export interface Part2Context {
  /** Where the data was: on disk (the file system) or on tmpfs. */
  where: string;
  loadAtStart: number[];
  chromium: string;
  wallSeconds: number;
}

export function part2Section(p: Part2Result, ctx: Part2Context): string {
  const { runs, warmup, seed, sla } = p;
  const med = (f: (r: Part2Run) => number): number => median(runs.map(f));
  const month = med((r) => r.month.open.paintedMs);
  const next = med((r) => r.month.next.paintedMs);
  const page = med((r) => r.sla.open.paintedMs);
  const freq = Object.entries(seed.byFreq)
    .map(([f, n]) => `${count(n)} ${f.toLowerCase()}`)
    .join(', ');
  return [
    PART2_HEADING,
    '',
    `${runs.length} runs after a warm-up run (whole benchmark, both parts and seeding: ${(ctx.wallSeconds / 60).toFixed(1)} min), on the installation of part 1 (${ctx.where}) with, added after part 1's runs: ${count(seed.modes)} maintenance modes (${Math.round(RECURRING_SHARE * 100)} % recurring: ${freq}; zones ${ZONES.join(', ')}; first windows from a year before the run to ${AHEAD_DAYS} days after it; ${count(seed.ended)} already ended, ${count(seed.canceled)} canceled; 1–3 CIs each), committed to the control-plane journal in ${seed.seconds} s by support/console-part2-seed.ts (the API refuses a mode that has ended); an SLA template of ${count(sla.cis)} CIs (ten sites, each root \`withDescendants\`, target 99.9 %) whose report over ${sla.range.start} – ${sla.range.end} (${count(sla.problems)} problems on its CIs) was Ok ${sla.orderSeconds.toFixed(1)} s after the order. The platform's restart on this data took ${p.platformStartSeconds.toFixed(1)} s. Each screen in a fresh browser context (empty cache), 1280×800, the admin signed in.`,
    '',
    '## Targets',
    '',
    `- maintenance month with ${count(MODE_COUNT)} modes (${Math.round(RECURRING_SHARE * 100)} % recurring) < ${TARGETS.monthMs} ms: median ${ms(month)} ms from navigation to the first frame painted with the month's windows — ${verdict(month < TARGETS.monthMs)}; switching to the next month: ${ms(next)} ms from the click — ${verdict(next < TARGETS.monthMs)}`,
    `- SLA report page of a ${count(sla.cis)}-CI report < ${TARGETS.slaMs} ms: median ${ms(page)} ms from navigation to the first frame painted with the bars and the table's first rows — ${verdict(page < TARGETS.slaMs)}`,
    '',
    '## Maintenance calendar, month view',
    '',
    `\`/maintenance?view=month&date=${p.plan.busyDate}\`, then its "Next" link; the empty baseline: \`date=${p.plan.emptyDate}\` (a month before every mode: the API answers no window) and its "Next". Times in ms. Painted: the end of the first frame showing the month's table with its caption and at least one window (a task queued from that frame's animation callback); seen: that frame's animation callback. Windows: the screen's count of windows in the month's days / windows drawn (three a cell, the rest behind "more"). API from Node: the page's own windows request (\`GET …/rsm-maintenance/windows?dateFrom=…&dateTo=…\`, the windows of the days shown, recurring modes expanded by the server) replayed with the admin's token, to the last byte. In the page: the windows request's Resource Timing (start → last byte), and JSON.parse of the same answer timed in the page. The warm-up run's first request is the first after the platform's restart: the server compiles every recurring series then (kept per mode after).`,
    '',
    "| run | month painted | seen | windows / drawn | next month painted | windows / drawn | API from Node | modes / windows in the answer | answer KB | page: windows request | page: next month's windows request | JSON.parse | no mode: month painted | no mode: next | no mode: API from Node |",
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    monthRow('warm-up (not in the medians)', warmup.month, warmup.emptyMonth),
    ...runs.map((r, i) => monthRow(String(i + 1), r.month, r.emptyMonth)),
    `| **median** | **${ms(month)}** | ${ms(med((r) => r.month.open.seenMs))} | | **${ms(next)}** | | ${ms(med((r) => r.month.apiMs))} | | ${kb(med((r) => r.month.apiBytes))} | | | ${ms(med((r) => r.month.parseMs))} | ${ms(med((r) => r.emptyMonth.open.paintedMs))} | ${ms(med((r) => r.emptyMonth.next.paintedMs))} | ${ms(med((r) => r.emptyMonth.apiMs))} |`,
    '',
    '## SLA report page',
    '',
    `\`/sla/reports/<id>\` of the ${count(sla.cis)}-CI report. Painted / seen as above, for the first frame with the availability bars (SVG) and a row of the figures table. Bars drawn; table rows in the DOM of the CI rows (virtual table). In the page: the report's GET and the JSON export's (\`…/export?format=json&exportType=configItems\`) Resource Timing, start → last byte. API from Node: the JSON export with the admin's token, to the last byte.`,
    '',
    '| run | painted | seen | bars | table rows | page: report GET | page: JSON export | JSON.parse | API from Node (export) | export KB |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    slaRow('warm-up (not in the medians)', warmup.sla),
    ...runs.map((r, i) => slaRow(String(i + 1), r.sla)),
    `| **median** | **${ms(page)}** | ${ms(med((r) => r.sla.open.seenMs))} | | | | | ${ms(med((r) => r.sla.parseMs))} | ${ms(med((r) => r.sla.apiMs))} | ${kb(med((r) => r.sla.apiBytes))} |`,
    '',
    '## Where the time goes (medians, ms)',
    '',
    ...phases(runs),
    '',
    'JSON.parse is timed apart in the same page on the same answer (warm), so it is an estimate of what the screen spent parsing; "the rest" is the painted time less the request\'s last byte and that estimate.',
    '',
    `Of "the rest" of the month: the console's turning of the answer into each day's entries (maintenance-occurrences.ts \`occurrencesOf\` + \`byDay\`, the code the page runs) on the same answer (${count(p.maths.modes)} modes, ${count(p.maths.recurring)} recurring, ${count(p.maths.occurrences)} windows in the days the month view shows), timed in Node after the runs: ${p.maths.firstMs.toFixed(0)} ms the first call (code cold), ${p.maths.warmMs.toFixed(0)} ms warm (median of five).`,
    '',
    'After the click on "Next", the screen first draws the next month from the previous month\'s answer (the modes that start in the next month missing; seen in a trial run of this script), then "Loading…", then the next month from its own answer: the time above waits for the latter (the page holds the second windows answer).',
    '',
    '## Machine (part 2)',
    '',
    ...machineDescription(ctx.loadAtStart),
    `- browser: headless ${ctx.chromium}, on the same machine as the platform; no CPU or network throttling`,
    '',
  ].join('\n');
}

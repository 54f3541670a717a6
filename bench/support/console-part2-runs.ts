/**
 * One run of the console benchmark's part 2, each screen in a fresh browser context (empty
 * cache, the session cookie only), then the API requests behind them from Node with the admin's
 * token (the baselines, in the same run):
 *
 * - the maintenance month (`/maintenance?view=month&date=…`): navigation start → the first frame
 *   with the month's table and its windows; then the click on "Next" → the first frame with the
 *   next month's caption and windows. The windows request the page made is replayed from Node.
 * - the same on a month before every mode (the API answers no mode): the screen's own floor.
 * - the SLA report page (`/sla/reports/<id>`): navigation start → the first frame with the
 *   availability bars and the table's first rows; the JSON export is fetched from Node.
 *
 * Where the time goes, from the page: the Resource Timing of the API requests (start, last byte,
 * bytes) and how long the page takes to JSON.parse the same answer (measured after, in the page).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '../../test/support/browser.js';
import { clickAndTime, type Painted, parseTime, type RequestTiming, requestTimings, resetPainted, untilPainted } from './console-part2-page.js';
import { BENCH_ADMIN_TOKEN } from './problems-api-dataset.js';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
const VIEWPORT = { width: 1280, height: 800 };
const WINDOWS = '/rsm-maintenance/windows';

export interface MonthRun {
  open: Painted;
  next: Painted;
  /** The page's windows requests: the month's, then the next month's. */
  requests: RequestTiming[];
  parseMs: number;
  /** The month's windows request from Node: ms to the last byte, bytes, modes and windows in the answer. */
  apiMs: number;
  apiBytes: number;
  apiModes: number;
  apiWindows: number;
}

export interface SlaRun {
  open: Painted;
  report: RequestTiming | undefined;
  exportRequest: RequestTiming | undefined;
  parseMs: number;
  apiMs: number;
  apiBytes: number;
  apiRows: number;
}

export interface Part2Run {
  month: MonthRun;
  emptyMonth: MonthRun;
  sla: SlaRun;
}

interface Replay {
  url: string;
  method: string;
  body: string | null;
}

/** Closes the context and lets the browser and the platform settle (2 cores) before the next screen. */
async function settle(context: BrowserContext): Promise<void> {
  await context.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/** Milliseconds of one request from Node with the admin's token, to the last byte, and its body. */
async function timed(replay: Replay): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const answer = await fetch(replay.url, {
    method: replay.method,
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, ...(replay.body === null ? {} : { 'content-type': 'application/json' }) },
    body: replay.body,
  });
  const text = await answer.text();
  const ms = performance.now() - started;
  if (answer.status !== 200) throw new Error(`${replay.method} ${replay.url}: ${answer.status} ${text.slice(0, 300)}`);
  return { ms, text };
}

/** The first request of the page whose URL contains `part`, as made (to replay it from Node). */
function firstRequest(page: Page, part: string): () => Replay {
  let seen: Replay | undefined;
  page.on('request', (r) => {
    if (!seen && r.url().includes(part)) seen = { url: r.url(), method: r.method(), body: r.postData() };
  });
  return () => {
    if (!seen) throw new Error(`the page made no request to ${part}`);
    return seen;
  };
}

/**
 * With CONSOLE_BENCH_PROFILE=<dir>: the page's JavaScript CPU profile from before the navigation
 * to the first painted frame, written as <dir>/<name>-<n>.cpuprofile (Chrome DevTools opens it).
 * A diagnosis aid: profiling slows the page, so the times of such a run are not the figures.
 */
let profiles = 0;
async function startProfile(context: BrowserContext, page: Page): Promise<((name: string) => Promise<void>) | undefined> {
  const dir = process.env['CONSOLE_BENCH_PROFILE'];
  if (!dir) return undefined;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return async (name) => {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}-${++profiles}.cpuprofile`), JSON.stringify(profile));
  };
}

async function monthRun(browser: Browser, storageState: StorageState, origin: string, date: string, withWindows: boolean): Promise<MonthRun> {
  const context = await browser.newContext({ storageState, viewport: VIEWPORT });
  const page = await context.newPage();
  const windows = firstRequest(page, WINDOWS);
  const profile = await startProfile(context, page);
  await page.goto(`${origin}/maintenance?view=month&date=${date}`, { waitUntil: 'commit' });
  const open = await untilPainted(page, { kind: 'month', before: '', withWindows, requests: 1 });
  await profile?.(`month-${date}`);
  await resetPainted(page);
  const painted = untilPainted(page, { kind: 'month', before: open.caption, withWindows, requests: 2 });
  await clickAndTime(page, 'nav[aria-label="Calendar dates"]', 'Next');
  const next = await painted;
  const requests = await requestTimings(page, WINDOWS);
  const api = await timed(windows());
  const parseMs = await parseTime(page, api.text);
  await settle(context);
  const answer = JSON.parse(api.text) as { modes: unknown[]; windows: unknown[] };
  return { open, next, requests, parseMs, apiMs: api.ms, apiBytes: Buffer.byteLength(api.text), apiModes: answer.modes.length, apiWindows: answer.windows.length };
}

async function slaRun(browser: Browser, storageState: StorageState, origin: string, reportId: string): Promise<SlaRun> {
  const context = await browser.newContext({ storageState, viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto(`${origin}/sla/reports/${reportId}`, { waitUntil: 'commit' });
  const open = await untilPainted(page, { kind: 'sla' });
  const [report] = await requestTimings(page, `/sla/ordered/${reportId}`, '/export');
  const [exportRequest] = await requestTimings(page, `/sla/ordered/${reportId}/export`);
  const api = await timed({ url: `${origin}/api/public/sm/v1/sla/ordered/${reportId}/export?format=json&exportType=configItems`, method: 'GET', body: null });
  const parseMs = await parseTime(page, api.text);
  await settle(context);
  return { open, report, exportRequest, parseMs, apiMs: api.ms, apiBytes: Buffer.byteLength(api.text), apiRows: (JSON.parse(api.text) as unknown[]).length };
}

export interface Part2Plan {
  /** A date (YYYY-MM-DD) in the busy month, and one in a month before every mode. */
  busyDate: string;
  emptyDate: string;
  reportId: string;
}

export async function part2Run(browser: Browser, storageState: StorageState, origin: string, plan: Part2Plan): Promise<Part2Run> {
  const month = await monthRun(browser, storageState, origin, plan.busyDate, true);
  const emptyMonth = await monthRun(browser, storageState, origin, plan.emptyDate, false);
  const sla = await slaRun(browser, storageState, origin, plan.reportId);
  return { month, emptyMonth, sla };
}

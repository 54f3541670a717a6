/**
 * In-page timing for the console benchmark's part 2: wait, polling every animation frame, for
 * the first frame in which a screen shows what it should, and take the time twice — at that
 * frame's animation callback ("seen", as part 1's problems screen does) and in a task queued from
 * it, i.e. after the frame's paint ("painted", as part 1's expand does). Times are from the
 * document's time origin (the navigation's start), or from the click that `clickAndTime` made.
 *
 * The functions sent to the page are inline arrows with no named function inside: tsx would
 * wrap a named one in a helper the page does not have.
 */
import type { Page } from '../../test/support/browser.js';

export type Shown =
  /**
   * The month table with its caption, other than `before`, once the page has `requests` windows
   * answers (the first frame after a click shows the next month drawn from the previous answer);
   * with `withWindows`, at least one window drawn.
   */
  | { kind: 'month'; before: string; withWindows: boolean; requests: number }
  /** The SLA report's availability bars (SVG) and the first row of its figures table. */
  | { kind: 'sla' };

export interface Painted {
  seenMs: number;
  paintedMs: number;
  /** What the frame showed: the caption and the window count line, or the bars and rows. */
  caption: string;
  status: string;
  entries: number;
  rows: number;
  /** The origin of the times, from the document's time origin: 0, or the click's instant. */
  originMs: number;
}

const SLOW = 120_000;

/**
 * Waits for the first frame showing `shown`; times from the origin, or from the last `clickAndTime`.
 * Call it before the click, without awaiting, so that the polling runs from the click on.
 */
export async function untilPainted(page: Page, shown: Shown): Promise<Painted> {
  const handle = await page.waitForFunction(
    (arg: Shown) => {
      const g = globalThis as any;
      const d = g.document;
      if (g.__benchPainted !== undefined) return g.__benchPainted;
      if (g.__benchSeen !== undefined) return false;
      let seen: { caption: string; status: string; entries: number; rows: number } | undefined;
      if (arg.kind === 'month') {
        const caption = d.querySelector('table.mcal caption')?.textContent ?? '';
        const entries = d.querySelectorAll('table.mcal .mcal-entry').length;
        const answered = (performance.getEntriesByType('resource') as any[]).filter((e) => e.name.includes('/rsm-maintenance/windows')).length;
        if (caption.startsWith('Maintenance windows, ') && caption !== arg.before && answered >= arg.requests && (!arg.withWindows || entries > 0))
          seen = { caption, status: d.querySelector('.mcal-scroll')?.previousElementSibling?.textContent ?? '', entries, rows: d.querySelectorAll('table.mcal tbody tr').length };
      } else {
        const bars = d.querySelectorAll('svg[aria-label^="Availability by CI, worst first"] rect.sla-bar-fill').length;
        const table = d.querySelector('[role=table][aria-label="Figures by CI"]');
        const rows = table ? table.querySelectorAll('[role=row]:not([aria-rowindex="1"])').length : 0;
        if (bars > 0 && rows > 0) seen = { caption: table.getAttribute('aria-rowcount') ?? '', status: d.querySelector('.sla-totals')?.textContent ?? '', entries: bars, rows };
      }
      if (!seen) return false;
      const from = g.__benchClick ?? 0;
      g.__benchSeen = { ...seen, seenMs: performance.now() - from, originMs: from };
      // Queued from this frame's animation callback: runs once the frame is painted.
      setTimeout(() => (g.__benchPainted = { ...g.__benchSeen, paintedMs: performance.now() - from }), 0);
      return false;
    },
    shown,
    { polling: 'raf', timeout: SLOW },
  );
  return (await handle.jsonValue()) as Painted;
}

/** Forgets the last frame found, before a new `untilPainted`. */
export async function resetPainted(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as any;
    g.__benchSeen = undefined;
    g.__benchPainted = undefined;
  });
}

/** Clicks the link named `name` inside `container` (a CSS selector) and notes the instant, in the page. */
export async function clickAndTime(page: Page, container: string, name: string): Promise<void> {
  await page.evaluate(
    ({ container, name }) => {
      const g = globalThis as any;
      const link = [...g.document.querySelectorAll(`${container} a`)].find((a: any) => a.textContent === name) as any;
      if (!link) throw new Error(`no link ${name} in ${container}`);
      g.__benchClick = performance.now();
      link.click();
    },
    { container, name },
  );
}

export interface RequestTiming {
  /** From the origin to the request's start and to its last byte, ms. */
  startMs: number;
  endMs: number;
  /** The body's bytes once decoded, and as transferred. */
  bytes: number;
  encodedBytes: number;
}

/** The Resource Timing of the requests whose URL contains `part` (and not `not`), in order. */
export async function requestTimings(page: Page, part: string, not = '\u0000'): Promise<RequestTiming[]> {
  return page.evaluate(
    ({ part, not }) =>
      (performance.getEntriesByType('resource') as any[])
        .filter((e) => e.name.includes(part) && !e.name.includes(not))
        .map((e) => ({ startMs: e.startTime, endMs: e.responseEnd, bytes: e.decodedBodySize, encodedBytes: e.encodedBodySize })),
    { part, not },
  );
}

/** Milliseconds the page takes to JSON.parse `text` (the answer the screen parsed), median of three. */
export async function parseTime(page: Page, text: string): Promise<number> {
  return page.evaluate((body: string) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      JSON.parse(body);
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[1]!;
  }, text);
}

/**
 * Set-up shared by the console's end-to-end tests: the platform (the problems kit, on a clock
 * fixed at the real time the file started, so the browser's "now" and the platform's agree), the
 * installation of console-data.ts, one Chromium, and pages in contexts of their own, each watched
 * for console errors and failed requests (test/support/browser.ts).
 */
import { type Browser, type BrowserContext, launchBrowser, type Page, type PageTrouble, signIn, watchPage } from '../support/browser.js';
import { ProblemsKit } from '../integration/problems/problems-kit.js';
import { type ConsoleData, seedConsoleData } from './console-data.js';

export const SESSION = '/api/console/v1/session';
export const CIS = '/api/public/sm/v2/rsm/config-items';
/** Generous: the machine may be busy with other tests. Only the acceptance's stated bounds are tight. */
export const SLOW = 30_000;

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  troubles: PageTrouble[];
  excuse(status: number, urlPart: string): void;
  /** Resolves once no request (live streams aside) has been in flight for `quietMs`. */
  settled(quietMs?: number): Promise<void>;
}

/** Watches `page` (test/support/browser.ts) and counts its requests in flight, live streams aside. */
export function watched(context: BrowserContext, page: Page): WatchedPage {
  const inFlight = new Set<unknown>();
  page.on('request', (request) => {
    if (request.resourceType() !== 'eventsource') inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  const settled = async (quietMs = 300): Promise<void> => {
    const deadline = Date.now() + SLOW;
    let quietSince = Date.now();
    for (;;) {
      if (inFlight.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      if (Date.now() > deadline) throw new Error(`requests still in flight after ${SLOW} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { context, page, ...watchPage(page), settled };
}

export class E2e {
  readonly k = new ProblemsKit();
  data!: ConsoleData;
  browser!: Browser;

  constructor() {
    this.k.clock = Math.floor(Date.now() / 1000) * 1000;
  }

  get base(): string {
    return this.k.p.base;
  }

  async start(): Promise<void> {
    await this.k.start();
    this.data = await seedConsoleData(this.k);
    this.browser = await launchBrowser();
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    await this.k.stop();
  }

  /** A page in a fresh context (no cookies), 1280×800, light unless told; signed in through the form with `token` when given. */
  async page(token?: string, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<WatchedPage> {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    context.setDefaultTimeout(SLOW);
    const page = await context.newPage();
    // Watched from the first screen after the sign-in: signed out, the console's question for its
    // session is answered 401 (that is how it knows); the sign-in test watches that part itself.
    if (token) await signIn(page, this.base, token);
    return watched(context, page);
  }
}

/**
 * A real browser for the console's end-to-end tests: Debian's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium) driven by playwright-core. Missing Chromium skips with the reason, and fails
 * under REQUIRE_SERVICES=1. Each page is watched: console errors, uncaught exceptions, failed
 * requests and 4xx/5xx answers are collected, so a test can assert that a screen had none; axe-core
 * runs in the page through the DevTools protocol (not an inline script, which the CSP refuses).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** The reason the browser tests cannot run here, or false; throws under REQUIRE_SERVICES=1. */
export function missingChromium(): string | false {
  if (existsSync(CHROMIUM_PATH)) return false;
  const reason = `Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env['REQUIRE_SERVICES'] === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  return reason;
}

export function launchBrowser(): Promise<Browser> {
  // Root in CI: Chromium's sandbox needs an unprivileged user.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export interface PageTrouble {
  kind: 'console' | 'pageerror' | 'requestfailed' | 'response';
  text: string;
}

/** Records what went wrong on the page; `excuse(status, urlPart)` excuses an answer a test provokes (and Chromium's console line about it). */
export function watchPage(page: Page): { troubles: PageTrouble[]; excuse(status: number, urlPart: string): void } {
  const troubles: PageTrouble[] = [];
  const excused: Array<{ status: number; urlPart: string }> = [];
  const isExcused = (status: number, url: string): boolean => excused.some((e) => e.status === status && url.includes(e.urlPart));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium's own line for an excused answer ("Failed to load resource: … status of 401") is excused with it.
    const status = /^Failed to load resource: the server responded with a status of (\d+)/.exec(message.text())?.[1];
    if (status !== undefined && isExcused(Number(status), message.location().url)) return;
    troubles.push({ kind: 'console', text: `${message.text()}${message.location().url ? ` (${message.location().url})` : ''}` });
  });
  page.on('pageerror', (error) => troubles.push({ kind: 'pageerror', text: error.message }));
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? '';
    // A live stream or a navigation cut short by the next one is not a failure of the screen.
    if (/ERR_ABORTED/.test(failure)) return;
    troubles.push({ kind: 'requestfailed', text: `${request.method()} ${request.url()}: ${failure}` });
  });
  page.on('response', (response) => {
    const status = response.status();
    if (status < 400) return;
    const url = response.url();
    if (isExcused(status, url)) return;
    troubles.push({ kind: 'response', text: `${status} ${response.request().method()} ${url}` });
  });
  return { troubles, excuse: (status, urlPart) => excused.push({ status, urlPart }) };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it stands. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Signs in through the console's form with a personal token. */
export async function signIn(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/sign-in');
}

export type { Browser, BrowserContext, Page };

/**
 * Screenshots of the console's screens for the README (docs/console/*.png), made the way the
 * end-to-end tests drive it: the platform in this process on the small installation of
 * console-data.ts (plus an ordered SLA report, so the SLA report page shows one), headless Chromium
 * at 1280×800, light colour scheme, times in Europe/Berlin, signed in as the admin. A script,
 * not a test (tap runs only *.test.ts):
 *
 *   node --import tsx test/e2e/console-screenshots.ts      (OUT_DIR: docs/console by default)
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '../support/browser.js';
import { ADMIN_TOKEN } from '../support/platform.js';
import { E2e } from './e2e-kit.js';

const OUT_DIR = process.env['OUT_DIR'] ?? fileURLToPath(new URL('../../docs/console/', import.meta.url));
const log = (line: string): void => void process.stderr.write(`${line}\n`);

const e = new E2e();
await e.start();
try {
  const { k, data } = e;
  const { cis } = data;
  // More of a day's traffic for the stream's page.
  const at = (minutesAgo: number): string => new Date(k.clock - minutesAgo * 60_000).toISOString();
  await k.post(
    data.stream.key,
    Array.from({ length: 24 }, (_, i) => ({
      '@timestamp': at(90 - i * 3),
      check: i % 4 === 0 ? 'http' : 'ping',
      host: [cis.web1, cis.web2, cis.db1, cis.router1][i % 4]!.name,
      rtt_ms: (4 + ((i * 7) % 11)) / 10,
      status: 'ok',
    })),
  );
  // An SLA report, ordered and computed, for the SLA screen.
  const ordered = await k.api('POST', '/api/public/sm/v1/sla/ordered', {
    json: { template: { id: data.slaTemplate.id }, range: { start: new Date(k.clock - 7 * 86_400_000).toISOString(), end: new Date(k.clock).toISOString() } },
  });
  if (ordered.status !== 200) throw new Error(`SLA order: ${ordered.status} ${ordered.text}`);
  const reportId = ordered.body.id as string;
  for (let i = 0; ; i++) {
    const report = await k.api('GET', `/api/public/sm/v1/sla/ordered/${reportId}`);
    if (report.body?.status === 'Ok') break;
    if (report.body?.status === 'Error' || i > 300) throw new Error(`SLA report: ${report.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // The recurring mode of console-data.ts, for its page (form and preview).
  const modes = await k.api('POST', '/api/public/sm/v1/rsm-maintenance/filter?perPage=-1', {
    json: { dateStart: { lessThanOrEqual: new Date(k.clock + 86_400_000).toISOString() } },
  });
  const recurringModeId = (modes.body as Array<{ id: number; title: string }>).find((m) => m.title === 'Sunday patch window')?.id;
  if (recurringModeId === undefined) throw new Error(`maintenance modes: ${modes.status} ${modes.text}`);

  mkdirSync(OUT_DIR, { recursive: true });
  const context = await e.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', timezoneId: 'Europe/Berlin', locale: 'en-GB' });
  const shoot = async (name: string, path: string, ready: (page: Page) => Promise<unknown>): Promise<void> => {
    const page = await context.newPage();
    await page.goto(`${e.base}${path}`);
    await ready(page);
    // Let layout, fonts and the graph's layout settle before the picture.
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(OUT_DIR, `${name}.png`) });
    log(`${name}.png  ${path}`);
    await page.close();
  };

  await shoot('sign-in', '/sign-in', (page) => page.getByLabel('Token').waitFor());
  const signing = await context.newPage();
  await signing.goto(`${e.base}/sign-in`);
  await signing.getByLabel('Token').fill(ADMIN_TOKEN);
  await signing.getByRole('button', { name: 'Sign in' }).click();
  await signing.waitForURL((url) => url.pathname === '/problems');
  await signing.close();

  await shoot('problems', '/problems', (page) => page.getByRole('table', { name: 'Unhandled problems' }).getByRole('row').filter({ hasText: cis.web1.name }).first().waitFor());
  await shoot('problem', `/problems/${data.problems.get(cis.web1.name)}`, (page) => page.getByRole('heading', { level: 2, name: 'Hits' }).waitFor());
  await shoot('cmdb', '/cmdb', async (page) => {
    for (const name of [cis.dc.name, cis.cluster.name]) {
      await page.getByRole('treeitem', { name }).first().click();
      await page.keyboard.press('ArrowRight');
    }
    await page.getByRole('treeitem', { name: cis.db1.name }).waitFor();
  });
  await shoot('ci-impact', `/cmdb/ci/${cis.checkout.id}?tab=links&depth=2`, async (page) => {
    const graph = page.getByRole('img', { name: `Impact of ${cis.checkout.name}: a drawing of the CIs listed below` });
    await graph.locator('canvas').first().waitFor();
    // The graph at the top of the picture, its section heading just above it.
    await page.getByRole('heading', { level: 2, name: 'Impact' }).evaluate((h) => (h as any).scrollIntoView({ block: 'start' }));
  });
  await shoot('ci', `/cmdb/ci/${cis.web1.id}`, (page) => page.getByRole('heading', { level: 1, name: cis.web1.name }).waitFor());
  await shoot('maintenance', '/maintenance', (page) =>
    page
      .getByRole('link', { name: /Sunday patch window/ })
      .first()
      .waitFor(),
  );
  await shoot('maintenance-mode', `/maintenance/${recurringModeId}`, (page) => page.getByRole('table', { name: 'Next windows' }).getByRole('row').nth(1).waitFor());
  await shoot('sla', '/sla', (page) => page.getByRole('form', { name: 'Order a report' }).waitFor());
  await shoot('sla-report', `/sla/reports/${reportId}?ci=${cis.web1.id}`, async (page) => {
    await page
      .getByRole('group', { name: /^Availability by CI, worst first/ })
      .getByRole('link')
      .first()
      .waitFor();
    await page.getByRole('heading', { level: 2, name: `Timeline of ${cis.web1.name}` }).waitFor();
  });
  await shoot('streams', `/streams?stream=${data.stream.id}`, (page) => page.getByRole('table', { name: 'Events, newest first' }).waitFor());
  await shoot('trigger', `/streams/triggers/${data.triggers.cpu.id}`, async (page) => {
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('table', { name: 'CIs the trigger would hit, most problems first' }).getByRole('link', { name: cis.web1.name }).waitFor();
  });
  await shoot('admin', '/admin/users', (page) => page.getByRole('table', { name: 'Users' }).waitFor());
  await context.close();
  log(`written to ${OUT_DIR}`);
} finally {
  await e.stop();
}

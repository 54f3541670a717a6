/**
 * Issue #32, the console in a real browser (Debian's Chromium driven by playwright-core): signing
 * in, a deep link through the sign-in, a CI made with the New CI form, a problem arriving live and
 * acknowledged, and every screen free of console errors, failed requests and serious axe-core
 * violations. The platform runs in this process on the small installation of console-data.ts.
 * Who sees what, sign-out and the CSRF proof: console-access.test.ts.
 */
import t from 'tap';
import { missingChromium, type Page, seriousViolations } from '../support/browser.js';
import { ADMIN_TOKEN } from '../support/platform.js';
import { E2e, watched } from './e2e-kit.js';

const unavailable = missingChromium();
if (unavailable) {
  t.plan(0, unavailable);
} else {
  const e = new E2e();
  t.before(() => e.start());
  t.teardown(() => e.stop());

  t.test('signing in through the form with a personal token opens the problems screen; a wrong token is refused there', async (t) => {
    const { page, context, troubles, excuse } = await e.page();
    t.teardown(() => context.close());
    // Signed out, the console asks for its session once and is told 401: that is how it knows.
    excuse(401, '/api/console/v1/session');
    await page.goto(`${e.base}/`);
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.getByLabel('Token').fill(`ops_${'x'.repeat(43)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    t.equal(new URL(page.url()).pathname, '/sign-in', 'an unknown token stays on the sign-in screen');
    t.match(await page.getByRole('alert').textContent(), /token/i, 'and says why');

    await page.getByLabel('Token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/problems');
    await page.getByRole('heading', { level: 1, name: 'Problems' }).waitFor();
    t.ok(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'CMDB' }).isVisible(), 'the navigation is there');
    t.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible(), 'with a way out');
    const cookie = (await context.cookies()).find((c) => c.name === 'ops_session');
    t.ok(cookie?.httpOnly, 'the session is an HttpOnly cookie');
    t.equal(
      await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie.includes('ops_session')),
      false,
      "the page's script cannot read it",
    );
    t.same(troubles, [], 'nothing else went wrong');
  });

  t.test('a deep link opened signed out goes through the sign-in and back to the page it named', async (t) => {
    const { web1 } = e.data.cis;
    const { page, context, troubles, excuse } = await e.page();
    t.teardown(() => context.close());
    excuse(401, '/api/console/v1/session');
    await page.goto(`${e.base}/cmdb/ci/${web1.id}?tab=links`);
    await page.waitForURL((url) => url.pathname === '/sign-in');
    t.equal(new URL(page.url()).searchParams.get('next'), `/cmdb/ci/${web1.id}?tab=links`, 'the sign-in remembers where to go');
    await page.getByLabel('Token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === `/cmdb/ci/${web1.id}`);
    await page.getByRole('heading', { level: 1, name: web1.name }).waitFor();
    t.equal(new URL(page.url()).search, '?tab=links', 'with its query');

    // Reloaded signed in, the same URL is the same page (the server answers index.html for it).
    await page.reload();
    await page.getByRole('heading', { level: 1, name: web1.name }).waitFor();
    t.ok(await page.getByRole('heading', { level: 2, name: 'Impact' }).isVisible(), 'on the tab the URL names');
    t.same(troubles, []);
  });

  t.test('a CI created with the New CI form appears in the CMDB tree and has its page, headed by its name', async (t) => {
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'CMDB' }).click();
    await page.getByRole('tree', { name: 'CI hierarchy' }).getByRole('treeitem', { name: 'dc-frankfurt' }).waitFor();
    await page.getByRole('button', { name: 'New CI' }).click();
    await page.waitForURL((url) => url.pathname === '/cmdb/ci/new');

    const form = page.getByRole('form', { name: 'New CI' });
    await form.getByLabel('Name').fill('edge-firewall-1');
    await form.getByLabel('Description').fill('Perimeter firewall, hall 2');
    await form.getByLabel('Type').selectOption({ label: 'Router' });
    await form.getByLabel('Owner workgroup').selectOption({ label: 'Network' });
    await form.getByLabel('Labels').fill('env=prod\nvendor=fortinet');
    await form.getByRole('button', { name: 'Create CI' }).click();
    await page.waitForURL((url) => /^\/cmdb\/ci\/\d+$/.test(url.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    await page.getByRole('heading', { level: 1, name: 'edge-firewall-1' }).waitFor();

    const stored = await e.k.getCi(id);
    t.match(
      stored,
      {
        name: 'edge-firewall-1',
        description: 'Perimeter firewall, hall 2',
        ownerWorkGroup: { name: 'Network' },
        configItemType: { name: 'Router' },
        labels: { env: 'prod', vendor: 'fortinet' },
      },
      'the API has it as entered',
    );

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'CMDB' }).click();
    const row = page.getByRole('tree', { name: 'CI hierarchy' }).getByRole('treeitem', { name: 'edge-firewall-1' });
    await row.waitFor();
    t.equal(await row.getAttribute('aria-level'), '1', 'at the top level of the tree');
    await row.getByRole('link', { name: 'edge-firewall-1' }).click();
    await page.waitForURL((url) => url.pathname === `/cmdb/ci/${id}`);
    await page.getByRole('heading', { level: 1, name: 'edge-firewall-1' }).waitFor();
    t.pass(`/cmdb/ci/${id} is its page`);
    t.same(troubles, []);
  });

  t.test('a record posted to a stream shows its problem on /problems within 2 s, without a reload', async (t) => {
    const { router2 } = e.data.cis;
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.getByText('Live', { exact: true }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /unhandled problems?$/ })
      .waitFor();
    const table = page.getByRole('table', { name: 'Unhandled problems' });
    t.equal(await table.getByRole('row').filter({ hasText: router2.name }).count(), 0, 'no problem on it before');
    await page.evaluate(() => ((globalThis as unknown as { stillHere: boolean }).stillHere = true));

    const sent = performance.now();
    const appeared = table.getByRole('row').filter({ hasText: router2.name }).waitFor({ timeout: 2000 });
    const posted = e.k.api('POST', `/api/public/cl/v1/stream-data?streamKey=${e.data.stream.key}`, {
      token: null,
      json: { '@timestamp': e.k.iso(), check: 'cpu', host: router2.name, severity: 'critical', value: 99.1 },
    });
    await Promise.all([appeared, posted]);
    const ms = Math.round(performance.now() - sent);
    t.ok(ms < 2000, `the row appeared ${ms} ms after the record was sent`);
    t.equal((await posted).status, 200);
    t.equal(await page.evaluate(() => (globalThis as unknown as { stillHere?: boolean }).stillHere), true, 'the page was not reloaded');
    await e.k.problemsSettled();
    t.same(troubles, []);
  });

  t.test('acknowledging a problem on its page moves it from the Unhandled tab to the Acknowledged tab', async (t) => {
    const { switchB } = e.data.cis;
    await e.k.post(e.data.stream.key, [{ '@timestamp': e.k.iso(), check: 'cpu', host: switchB.name, severity: 'major', value: 95 }]);
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    const nav = page.getByRole('navigation', { name: 'Main' });
    const rowIn = (tab: string) =>
      page
        .getByRole('table', { name: `${tab} problems` })
        .getByRole('row')
        .filter({ hasText: switchB.name });

    await rowIn('Unhandled').waitFor();
    await rowIn('Unhandled').getByRole('link', { name: e.data.triggers.cpu.name }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/problems/'));
    await page.getByRole('heading', { level: 1, name: `${e.data.triggers.cpu.name} on ${switchB.name}` }).waitFor();
    await page.getByLabel('Acknowledgement note (optional)').fill('Replacing the fan');
    await page.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await page.getByText('Open, acknowledged').waitFor();
    t.ok(await page.getByRole('button', { name: 'Unacknowledge' }).isVisible(), 'the page offers to take it back');

    await nav.getByRole('link', { name: 'Problems' }).click();
    await page.getByRole('tab', { name: /^Unhandled/, selected: true }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /unhandled problems?$/ })
      .waitFor();
    t.equal(await rowIn('Unhandled').count(), 0, 'no longer unhandled');
    await page.getByRole('tab', { name: /^Acknowledged/ }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'acknowledged');
    await rowIn('Acknowledged').waitFor();
    t.match(await rowIn('Acknowledged').textContent(), /Acknowledged by admin/, 'acknowledged, and by whom');
    t.same(troubles, []);
  });

  t.test('no screen logs a console error or has a failed request, and none has a serious or critical axe-core violation, light or dark', async (t) => {
    const { checkout, web1 } = e.data.cis;
    const cpu = e.data.triggers.cpu.name;
    const screens: Array<{ name: string; path: string; ready: (page: Page) => Promise<unknown> }> = [
      {
        name: 'problems',
        path: '/problems',
        ready: (page) => page.getByRole('table', { name: 'Unhandled problems' }).getByRole('row').filter({ hasText: web1.name }).first().waitFor(),
      },
      {
        name: 'problem page',
        path: `/problems/${e.data.problems.get(web1.name)}`,
        ready: async (page) => {
          await page.getByRole('heading', { level: 1, name: `${cpu} on ${web1.name}` }).waitFor();
          await page.getByRole('heading', { level: 2, name: 'Hits' }).waitFor();
        },
      },
      { name: 'CMDB tree', path: '/cmdb', ready: (page) => page.getByRole('treeitem', { name: 'dc-frankfurt' }).waitFor() },
      {
        name: 'CI page with the impact graph',
        path: `/cmdb/ci/${checkout.id}?tab=links&depth=2`,
        ready: async (page) => {
          await page.getByRole('heading', { level: 1, name: checkout.name }).waitFor();
          await page
            .getByRole('img', { name: `Impact of ${checkout.name}: a drawing of the CIs listed below` })
            .locator('canvas')
            .first()
            .waitFor();
          await page.getByRole('heading', { level: 3, name: 'The same CIs as a list' }).waitFor();
        },
      },
      { name: 'CI page', path: `/cmdb/ci/${web1.id}`, ready: (page) => page.getByRole('heading', { level: 1, name: web1.name }).waitFor() },
      { name: 'maintenance', path: '/maintenance', ready: (page) => page.getByRole('cell', { name: 'db-01 kernel patch' }).waitFor() },
      { name: 'SLA', path: '/sla', ready: (page) => page.getByRole('cell', { name: e.data.slaTemplate.name }).first().waitFor() },
      {
        name: 'streams',
        path: '/streams',
        ready: (page) => page.getByRole('link', { name: 'syslog' }).first().waitFor(),
      },
      { name: "a stream's events", path: `/streams?stream=${e.data.stream.id}`, ready: (page) => page.getByRole('table', { name: 'Events, newest first' }).waitFor() },
      { name: 'admin', path: '/admin/triggers', ready: (page) => page.getByRole('cell', { name: e.data.triggers.link.name, exact: true }).waitFor() },
    ];
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context } = await e.page(ADMIN_TOKEN, { colorScheme });
      for (const screen of screens) {
        const w = watched(context, await context.newPage());
        await w.page.goto(`${e.base}${screen.path}`);
        await screen.ready(w.page);
        await w.settled();
        t.same(w.troubles, [], `${screen.name} (${screen.path}), ${colorScheme}: no console error, no failed request`);
        t.same(await seriousViolations(w.page), [], `${screen.name}, ${colorScheme}: no serious or critical axe-core violation`);
        await w.page.close();
      }
      await context.close();

      const signedOut = await e.page(undefined, { colorScheme });
      signedOut.excuse(401, '/api/console/v1/session');
      await signedOut.page.goto(`${e.base}/sign-in`);
      await signedOut.page.getByLabel('Token').waitFor();
      await signedOut.settled();
      t.same(signedOut.troubles, [], `sign-in, ${colorScheme}: no console error, no failed request`);
      t.same(await seriousViolations(signedOut.page), [], `sign-in, ${colorScheme}: no serious or critical axe-core violation`);
      await signedOut.context.close();
    }
  });
}

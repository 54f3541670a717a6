/**
 * Issue #32, the console in a real browser: who sees what (a user with rights on one subtree sees
 * that subtree and its problems, nothing else), sign-out ending the session for the cookie the
 * browser held, and a change with the cookie but without the CSRF proof refused. The platform
 * runs in this process on the installation of console-data.ts.
 */
import t from 'tap';
import { missingChromium } from '../support/browser.js';
import { call } from '../support/http.js';
import { ADMIN_TOKEN } from '../support/platform.js';
import { CIS, E2e, SESSION } from './e2e-kit.js';

const unavailable = missingChromium();
if (unavailable) {
  t.plan(0, unavailable);
} else {
  const e = new E2e();
  t.before(() => e.start());
  t.teardown(() => e.stop());

  t.test('a user with rights on one subtree sees only that subtree in the CMDB tree, and only its problems', async (t) => {
    const { k } = e;
    // world ▸ site-east ▸ east-1, east-2 and world ▸ site-west ▸ west-1, all the admin's; the
    // team gets read on site-east's tree only, so site-east is its top level.
    const owner = await k.workGroup('Facilities');
    const team = await k.workGroup('East team');
    const carol = await k.user([team.id], 'carol');
    const world = await k.ci({ name: 'world', ownerWorkGroup: { id: owner.id } });
    const east = await k.ci({ name: 'site-east', parent: { id: world.id } });
    const east1 = await k.ci({ name: 'east-1', parent: { id: east.id } });
    await k.ci({ name: 'east-2', parent: { id: east.id } });
    const west = await k.ci({ name: 'site-west', parent: { id: world.id } });
    const west1 = await k.ci({ name: 'west-1', parent: { id: west.id } });
    await k.grant(east.id, team.id, 'Tree', ['base-system.rsm.read']);
    await k.post(e.data.stream.key, [
      { '@timestamp': k.iso(), check: 'cpu', host: east1.name, severity: 'critical' },
      { '@timestamp': k.iso(), check: 'cpu', host: west1.name, severity: 'critical' },
    ]);

    const { page, context, troubles, excuse } = await e.page(carol.token);
    t.teardown(() => context.close());
    const tree = page.getByRole('tree', { name: 'CI hierarchy' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'CMDB' }).click();
    await tree.getByRole('treeitem', { name: 'site-east' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'at the top level' }).waitFor();
    const topLevel = await tree.getByRole('treeitem').evaluateAll((rows) => rows.map((r) => r.querySelector('a')?.textContent));
    t.same(topLevel, ['site-east'], 'the top level is the subtree it may read, and nothing else');
    t.equal(await page.getByRole('status').filter({ hasText: 'at the top level' }).textContent(), '1 at the top level. Arrow keys move and open, Enter opens a CI.');

    await tree.getByRole('treeitem', { name: 'site-east' }).click();
    await page.keyboard.press('ArrowRight');
    await tree.getByRole('treeitem', { name: 'east-2' }).waitFor();
    const rows = await tree.getByRole('treeitem').evaluateAll((items) => items.map((r) => `${r.getAttribute('aria-level')} ${r.querySelector('a')?.textContent}`));
    t.same(rows, ['1 site-east', '2 east-1', '2 east-2'], 'opened, it shows its children');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Problems' }).click();
    const table = page.getByRole('table', { name: 'Unhandled problems' });
    await table.getByRole('row').filter({ hasText: 'east-1' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /unhandled problems?$/ })
      .waitFor();
    const cis = await table.locator('.c-ci a').allTextContents();
    t.same(cis, ['east-1'], "the problems of its subtree only (not west-1's, not the rest of the installation's)");
    t.equal(
      await page
        .getByRole('status')
        .filter({ hasText: /unhandled problems?$/ })
        .textContent(),
      '1 unhandled problem',
    );

    // The rest of the installation is not there to be opened by URL either.
    excuse(403, `${CIS}/${west1.id}?`);
    excuse(404, `${CIS}/${west1.id}?`);
    await page.goto(`${e.base}/cmdb/ci/${west1.id}`);
    await page.getByRole('heading', { level: 1, name: /not found|not allowed/i }).waitFor();
    t.notOk(await page.getByText('west-1').isVisible(), 'its name is not shown');
    t.same(troubles, [], 'nothing failed but that refusal');
  });

  t.test('signing out ends the session: the cookie the browser held gets 401 from the session and from the public API', async (t) => {
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.getByRole('heading', { level: 1, name: 'Problems' }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'ops_session');
    if (!cookie) throw new Error('no ops_session cookie after the sign-in');
    const header = { cookie: `ops_session=${cookie.value}` };
    t.equal((await call(e.base, 'GET', CIS, { headers: header })).status, 200, 'before: the cookie reads the public API');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.getByLabel('Token').waitFor();
    t.notOk(
      (await context.cookies()).some((c) => c.name === 'ops_session'),
      'the browser no longer holds the cookie',
    );

    const session = await call(e.base, 'GET', SESSION, { headers: header });
    t.equal(session.status, 401, 'GET /api/console/v1/session with the old cookie: 401');
    t.equal(session.body?.code, 'session.none');
    const list = await call(e.base, 'GET', CIS, { headers: header });
    t.equal(list.status, 401, 'GET config-items with the old cookie: 401');
    t.equal(list.body?.code, 'session.none');

    // Nothing on the way out was refused: the console stopped asking in the ended session's name.
    t.same(troubles, [], 'no request failed, no console error');
  });

  t.test('a change with the session cookie but without the CSRF proof is refused with 403, and changes nothing', async (t) => {
    const { page, context, excuse } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    excuse(403, CIS);
    await page.getByRole('heading', { level: 1, name: 'Problems' }).waitFor();
    const body = { name: 'csrf-probe', ownerWorkGroup: { id: e.data.groups.network.id } };

    // The context's request API carries the context's cookies, as a cross-site form would.
    const bare = await page.request.post(`${e.base}${CIS}`, { data: body, failOnStatusCode: false });
    t.equal(bare.status(), 403, 'the cookie alone: 403');
    t.equal(((await bare.json()) as { code?: string }).code, 'session.csrf_missing');

    const wrong = await page.request.post(`${e.base}${CIS}`, { data: body, headers: { 'x-csrf-token': 'A'.repeat(43) }, failOnStatusCode: false });
    t.equal(wrong.status(), 403, 'a proof that is not the session’s: 403');
    t.equal(((await wrong.json()) as { code?: string }).code, 'session.csrf_mismatch');

    // The same from the page's own script, as an injected script would do it.
    const fromPage = await page.evaluate(
      async ([path, json]) => {
        const answer = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: json });
        return { status: answer.status, code: ((await answer.json()) as { code?: string }).code };
      },
      [CIS, JSON.stringify(body)] as const,
    );
    t.same(fromPage, { status: 403, code: 'session.csrf_missing' }, 'fetch in the page without X-CSRF-Token: 403');
    const del = await page.request.delete(`${e.base}${SESSION}`, { failOnStatusCode: false });
    t.equal(del.status(), 403, 'not even sign-out goes without the proof');

    const listed = (await e.k.api('GET', CIS)).body as Array<{ name: string }>;
    t.notOk(
      listed.some((ci) => ci.name === 'csrf-probe'),
      'no CI was created',
    );

    // With the proof the session holds, the same request goes through: the proof was the difference.
    const { csrfToken } = (await (await page.request.get(`${e.base}${SESSION}`)).json()) as { csrfToken: string };
    const proved = await page.request.post(`${e.base}${CIS}`, { data: body, headers: { 'x-csrf-token': csrfToken }, failOnStatusCode: false });
    t.equal(proved.status(), 201, 'with X-CSRF-Token: 201');
    t.equal((await page.request.get(`${e.base}${SESSION}`)).status(), 200, 'and the session is still there');
  });
}

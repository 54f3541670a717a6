/**
 * Issue #33, the console's admin screens in a real browser: a token issued on the page is shown
 * once and works with the API, and revoked there it stops working; a user without the admin role
 * has no admin screen and the admin API refuses its token; changes made through the sections
 * reach the API; every section is free of console errors, failed requests and serious axe-core
 * violations. The platform runs in this process on the installation of console-data.ts; what a
 * test needs beyond it, it makes through the API.
 */
import t from 'tap';
import { ADMIN_API } from '../integration/cmdb/cmdb-kit.js';
import { missingChromium, seriousViolations } from '../support/browser.js';
import { call } from '../support/http.js';
import { ADMIN_TOKEN } from '../support/platform.js';
import { E2e, watched } from './e2e-kit.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

const unavailable = missingChromium();
if (unavailable) {
  t.plan(0, unavailable);
} else {
  const e = new E2e();
  t.before(() => e.start());
  t.teardown(() => e.stop());

  t.test('a token issued in the admin screen is shown once, and works with the API', async (t) => {
    const made = await e.k.api('POST', `${ADMIN_API}/users`, { json: { name: 'dora', roles: ['sla-reader'] } });
    t.equal(made.status, 201, 'a user to issue the token for');
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
    await page.getByRole('region', { name: 'Users' }).getByRole('link', { name: 'dora' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/users' && url.searchParams.get('user') === String(made.body.id));
    await page.getByRole('heading', { name: 'Tokens of dora' }).waitFor();
    await page.getByLabel('Token name').fill('deploy-bot');
    await page.getByRole('button', { name: 'Issue token' }).click();

    const shown = page.getByLabel('New token');
    await shown.waitFor();
    const token = await shown.inputValue();
    t.match(token, /^ops_/, 'the secret is on the page');
    t.match(await page.getByText('shown only this once').textContent(), /cannot be read again/, 'with the warning that it will not be shown again');

    const me = await call(e.base, 'GET', `${ADMIN_API}/me`, bearer(token));
    t.equal(me.status, 200, 'GET /api/admin/v1/me with the token read from the page: 200');
    t.equal(me.body.user.name, 'dora', 'in the name of the user it was issued for');
    t.equal(me.body.token.name, 'deploy-bot', 'as the token named on the form');
    const sla = await call(e.base, 'GET', '/api/public/sm/v1/sla/templates', bearer(token));
    t.equal(sla.status, 200, "and it reads what the user's roles allow");

    await page.getByRole('region', { name: 'Tokens' }).getByRole('cell', { name: 'deploy-bot', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    t.equal(await shown.count(), 0, 'dismissed, the secret is gone');
    await page.reload();
    await page.getByRole('heading', { name: 'Tokens of dora' }).waitFor();
    await page.getByRole('region', { name: 'Tokens' }).getByRole('cell', { name: 'deploy-bot', exact: true }).waitFor();
    t.equal(await page.getByText(token).count(), 0, 'reloaded, the token is listed but its secret is nowhere on the page');
    t.equal(await page.getByLabel('New token').count(), 0);
    t.same(troubles, [], 'no console error, no failed request');
  });

  t.test('a token revoked in the admin screen is refused by the API', async (t) => {
    const made = await e.k.api('POST', `${ADMIN_API}/users`, { json: { name: 'emil' } });
    const issued = await e.k.api('POST', `${ADMIN_API}/users/${made.body.id}/tokens`, { json: { name: 'old-laptop' } });
    t.equal((await call(e.base, 'GET', `${ADMIN_API}/me`, bearer(issued.body.token))).status, 200, 'before: the token works');
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());

    await page.goto(`${e.base}/admin/users?user=${made.body.id}`);
    await page.getByRole('button', { name: 'Revoke the token “old-laptop”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the token “old-laptop”?' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('region', { name: 'Tokens' }).getByText('Revoked').waitFor();

    const me = await call(e.base, 'GET', `${ADMIN_API}/me`, bearer(issued.body.token));
    t.equal(me.status, 401, 'after: 401');
    t.equal(me.body?.code, 'auth.token_revoked');
    t.same(troubles, [], 'no console error, no failed request');
  });

  t.test('a user without the admin role gets no admin screen, and the admin API answers its token 403', async (t) => {
    const { alice } = e.data;
    const { page, context, troubles } = await e.page(alice.token);
    t.teardown(() => context.close());
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));

    await page.getByRole('heading', { level: 1, name: 'Problems' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Maintenance' }).waitFor();
    t.equal(await nav.getByRole('link', { name: 'Admin' }).count(), 0, 'no Admin entry in the navigation');

    for (const path of ['/admin', '/admin/users', '/admin/receivers']) {
      await page.goto(`${e.base}${path}`);
      await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
      t.match(await page.getByRole('main').textContent(), /needs the platform right base-system\.admin, which your user does not hold/, `${path}: the page says so`);
      t.equal(await page.getByRole('navigation', { name: 'Admin sections' }).count(), 0, `${path}: no section is offered`);
    }
    t.same(
      requests.filter((p) => p.startsWith(ADMIN_API)),
      [],
      'the page asked the admin API nothing',
    );

    for (const path of ['/users', `/users/${alice.id}/tokens`, '/work-groups', '/roles', '/config-item-types', '/cmdb-systems', '/sla/templates']) {
      const answer = await call(e.base, 'GET', `${ADMIN_API}${path}`, bearer(alice.token));
      t.equal(answer.status, 403, `GET ${ADMIN_API}${path} with its token: 403`);
    }
    const issue = await call(e.base, 'POST', `${ADMIN_API}/users/${alice.id}/tokens`, { ...bearer(alice.token), json: { name: 'mine' } });
    t.equal(issue.status, 403, 'issuing itself a token: 403');
    const promote = await call(e.base, 'PATCH', `${ADMIN_API}/users/${alice.id}`, { ...bearer(alice.token), json: { roles: ['admin'] } });
    t.equal(promote.status, 403, 'giving itself the admin role: 403');
    t.same(troubles, [], 'no console error, no failed request');
  });

  t.test('every admin section, list and forms, has no console error, no failed request and no serious axe-core violation', async (t) => {
    const { data } = e;
    const context = await e.browser.newContext({ viewport: { width: 1280, height: 800 } });
    t.teardown(() => context.close());
    const first = watched(context, await context.newPage());
    await first.page.goto(`${e.base}/sign-in`);
    await first.page.getByLabel('Token').fill(ADMIN_TOKEN);
    await first.page.getByRole('button', { name: 'Sign in' }).click();
    await first.page.waitForURL((url) => url.pathname !== '/sign-in');
    await first.page.close();
    const views: Array<{ path: string; ready: string }> = [
      { path: '/admin', ready: 'Users' },
      { path: `/admin/users?user=${data.alice.id}`, ready: 'Tokens of alice' },
      { path: '/admin/users?new=1', ready: 'New user' },
      { path: `/admin/work-groups?group=${data.groups.network.id}`, ready: 'Members' },
      { path: '/admin/roles?role=admin', ready: 'Role admin' },
      { path: '/admin/roles?new=1', ready: 'New role' },
      { path: '/admin/ci-types', ready: 'Icons' },
      { path: '/admin/ci-types?new=1', ready: 'New CI type' },
      { path: '/admin/cmdb-systems?new=1', ready: 'New CMDB system' },
      { path: `/admin/sla-templates?template=${data.slaTemplate.id}`, ready: `SLA template ${data.slaTemplate.name}` },
      { path: '/admin/sla-templates?new=1', ready: 'New SLA template' },
      { path: '/admin/receivers', ready: 'Receivers' },
      { path: '/admin/receivers?new=1', ready: 'New receiver' },
      { path: '/admin/policies?new=1', ready: 'New policy' },
      { path: '/admin/triggers', ready: 'Triggers' },
    ];
    for (const view of views) {
      const w = watched(context, await context.newPage());
      await w.page.goto(`${e.base}${view.path}`);
      await w.page.getByRole('heading', { name: view.ready, exact: true }).first().waitFor();
      await w.settled();
      t.same(w.troubles, [], `${view.path}: no console error, no failed request`);
      t.same(await seriousViolations(w.page), [], `${view.path}: no serious or critical axe-core violation`);
      await w.page.close();
    }
  });
}

/**
 * Issue #33, the console's maintenance screens in a real browser: the calendar (month, week and
 * list, recurring modes at each occurrence, canceled ones marked), the mode form with its live
 * preview (a weekly mode across the spring DST change, compared with what the API answers),
 * canceling and completing with the spec's rules shown, calendar feeds, and every screen free
 * of console errors, failed requests and serious axe-core violations. Extra modes are made
 * through the API here; the platform runs in this process on console-data.ts.
 */
import t from 'tap';
import { missingChromium, seriousViolations } from '../support/browser.js';
import { ADMIN_TOKEN } from '../support/platform.js';
import { E2e } from './e2e-kit.js';

const MAINT = '/api/public/sm/v1/rsm-maintenance';
const HOUR = 3_600_000;

interface Window {
  dateStart: string;
  dateEnd: string;
}

const unavailable = missingChromium();
if (unavailable) {
  t.plan(0, unavailable);
} else {
  const e = new E2e();
  t.before(() => e.start());
  t.teardown(() => e.stop());

  const create = async (body: Record<string, unknown>): Promise<{ id: number }> => {
    const answer = await e.k.api('POST', MAINT, { json: body });
    if (answer.status !== 201) throw new Error(`mode not created: ${answer.status} ${answer.text}`);
    return answer.body as { id: number };
  };

  t.test('a weekly mode across the spring DST change, made with the form, previews the windows the API gives, the DST night said as such', async (t) => {
    const { cluster } = e.data.cis;
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.goto(`${e.base}/maintenance/new`);
    const form = page.getByRole('form', { name: 'New maintenance mode' });
    await form.getByLabel('Title').fill('Weekly patch window');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByLabel('Start').fill('2027-03-21T02:00');
    await form.getByLabel('End').fill('2027-03-21T04:00');
    await form.getByLabel('CI 1').fill(cluster.name);
    await form
      .getByRole('button', { name: new RegExp(cluster.name) })
      .first()
      .click();
    await form.getByLabel('Scope').selectOption('CiAndChildren');
    await form.getByLabel('Repeats').check();
    t.equal(await form.getByLabel('RRULE').inputValue(), 'FREQ=WEEKLY;BYDAY=SU', 'the builder starts weekly on the start’s weekday');

    const windows = page.getByRole('table', { name: 'Next windows' });
    await windows.getByRole('row').nth(10).waitFor();
    const shown = await windows.locator('tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const times = [...row.querySelectorAll('time')].map((el) => el.getAttribute('datetime'));
        return { dateStart: times[0], dateEnd: times[1] };
      }),
    );
    const asked = await e.k.api('POST', `${MAINT}/preview?occurrences=10`, {
      json: {
        dateStart: '2027-03-21T02:00:00+01:00',
        dateEnd: '2027-03-21T04:00:00+01:00',
        configItems: [{ id: cluster.id, scope: 'CiAndChildren', depth: -1 }],
        recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
      },
    });
    t.equal(asked.status, 200);
    const api = (asked.body as { occurrences: Window[] }).occurrences.map((o) => ({ dateStart: o.dateStart, dateEnd: o.dateEnd }));
    t.same(shown, api, "the form's preview shows the preview endpoint's windows");
    t.same(shown[1], { dateStart: '2027-03-28T01:00:00.000Z', dateEnd: '2027-03-28T02:00:00.000Z' }, 'the DST night: 03:00–04:00 CEST, one hour');
    const dstRow = windows.getByRole('row').filter({ hasText: '2027-03-28 03:00' });
    t.match(await dstRow.textContent(), /DST night/, 'said as such');
    t.match(await page.getByRole('list', { name: 'CIs covered' }).textContent(), new RegExp(cluster.name), 'the preview names the CIs covered');

    await form.getByRole('button', { name: 'Create mode' }).click();
    await page.waitForURL((url) => /^\/maintenance\/\d+$/.test(url.pathname));
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: 'Weekly patch window' }).waitFor();
    const saved = await e.k.api('GET', `${MAINT}/${id}`);
    const next = (saved.body as { recurrence: { next: Window[] } }).recurrence.next;
    t.same(next, api.slice(0, next.length), 'the saved mode’s next windows are those the form previewed');
    await page.getByRole('table', { name: 'Next windows' }).getByRole('row').nth(1).waitFor();
    t.same(troubles, [], 'no console error or failed request');
  });

  t.test('the month view draws a recurring mode at each occurrence and marks a canceled mode; week and list views are deep links', async (t) => {
    const { web1 } = e.data.cis;
    await create({
      title: 'Wednesday backup',
      dateStart: '2027-05-05T10:00:00Z',
      dateEnd: '2027-05-05T11:00:00Z',
      configItems: [{ id: web1.id, scope: 'Ci' }],
      recurrence: { rule: 'FREQ=WEEKLY;BYDAY=WE', timeZone: 'UTC' },
    });
    const dropped = await create({ title: 'Dropped disk swap', dateStart: '2027-05-14T10:00:00Z', dateEnd: '2027-05-14T11:00:00Z', configItems: [{ id: web1.id, scope: 'Ci' }] });
    t.equal((await e.k.api('PATCH', `${MAINT}/${dropped.id}`, { json: { cancel: true } })).status, 200);

    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.goto(`${e.base}/maintenance?view=month&date=2027-05-12`);
    const month = page.getByRole('table', { name: /Maintenance windows, May 2027/ });
    await month
      .getByRole('link', { name: /Wednesday backup/ })
      .first()
      .waitFor();
    t.equal(await month.getByRole('link', { name: /Wednesday backup/ }).count(), 5, 'on each Wednesday the grid shows: 5 to 26 May, and 2 June in its last week');
    t.match(await month.getByRole('link', { name: /Dropped disk swap/ }).textContent(), /\(canceled\)/, 'the canceled mode is marked');

    await page.getByRole('navigation', { name: 'Calendar views' }).getByRole('link', { name: 'Week' }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'week');
    await page
      .getByRole('table', { name: /Maintenance windows, Week of/ })
      .getByRole('link', { name: /Wednesday backup/ })
      .waitFor();

    await page.goto(`${e.base}/maintenance?view=list&date=2027-05-12`);
    const list = page.getByRole('table', { name: /Maintenance windows, / });
    await list.getByRole('link', { name: 'Wednesday backup' }).waitFor();
    t.equal(await list.getByRole('row').filter({ hasText: 'Wednesday backup' }).count(), 1, 'the list of 12–18 May has the backup once');
    t.match(await list.getByRole('row').filter({ hasText: 'Dropped disk swap' }).textContent(), /Canceled/, 'and the canceled swap, said canceled');
    t.same(troubles, []);
  });

  t.test('a mode that has not started is canceled, a running one completed, each with the rule shown first', async (t) => {
    const { web2 } = e.data.cis;
    const now = e.k.clock;
    const planned = await create({
      title: 'Planned reboot',
      dateStart: new Date(now + 48 * HOUR).toISOString(),
      dateEnd: new Date(now + 49 * HOUR).toISOString(),
      configItems: [{ id: web2.id, scope: 'Ci' }],
    });
    const running = await create({
      title: 'Running reboot',
      dateStart: new Date(now - HOUR / 2).toISOString(),
      dateEnd: new Date(now + HOUR).toISOString(),
      configItems: [{ id: web2.id, scope: 'Ci' }],
    });
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());

    await page.goto(`${e.base}/maintenance/${planned.id}`);
    const rule = page.getByRole('region', { name: /^(Cancel|Complete)$/ });
    await rule.getByText('The mode has not started, so it can be canceled').first().waitFor();
    await page.getByRole('button', { name: 'Cancel this mode' }).click();
    await page.getByRole('dialog', { name: 'Cancel this maintenance mode?' }).getByRole('button', { name: 'Cancel this mode' }).click();
    await page.getByText('This mode is canceled: a mode that has ended can be neither canceled nor completed').waitFor();
    t.equal((await e.k.api('GET', `${MAINT}/${planned.id}`)).body.state, 'Canceled');

    await page.goto(`${e.base}/maintenance/${running.id}`);
    await rule.getByText('The mode is running, so it cannot be canceled, only completed').first().waitFor();
    t.ok(await page.getByLabel('Start').isDisabled(), 'a started mode keeps its start');
    await page.getByRole('button', { name: 'Complete now' }).click();
    await page.getByRole('dialog', { name: 'Complete this maintenance mode now?' }).getByRole('button', { name: 'Complete now' }).click();
    await page.getByText('This mode is completed').waitFor();
    t.equal((await e.k.api('GET', `${MAINT}/${running.id}`)).body.state, 'Completed');
    t.same(troubles, []);
  });

  t.test('a field the API refuses is marked at that field', async (t) => {
    const { web2 } = e.data.cis;
    const { page, context, troubles, excuse } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    excuse(400, MAINT);
    await page.goto(`${e.base}/maintenance/new`);
    const form = page.getByRole('form', { name: 'New maintenance mode' });
    await form.getByLabel('Time zone').fill('UTC');
    await form.getByLabel('Start').fill('2020-01-01T10:00');
    await form.getByLabel('End').fill('2020-01-01T11:00');
    await form.getByLabel('CI 1').fill(web2.name);
    await form
      .getByRole('button', { name: new RegExp(web2.name) })
      .first()
      .click();
    await form.getByRole('button', { name: 'Create mode' }).click();
    const end = form.getByLabel('End');
    await form.locator('#mform-end[aria-invalid="true"]').waitFor();
    t.match(await page.locator('#mform-end-error').textContent(), /./, 'the end says what is wrong with it');
    t.equal(await end.getAttribute('aria-invalid'), 'true');
    t.same(troubles, []);
  });

  t.test('a calendar feed is created, its URL shown to copy, and revoked', async (t) => {
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.goto(`${e.base}/maintenance`);
    const feeds = page.getByRole('region', { name: 'Calendar feeds' });
    await feeds.getByLabel('Feed name').fill('Ops calendar');
    await feeds.getByRole('button', { name: 'Create feed' }).click();
    const url = await feeds.getByLabel('Feed URL').inputValue();
    t.match(url, /^http:\/\/.+\/api\/public\/sm\/v1\/rsm-maintenance\/calendar\.ics\?feedToken=/, 'the full address to subscribe to');
    t.equal((await fetch(url)).status, 200, 'which serves the calendar');
    await feeds.getByRole('button', { name: 'Revoke Ops calendar' }).click();
    await page
      .getByRole('dialog', { name: /Revoke the feed Ops calendar/ })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await feeds.getByRole('cell', { name: /Revoked/ }).waitFor();
    t.equal((await fetch(url)).status, 401, 'a revoked feed answers 401');
    t.same(troubles, []);
  });

  t.test('every maintenance screen is free of console errors, failed requests and serious axe-core violations, light and dark', async (t) => {
    const mode = await create({
      title: 'Axe check',
      dateStart: new Date(e.k.clock + 72 * HOUR).toISOString(),
      dateEnd: new Date(e.k.clock + 73 * HOUR).toISOString(),
      configItems: [{ id: e.data.cis.web1.id, scope: 'Ci' }],
    });
    const screens = [
      { name: 'month', path: '/maintenance', ready: 'Month calendar' },
      { name: 'week', path: '/maintenance?view=week', ready: 'Week calendar' },
      { name: 'list', path: '/maintenance?view=list', ready: 'Maintenance windows list' },
      { name: 'new mode', path: '/maintenance/new', ready: 'New maintenance mode' },
      { name: 'mode', path: `/maintenance/${mode.id}`, ready: 'Edit Axe check' },
    ];
    for (const colorScheme of ['light', 'dark'] as const) {
      const w = await e.page(ADMIN_TOKEN, { colorScheme });
      for (const screen of screens) {
        await w.page.goto(`${e.base}${screen.path}`);
        await w.page.getByRole(screen.path.startsWith('/maintenance/') ? 'form' : 'region', { name: screen.ready }).waitFor();
        await w.settled();
        t.same(await seriousViolations(w.page), [], `${screen.name}, ${colorScheme}: no serious or critical axe-core violation`);
      }
      t.same(w.troubles, [], `${colorScheme}: no console error or failed request`);
      await w.context.close();
    }
  });
}

/**
 * Issue #33, the console's streams screens and trigger editor in a real browser (Debian's
 * Chromium driven by playwright-core): a live tail that follows posted records and pauses, a
 * trigger dry-run in the editor that names the CIs it would hit before anything is saved, the
 * key rotated and shown once, what a stream reader sees, and every screen free of console errors,
 * failed requests and serious axe-core violations. The platform runs in this process on the
 * installation of console-data.ts; what a test needs beyond it is posted here, through the API.
 */
import t from 'tap';
import { STREAM_DATA, TRIGGERS } from '../integration/problems/problems-kit.js';
import { missingChromium, type Page, seriousViolations } from '../support/browser.js';
import { ADMIN_TOKEN } from '../support/platform.js';
import { E2e, watched } from './e2e-kit.js';

const MINUTE = 60_000;

const unavailable = missingChromium();
if (unavailable) {
  t.plan(0, unavailable);
} else {
  const e = new E2e();
  t.before(() => e.start());
  t.teardown(() => e.stop());

  /** The rows of a table as the text of their cells. */
  const rowsOf = (page: Page, name: string): Promise<string[][]> =>
    page
      .getByRole('table', { name })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));

  t.test('tailing a stream shows records as they are posted; pausing holds new ones back and resuming shows them', async (t) => {
    const { stream } = e.data;
    // The tail shows what is received from when it opens: the seed, received before, is not replayed.
    e.k.tick(2000);
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.goto(`${e.base}/streams?stream=${stream.id}&show=tail`);
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor();
    const table = page.getByRole('table', { name: 'Live tail, newest first' });

    e.k.tick(1000);
    await e.k.post(stream.key, [{ check: 'tail', host: 'tail-first', n: 1 }]);
    await table.getByRole('row').filter({ hasText: 'tail-first' }).waitFor();
    t.pass('a posted record appears in the tail without a reload');

    await page.getByRole('button', { name: 'Pause' }).click();
    e.k.tick(1000);
    await e.k.post(stream.key, [{ check: 'tail', host: 'tail-second', n: 2 }]);
    await page.getByText('Paused: 1 new record held').waitFor();
    t.equal(await table.getByRole('row').filter({ hasText: 'tail-second' }).count(), 0, 'paused, the new record is held, not shown');

    await page.getByRole('button', { name: 'Resume' }).click();
    await table.getByRole('row').filter({ hasText: 'tail-second' }).waitFor();
    const rows = await rowsOf(page, 'Live tail, newest first');
    t.same(
      rows.map((r) => JSON.parse(r[3]!).host),
      ['tail-second', 'tail-first'],
      'resumed, the held record is shown, newest first, and nothing else',
    );
    t.equal(new URL(page.url()).searchParams.get('show'), 'tail', 'the tail is in the URL');
    t.same(troubles, [], 'no console error, no failed request');
  });

  t.test('a trigger edited in the form and dry-run shows the CIs it would hit with their counts; nothing is saved until Save', async (t) => {
    const { stream, cis } = e.data;
    const at = (minutesAgo: number): string => new Date(e.k.clock - minutesAgo * MINUTE).toISOString();
    await e.k.post(stream.key, [
      { '@timestamp': at(10), check: 'fs', host: cis.web1.name, status: 'full' },
      { '@timestamp': at(9), check: 'fs', host: cis.web1.name, status: 'full' },
      { '@timestamp': at(8), check: 'fs', host: cis.web1.name, status: 'ok' },
      { '@timestamp': at(7), check: 'fs', host: cis.web1.name, status: 'full' },
      { '@timestamp': at(6), check: 'fs', host: cis.db1.name, status: 'full' },
      { '@timestamp': at(5), check: 'fs', host: 'no-such-host', status: 'full' },
    ]);
    const { page, context, troubles, excuse } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    // The refused dry run below is asked for on purpose.
    excuse(400, '/api/admin/v1/triggers/dry-run');
    await page.goto(`${e.base}/streams?stream=${stream.id}`);
    await page.getByRole('link', { name: 'New trigger' }).click();
    await page.waitForURL((url) => url.pathname === '/streams/triggers/new');
    const form = page.getByRole('form', { name: 'New trigger' });
    await form.getByLabel('Name').fill('Filesystem full');
    t.ok(await form.getByRole('checkbox', { name: 'syslog' }).isChecked(), 'a trigger opened from a stream listens to it');
    const condition = form.getByRole('group', { name: 'Condition 1' });
    await condition.getByLabel('Field').fill('check');

    // A pattern the API refuses: its message is shown at the pattern.
    await condition.getByLabel('Operator').selectOption({ label: 'matches' });
    await condition.getByLabel('Pattern').fill('(fs');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await condition.locator('input[aria-invalid="true"]').waitFor();
    t.equal(await condition.locator('input[aria-invalid="true"]').getAttribute('id'), await condition.getByLabel('Pattern').getAttribute('id'), 'the pattern is marked invalid');
    t.match(await condition.locator('.field-error').textContent(), /\S/, 'the refusal is said at the pattern field');

    await condition.getByLabel('Operator').selectOption({ label: 'equals' });
    await condition.getByLabel('Value').fill('fs');
    await form.getByLabel('The priority is').selectOption({ label: 'always the same' });
    await form.getByLabel('Priority', { exact: true }).fill('2');
    await form.getByLabel('Resolve field').fill('status');
    await form.getByLabel('Resolving values').fill('ok');
    await page.getByRole('button', { name: 'Dry run' }).click();
    const hits = page.getByRole('table', { name: 'CIs the trigger would hit, most problems first' });
    await hits.waitFor();
    const rows = await rowsOf(page, 'CIs the trigger would hit, most problems first');
    t.same(
      rows.map((r) => r.slice(0, 6)),
      [
        [cis.web1.name, '4', '2', '1', 'Yes', 'P2'],
        [cis.db1.name, '1', '1', '0', 'Yes', 'P2'],
      ],
      'each CI with its hits, problems opened and resolved, whether one stays open, and the priority',
    );
    t.match(
      await page.getByRole('status').filter({ hasText: 'examined' }).textContent(),
      /6 met the conditions, 1 of them naming no CI the CMDB holds; 2 CIs would be hit/,
      'and the records that matched but named no CI',
    );
    const before = await e.k.api('GET', TRIGGERS);
    t.notOk(
      (before.body as Array<{ name: string }>).some((x) => x.name === 'Filesystem full'),
      'the dry run saved nothing',
    );

    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => /^\/streams\/triggers\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { level: 1, name: 'Filesystem full' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1);
    const saved = await e.k.api('GET', `${TRIGGERS}/${id}`);
    t.match(
      saved.body,
      {
        name: 'Filesystem full',
        streamIds: [stream.id],
        match: [{ field: 'check', op: 'equals', value: 'fs' }],
        ci: { by: 'nameField', field: 'host' },
        priority: { value: 2 },
        resolve: { field: 'status', values: ['ok'] },
      },
      'Save stored the trigger as the form had it',
    );
    t.same(troubles, [], 'no console error, no failed request');
  });

  t.test("rotating a stream's key asks first, then shows the new key once with a copy button", async (t) => {
    const created = await e.k.api('POST', '/api/admin/v1/streams', { json: { name: 'rotation' } });
    const id = created.body.id as number;
    const { page, context, troubles } = await e.page(ADMIN_TOKEN);
    t.teardown(() => context.close());
    await page.goto(`${e.base}/streams?stream=${id}`);
    await page.getByRole('button', { name: 'Rotate key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the key of rotation?' });
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    const fresh = page.locator('.stream-fresh-key');
    await fresh.waitFor();
    const stored = await e.k.api('GET', `/api/admin/v1/streams/${id}`);
    t.not(stored.body.key, created.body.key, 'the key changed');
    t.equal(await fresh.locator('code').textContent(), stored.body.key, 'the new key is shown');
    t.ok(await fresh.getByRole('button', { name: 'Copy new key' }).isVisible(), 'with a copy button');
    await fresh.getByRole('button', { name: 'Done' }).click();
    t.equal(await page.getByText(stored.body.key).count(), 0, 'once: after Done it is hidden again');
    t.not((await e.k.api('POST', `${STREAM_DATA}?streamKey=${created.body.key}`, { json: { a: 1 }, token: null })).status, 200, 'the old key is refused');
    t.same(troubles, [], 'no console error, no failed request');
  });

  t.test('a stream reader sees every stream, and the one it opens with its name, activity, tail and dead letters, but no key, rotation or trigger editor', async (t) => {
    const created = await e.k.api('POST', '/api/admin/v1/streams', {
      json: { name: 'app-log', config: { framing: 'lines', parser: { type: 'text', pattern: '^(?<level>[A-Z]+) (?<msg>.*)$' } } },
    });
    const app = { id: created.body.id as number, key: created.body.key as string };
    const posted = await e.k.api('POST', `${STREAM_DATA}?streamKey=${app.key}`, {
      body: 'ERROR disk full\nlowercase does not match\n',
      headers: { 'content-type': 'text/plain' },
      token: null,
    });
    t.equal(posted.status, 200, 'posted');
    await e.k.problemsSettled();

    const { page, context, troubles } = await e.page(e.data.alice.token);
    t.teardown(() => context.close());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Streams' }).click();
    const list = page.getByRole('table', { name: 'Streams' });
    await list.getByRole('link', { name: 'app-log' }).waitFor();
    t.notOk((await list.textContent())?.includes(app.key), 'the list shows no key');
    await list.getByRole('link', { name: 'app-log' }).click();
    await page.getByRole('heading', { level: 2, name: `app-log #${app.id}` }).waitFor();
    await page.getByText(/1 in all/).waitFor();
    t.pass('the activity of the last hour, with its dead letter');
    await page.getByRole('link', { name: 'Dead letters' }).click();
    await page.getByRole('table', { name: 'Dead letters, newest first' }).waitFor();
    const reasons = await rowsOf(page, 'Dead letters, newest first');
    t.same(
      reasons.map((r) => r[2]),
      ['lowercase does not match'],
      'its dead letters with their payloads',
    );
    t.match(reasons[0]![1], /pattern/, 'and their reasons');
    await page.getByRole('link', { name: 'Live tail' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor();
    t.equal(await page.getByRole('button', { name: /Rotate key|Copy key|Show key/ }).count(), 0, 'no key and no rotation');
    t.equal(await page.getByRole('link', { name: 'New trigger' }).count(), 0, 'no trigger editor');
    await page.goto(`${e.base}/streams/triggers/new?stream=${app.id}`);
    await page.getByText('Triggers are written by administrators').waitFor();
    t.same(troubles, [], 'no console error, no failed request');
  });

  t.test('every streams screen has no console error, no failed request and no serious axe-core violation, light and dark', async (t) => {
    const { stream, triggers } = e.data;
    const screens: Array<{ name: string; path: string; ready: (page: Page) => Promise<unknown> }> = [
      { name: 'streams', path: '/streams', ready: (page) => page.getByRole('table', { name: 'Streams' }).getByText('/s').first().waitFor() },
      { name: 'events', path: `/streams?stream=${stream.id}`, ready: (page) => page.getByRole('table', { name: 'Events, newest first' }).waitFor() },
      {
        name: 'tail',
        path: `/streams?stream=${stream.id}&show=tail`,
        ready: (page) =>
          page
            .getByRole('status')
            .filter({ hasText: /^Live$/ })
            .waitFor(),
      },
      { name: 'dead letters', path: `/streams?stream=${stream.id}&show=dead-letters&range=1h`, ready: (page) => page.getByText('No dead letter in this range').waitFor() },
      { name: 'new trigger', path: `/streams/triggers/new?stream=${stream.id}`, ready: (page) => page.getByRole('form', { name: 'New trigger' }).waitFor() },
      {
        name: 'trigger editor',
        path: `/streams/triggers/${triggers.link.id}?stream=${stream.id}`,
        ready: (page) => page.getByRole('form', { name: `Edit ${triggers.link.name}` }).waitFor(),
      },
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
    }
  });
}

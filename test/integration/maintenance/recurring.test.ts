/**
 * Issue #17: recurring maintenance modes through the spec's endpoints and the preview. Worked
 * dates: a weekly Sunday 02:00–04:00 window in Europe/Berlin from 2027-03-21 (CET, UTC+1); on
 * 2027-03-28 clocks go 02:00 → 03:00 (CEST, UTC+2), so that night's window is 03:00–04:00 CEST
 * (01:00Z–02:00Z); from 2027-04-04 it is 00:00Z–02:00Z; on 2027-10-31 clocks go 03:00 → 02:00,
 * so 02:00 CEST–04:00 CET is 00:00Z–03:00Z. The clock is the kit's: time moves when a test sets it.
 */
import t from 'tap';
import { Kit, MAINT } from './maintenance-kit.js';

const k = new Kit();
let wg: number;
t.before(async () => {
  await k.start();
  wg = await k.workGroup();
});
t.teardown(() => k.stop());

const weekly = (ciId: number, extra: Record<string, unknown> = {}) => ({
  title: 'Weekly patch window',
  dateStart: '2027-03-21T02:00:00+01:00',
  dateEnd: '2027-03-21T04:00:00+01:00',
  configItems: [{ id: ciId, scope: 'Ci' }],
  recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
  ...extra,
});
const window = (dateStart: string, dateEnd: string) => ({ dateStart, dateEnd });

t.test('a recurring mode answers its first occurrence as dateStart/dateEnd and its next occurrences in UTC, across the spring-forward night', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const created = await k.create(weekly(ci));
  t.equal(created.status, 201, created.text);
  const mode = created.body;
  t.equal(mode.dateStart, '2027-03-21T01:00:00.000Z');
  t.equal(mode.dateEnd, '2027-03-21T03:00:00.000Z');
  t.equal(mode.state, 'Scheduled');
  t.match(mode.recurrence, { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin', exdates: [], seriesEnd: null, current: null });
  t.same(mode.recurrence.next, [
    window('2027-03-21T01:00:00.000Z', '2027-03-21T03:00:00.000Z'),
    window('2027-03-28T01:00:00.000Z', '2027-03-28T02:00:00.000Z'),
    window('2027-04-04T00:00:00.000Z', '2027-04-04T02:00:00.000Z'),
    window('2027-04-11T00:00:00.000Z', '2027-04-11T02:00:00.000Z'),
    window('2027-04-18T00:00:00.000Z', '2027-04-18T02:00:00.000Z'),
  ]);
  t.equal(mode.configItems[0].dateEnd, '9999-12-31T23:59:59.999Z', 'an endless series: the CI stays in scope with no end');
});

t.test('the occurrence running now is shown during it and not between two, though the mode stays Active', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const id = (await k.must(await k.create(weekly(ci)), 201, 'mode')).id;
  const at = async (iso: string) => {
    k.clock = Date.parse(iso);
    const mode = (await k.api('GET', `${MAINT}/${id}`)).body;
    return { state: mode.state, current: mode.recurrence.current };
  };
  t.same(await at('2027-03-28T01:30:00Z'), { state: 'Active', current: window('2027-03-28T01:00:00.000Z', '2027-03-28T02:00:00.000Z') });
  t.same(await at('2027-03-28T02:30:00Z'), { state: 'Active', current: null });
  t.notOk(await isCovered(ci, '2027-03-28T02:30:00Z'), 'the hour after the short window is not maintenance');
  t.ok(await isCovered(ci, '2027-03-28T01:30:00Z'), '03:30 CEST is');
  t.ok(await isCovered(ci, '2027-10-31T02:30:00Z'), 'the fall-back night: 03:30 CET lies inside 02:00 CEST–04:00 CET');
  t.notOk(await isCovered(ci, '2027-10-31T03:00:00Z'), '04:00 CET is the end');
});

/** Whether the CI's recurring mode (found by the #3 filter) has an occurrence running at `iso`. */
async function isCovered(ciId: number, iso: string): Promise<boolean> {
  k.clock = Date.parse(iso);
  const filtered = await k.api('POST', `${MAINT}/filter`, { json: { configItemIds: [ciId] } });
  const mode = filtered.body[0];
  return mode.recurrence.current !== null;
}

t.test('COUNT ends the series: seriesEnd is the last occurrence’s end, and the mode is Completed after it', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const mode = await k.must(await k.create(weekly(ci, { recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU;COUNT=3', timeZone: 'Europe/Berlin' } })), 201, 'mode');
  t.equal(mode.recurrence.seriesEnd, '2027-04-04T02:00:00.000Z');
  t.equal(mode.recurrence.next.length, 3);
  t.equal(mode.configItems[0].dateEnd, '2027-04-04T02:00:00.000Z');
  k.clock = Date.parse('2027-04-04T02:00:00Z');
  t.equal((await k.api('GET', `${MAINT}/${mode.id}`)).body.state, 'Completed');
});

t.test('an excluded date skips that day’s occurrence', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const mode = await k.must(await k.create(weekly(ci, { recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin', exdates: ['2027-03-28'] } })), 201, 'mode');
  t.same(mode.recurrence.next.slice(0, 2), [window('2027-03-21T01:00:00.000Z', '2027-03-21T03:00:00.000Z'), window('2027-04-04T00:00:00.000Z', '2027-04-04T02:00:00.000Z')]);
});

t.test('completing a running recurring mode ends its series now', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const id = (await k.must(await k.create(weekly(ci)), 201, 'mode')).id;
  k.clock = Date.parse('2027-04-04T01:00:00Z');
  const completed = await k.api('PATCH', `${MAINT}/${id}`, { json: { cancel: true } });
  t.equal(completed.status, 200, completed.text);
  t.equal(completed.body.state, 'Completed');
  t.equal(completed.body.recurrence.seriesEnd, '2027-04-04T01:00:00.000Z');
  t.same(completed.body.recurrence.next, []);
  t.equal(completed.body.dateEnd, '2027-03-21T03:00:00.000Z', 'the first occurrence stays as it was');
});

t.test('PUT without a recurrence makes the mode one-off again; PATCH without one keeps it', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const id = (await k.must(await k.create(weekly(ci)), 201, 'mode')).id;
  const patched = await k.must(await k.api('PATCH', `${MAINT}/${id}`, { json: { title: 'renamed' } }), 200, 'patch');
  t.equal(patched.recurrence.rule, 'FREQ=WEEKLY;BYDAY=SU');
  const { recurrence: _r, ...oneOff } = weekly(ci);
  const replaced = await k.must(await k.api('PUT', `${MAINT}/${id}`, { json: oneOff }), 200, 'put');
  t.equal(replaced.recurrence, undefined);
  t.equal(replaced.configItems[0].dateEnd, '2027-03-21T03:00:00.000Z');
});

t.test('a recurrence that cannot be used is a 400 naming each offending field', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  for (const [recurrence, path] of [
    [{ rule: 'FREQ=YEARLY', timeZone: 'Europe/Berlin' }, '/recurrence/rule'],
    [{ rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Mars/Olympus' }, '/recurrence/timeZone'],
    [{ rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin', exdates: ['28.03.2027'] }, '/recurrence/exdates/0'],
  ] as const) {
    const answer = await k.create(weekly(ci, { recurrence }));
    t.equal(answer.status, 400, JSON.stringify(recurrence));
    t.equal(answer.body.code, 'maintenance.recurrence_invalid');
    t.ok(
      answer.body.errors.some((e: { path: string }) => e.path === path),
      `${path} in ${JSON.stringify(answer.body.errors)}`,
    );
  }
  const modes = (await k.api('POST', `${MAINT}/filter`, { json: { configItemIds: [ci] } })).body;
  t.same(modes, [], 'nothing was stored');
});

t.test('preview: the CIs covered with the caller’s rights, the first occurrences in UTC and local time, the modes it overlaps; nothing saved', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const team = await k.workGroup();
  const other = await k.workGroup();
  const user = await k.user(['maintenance-writer'], [team]);
  const root = await k.ci(team);
  const child = await k.ci(team, root);
  const grandchild = await k.ci(team, child);
  const foreign = await k.ci(other);
  const existing = await k.must(
    await k.create({ title: 'DB upgrade', dateStart: '2027-03-28T00:30:00Z', dateEnd: '2027-03-28T01:30:00Z', configItems: [{ id: child, scope: 'Ci' }] }),
    201,
    'existing mode',
  );
  const before = (await k.api('GET', MAINT)).body.length;
  const body = weekly(root, {
    configItems: [
      { id: root, scope: 'CiAndChildren', depth: 1 },
      { id: foreign, scope: 'Ci' },
    ],
  });
  const preview = await k.api('POST', `${MAINT}/preview?occurrences=3`, { json: body, token: user.token });
  t.equal(preview.status, 200, preview.text);
  t.same(
    preview.body.configItems.map((c: { id: number; via: { id: number } }) => [c.id, c.via.id]),
    [
      [root, root],
      [child, root],
    ],
    'depth 1 reaches the child, not the grandchild',
  );
  t.notOk(
    preview.body.configItems.some((c: { id: number }) => c.id === grandchild),
    'the grandchild is beyond the depth',
  );
  t.same(preview.body.dropped, [foreign], 'the other workgroup’s CI is left out (batchValidate=false)');
  t.equal(preview.body.timeZone, 'Europe/Berlin');
  t.same(preview.body.occurrences, [
    { dateStart: '2027-03-21T01:00:00.000Z', dateEnd: '2027-03-21T03:00:00.000Z', localStart: '2027-03-21T02:00:00', localEnd: '2027-03-21T04:00:00' },
    { dateStart: '2027-03-28T01:00:00.000Z', dateEnd: '2027-03-28T02:00:00.000Z', localStart: '2027-03-28T03:00:00', localEnd: '2027-03-28T04:00:00' },
    { dateStart: '2027-04-04T00:00:00.000Z', dateEnd: '2027-04-04T02:00:00.000Z', localStart: '2027-04-04T02:00:00', localEnd: '2027-04-04T04:00:00' },
  ]);
  t.same(preview.body.overlaps, [{ id: existing.id, title: 'DB upgrade' }], 'the DB upgrade covers the child during the short night');
  t.equal((await k.api('GET', MAINT)).body.length, before, 'nothing was saved');
  const strict = await k.api('POST', `${MAINT}/preview?batchValidate=true`, { json: body, token: user.token });
  t.equal(strict.status, 400, 'batchValidate=true refuses as create would');
  t.equal(strict.body.code, 'maintenance.cis_not_accessible');
});

t.test('preview counts descendants the caller may not see without naming them', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const team = await k.workGroup();
  const other = await k.workGroup();
  const user = await k.user(['maintenance-writer'], [team]);
  const root = await k.ci(other);
  const hidden = [await k.ci(other, root), await k.ci(other, root)];
  await k.grant(root, team, 'ConfigItem', ['base-system.rsm.read']);
  const preview = await k.api('POST', `${MAINT}/preview`, { json: weekly(root, { configItems: [{ id: root, scope: 'CiAndChildren' }] }), token: user.token });
  t.equal(preview.status, 200, preview.text);
  t.same(
    preview.body.configItems.map((c: { id: number }) => c.id),
    [root],
  );
  t.equal(preview.body.hiddenConfigItems, 2);
  for (const id of hidden) t.notMatch(preview.text, new RegExp(`"id":${id}\\b`), `CI ${id} is not named`);
});

t.test('a one-off mode previews as its one window in UTC', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const preview = await k.api('POST', `${MAINT}/preview`, {
    json: { dateStart: '2027-03-05T10:00:00+01:00', dateEnd: '2027-03-05T12:00:00+01:00', configItems: [{ id: ci, scope: 'Ci' }] },
  });
  t.equal(preview.status, 200, preview.text);
  t.same(preview.body.occurrences, [
    { dateStart: '2027-03-05T09:00:00.000Z', dateEnd: '2027-03-05T11:00:00.000Z', localStart: '2027-03-05T09:00:00', localEnd: '2027-03-05T11:00:00' },
  ]);
  t.equal(preview.body.timeZone, 'UTC');
});

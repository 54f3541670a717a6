/**
 * Issue #33: GET …/rsm-maintenance/windows, the windows of the modes the caller may see within a
 * range. Worked dates as in recurring.test.ts: a weekly Sunday 02:00–04:00 window in
 * Europe/Berlin from 2027-03-21; on 2027-03-28 clocks go 02:00 → 03:00, so that night's window is
 * 01:00Z–02:00Z; from 2027-04-04 it is 00:00Z–02:00Z. Each test labels its modes with a tag of its
 * own and searches for it, so the modes of the other tests stay out of its answer.
 */
import t, { type Test } from 'tap';
import type { Answer } from '../../support/http.js';
import { isProblem, Kit, MAINT } from './maintenance-kit.js';

const k = new Kit();
let wg: number;
t.before(async () => {
  await k.start();
  wg = await k.workGroup();
});
t.teardown(() => k.stop());
t.beforeEach(() => {
  tag = k.uniq('run');
});

let tag = '';
const weekly = (ciId: number, extra: Record<string, unknown> = {}) => ({
  title: 'Weekly patch window',
  labels: { run: tag },
  dateStart: '2027-03-21T02:00:00+01:00',
  dateEnd: '2027-03-21T04:00:00+01:00',
  configItems: [{ id: ciId, scope: 'Ci' }],
  recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
  ...extra,
});
const oneOff = (ciId: number, dateStart: string, dateEnd: string, title = 'Upgrade') => ({
  title,
  dateStart,
  dateEnd,
  configItems: [{ id: ciId, scope: 'Ci' }],
  labels: { run: tag },
});
const windows = (query: string, token?: string) => k.api('GET', `${MAINT}/windows?${query}`, token ? { token } : {});
const range = (from: string, to: string, search?: number | string) =>
  `dateFrom=${encodeURIComponent(from)}&dateTo=${encodeURIComponent(to)}${search === undefined ? '' : `&search=${encodeURIComponent(String(search))}`}`;
/** A 400 of the route's own checks, with its code. */
function isBadQuery(t: Test, answer: Answer, code: string, detail: RegExp, path: string): void {
  isProblem(t, answer, 400, 'bad-request', detail, path);
  t.equal(answer.body?.code, code, `code ${code}`);
}
const spans = (body: { windows: Array<{ modeId: number; dateStart: string; dateEnd: string }> }) => body.windows.map((w) => [w.modeId, w.dateStart, w.dateEnd]);

t.test('a weekly mode across the spring-forward night: one window per occurrence in UTC, equal to the mode’s own next occurrences', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const mode = await k.mode(weekly(ci));
  const answer = await windows(range('2027-03-20T00:00:00Z', '2027-04-19T00:00:00Z', tag));
  t.equal(answer.status, 200, answer.text);
  t.same(
    answer.body.windows.map((w: { dateStart: string; dateEnd: string }) => ({ dateStart: w.dateStart, dateEnd: w.dateEnd })),
    mode.recurrence.next,
  );
  t.same(answer.body.windows[1], { modeId: mode.id, dateStart: '2027-03-28T01:00:00.000Z', dateEnd: '2027-03-28T02:00:00.000Z' }, 'the DST night is one hour');
  t.same(answer.body.modes, [
    {
      id: mode.id,
      title: 'Weekly patch window',
      state: 'Scheduled',
      configItems: [{ id: ci, scope: 'Ci', depth: -1 }],
      recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
    },
  ]);
  t.equal(answer.body.dateFrom, '2027-03-20T00:00:00.000Z');
  t.equal(answer.body.dateTo, '2027-04-19T00:00:00.000Z');
  t.equal(answer.body.truncated, false);
});

t.test('windows meeting the range are whole, by start then mode id; those outside it are not listed, nor are their modes', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const before = await k.mode(oneOff(ci, '2027-03-09T22:00:00Z', '2027-03-10T02:00:00Z', 'overnight'));
  const sameStartA = await k.mode(oneOff(ci, '2027-03-12T10:00:00Z', '2027-03-12T11:00:00Z', 'a'));
  const sameStartB = await k.mode(oneOff(ci, '2027-03-12T10:00:00Z', '2027-03-12T12:00:00Z', 'b'));
  await k.mode(oneOff(ci, '2027-03-20T00:00:00Z', '2027-03-20T01:00:00Z', 'at the end'));
  await k.mode(oneOff(ci, '2027-03-05T00:00:00Z', '2027-03-06T00:00:00Z', 'ended before'));
  const answer = await windows(range('2027-03-10T00:00:00Z', '2027-03-20T00:00:00Z', tag));
  t.equal(answer.status, 200, answer.text);
  t.same(spans(answer.body), [
    [before.id, '2027-03-09T22:00:00.000Z', '2027-03-10T02:00:00.000Z'],
    [sameStartA.id, '2027-03-12T10:00:00.000Z', '2027-03-12T11:00:00.000Z'],
    [sameStartB.id, '2027-03-12T10:00:00.000Z', '2027-03-12T12:00:00.000Z'],
  ]);
  t.same(
    answer.body.modes.map((m: { id: number }) => m.id),
    [before.id, sameStartA.id, sameStartB.id].sort((a, b) => a - b),
  );
});

t.test('a canceled mode keeps its windows with the state Canceled; a series completed early stops at its end', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const canceled = await k.mode(oneOff(ci, '2027-03-25T10:00:00Z', '2027-03-25T11:00:00Z', 'called off'));
  await k.must(await k.api('PATCH', `${MAINT}/${canceled.id}`, { json: { cancel: true } }), 200, 'cancel');
  const series = await k.mode(weekly(ci));
  k.clock = Date.parse('2027-04-04T01:00:00Z');
  await k.must(await k.api('PATCH', `${MAINT}/${series.id}`, { json: { cancel: true } }), 200, 'complete');
  const answer = await windows(range('2027-03-20T00:00:00Z', '2027-04-19T00:00:00Z', tag));
  t.same(spans(answer.body), [
    [series.id, '2027-03-21T01:00:00.000Z', '2027-03-21T03:00:00.000Z'],
    [canceled.id, '2027-03-25T10:00:00.000Z', '2027-03-25T11:00:00.000Z'],
    [series.id, '2027-03-28T01:00:00.000Z', '2027-03-28T02:00:00.000Z'],
    [series.id, '2027-04-04T00:00:00.000Z', '2027-04-04T01:00:00.000Z'],
  ]);
  const state = Object.fromEntries(answer.body.modes.map((m: { id: number; state: string }) => [m.id, m.state]));
  t.same(state, { [canceled.id]: 'Canceled', [series.id]: 'Completed' });
});

t.test('search narrows the windows as it narrows the list', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const label = k.uniq('change');
  const tagged = await k.mode({ ...oneOff(ci, '2027-03-11T10:00:00Z', '2027-03-11T11:00:00Z'), labels: { run: tag, change: label } });
  await k.mode(oneOff(ci, '2027-03-11T12:00:00Z', '2027-03-11T13:00:00Z'));
  const answer = await windows(range('2027-03-10T00:00:00Z', '2027-03-20T00:00:00Z', label));
  t.same(
    answer.body.windows.map((w: { modeId: number }) => w.modeId),
    [tagged.id],
  );
  const listed = await k.list(`?perPage=-1&search=${label}`);
  t.same(
    listed.body.map((m: { id: number }) => m.id),
    [tagged.id],
    'the list finds the same mode',
  );
});

t.test('a caller sees the windows of the modes on CIs it may see, and no other', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const mine = await k.workGroup();
  const theirs = await k.workGroup();
  const ciMine = await k.ci(mine);
  const ciTheirs = await k.ci(theirs);
  const reader = await k.user(['maintenance-reader'], [mine]);
  const seen = await k.mode(oneOff(ciMine, '2027-03-11T10:00:00Z', '2027-03-11T11:00:00Z'));
  const hidden = await k.mode(oneOff(ciTheirs, '2027-03-11T10:00:00Z', '2027-03-11T11:00:00Z'));
  const answer = await windows(range('2027-03-10T00:00:00Z', '2027-03-20T00:00:00Z'), reader.token);
  t.equal(answer.status, 200, answer.text);
  const ids = answer.body.windows.map((w: { modeId: number }) => w.modeId);
  t.ok(ids.includes(seen.id), 'the mode on its CI');
  t.notOk(ids.includes(hidden.id), 'not the mode on a CI of another workgroup');
  t.notOk(
    answer.body.modes.some((m: { id: number }) => m.id === hidden.id),
    'nor that mode',
  );
});

t.test('limit keeps the earliest windows and says the answer was truncated', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const ci = await k.ci(wg);
  const mode = await k.mode({ ...weekly(ci), recurrence: { rule: 'FREQ=DAILY', timeZone: 'UTC' }, dateStart: '2027-03-02T01:00:00Z', dateEnd: '2027-03-02T02:00:00Z' });
  const all = await windows(range('2027-03-01T00:00:00Z', '2027-03-31T00:00:00Z', tag));
  t.equal(all.body.windows.length, 29);
  t.equal(all.body.truncated, false);
  const cut = await windows(`${range('2027-03-01T00:00:00Z', '2027-03-31T00:00:00Z', tag)}&limit=3`);
  t.same(cut.body.windows, all.body.windows.slice(0, 3));
  t.equal(cut.body.truncated, true);
  t.same(
    cut.body.modes.map((m: { id: number }) => m.id),
    [mode.id],
  );
});

t.test('400 when dateFrom or dateTo is missing or not a date-time with an offset', async (t) => {
  isProblem(t, await windows('dateTo=2027-03-31T00:00:00Z'), 400, 'validation', /query parameters/, '/dateFrom');
  isProblem(t, await windows('dateFrom=2027-03-01T00:00:00Z'), 400, 'validation', /query parameters/, '/dateTo');
  isBadQuery(t, await windows('dateFrom=&dateTo=2027-03-31T00:00:00Z'), 'maintenance.query_invalid', /dateFrom/, '/dateFrom');
  isBadQuery(t, await windows(range('2027-03-01T00:00:00', '2027-03-31T00:00:00Z')), 'maintenance.field_invalid', /offset/, '/dateFrom');
  isBadQuery(t, await windows(range('2027-02-30T00:00:00Z', '2027-03-31T00:00:00Z')), 'maintenance.field_invalid', /not a valid date-time/, '/dateFrom');
});

t.test('400 when dateTo is not after dateFrom, or more than 100 days after it', async (t) => {
  isBadQuery(t, await windows(range('2027-03-01T00:00:00Z', '2027-03-01T00:00:00Z')), 'maintenance.query_invalid', /after dateFrom/, '/dateTo');
  isBadQuery(t, await windows(range('2027-03-01T00:00:00Z', '2027-06-10T00:00:00Z')), 'maintenance.query_invalid', /at most 100 days/, '/dateTo');
  t.equal((await windows(range('2027-03-01T00:00:00Z', '2027-06-09T00:00:00Z'))).status, 200, '100 days exactly');
});

t.test('400 when limit is not an integer from 1 to 200000', async (t) => {
  for (const limit of ['0', '-1', '1.5', 'x', '200001']) {
    isBadQuery(t, await windows(`${range('2027-03-01T00:00:00Z', '2027-03-31T00:00:00Z')}&limit=${limit}`), 'maintenance.query_invalid', /limit/, '/limit');
  }
});

t.test('401 without a token, 403 without the platform read right', async (t) => {
  const q = range('2027-03-01T00:00:00Z', '2027-03-31T00:00:00Z');
  t.equal((await k.api('GET', `${MAINT}/windows?${q}`, { token: null })).status, 401);
  const noRole = await k.user([], [wg]);
  isProblem(t, await windows(q, noRole.token), 403, 'forbidden', /base-system\.rsm-maintenance\.read/);
});

/**
 * Issue #33: GET …/sla/templates/{id}/live, where a whole template stands now. Its figures are
 * those of its CIs' own live SLA (includeSla, issue #18) combined with the template's weights: the
 * availability and the budget as weighted means, the burn rates as weighted problem over weighted
 * eligible time, the CIs with the least budget left; a Multi's parts weighted as its reports are.
 */
import t, { type Test } from 'tap';
import { createApiPart } from '../../../services/api/api.part.js';
import type { LiveSla } from '../../../services/live-sla/live-sla.js';
import { isProblem } from '../cmdb/cmdb-kit.js';
import { CIS } from '../problems/problems-kit.js';
import { SlaKit } from './sla-kit.js';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.parse('2026-03-20T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SLA = '/api/public/sm/v1/sla';

const k = new SlaKit();
let live!: LiveSla;
t.before(async () => {
  await k.startWith({ replace: [createApiPart({ liveSla: (l) => (live = l) })] });
  k.clock = NOW;
});
t.teardown(() => k.stop());

const close = (t: Test, got: number, want: number, what: string) => t.ok(Math.abs(got - want) < 1e-6, `${what}: ${got} ≈ ${want}`);
const liveOf = (id: number, token?: string) => k.api('GET', `${SLA}/templates/${id}/live`, token ? { token } : {});
async function ciSla(ciId: number): Promise<any> {
  const got = await k.api('GET', `${CIS}/${ciId}?includeSla=true`);
  if (got.status !== 200) throw new Error(`GET CI: ${got.status} ${got.text}`);
  return got.body.sla;
}

let wg!: { id: number };
let hot!: { id: number; name: string };
let warm!: { id: number; name: string };
let quiet!: { id: number; name: string };

t.test('setup: three CIs, two with problems this month and in the last hour, one without', async () => {
  wg = await k.workGroup();
  hot = await k.ci({ ownerWorkGroup: { id: wg.id } });
  warm = await k.ci({ ownerWorkGroup: { id: wg.id } });
  quiet = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  await k.trigger(stream.id, { influence: { value: 100, maxInfluence: false } });
  const firing = (host: string, ms: number) => ({ '@timestamp': iso(ms), check: 'cpu', host, severity: 'critical' });
  const ok = (host: string, ms: number) => ({ '@timestamp': iso(ms), check: 'cpu', host, status: 'ok' });
  await k.post(stream.key, [
    firing(hot.name, NOW - 5 * D),
    ok(hot.name, NOW - 5 * D + 3 * H),
    firing(warm.name, NOW - 2 * D),
    ok(warm.name, NOW - 2 * D + 0.5 * H),
    firing(hot.name, NOW - 30 * 60_000), // open
    firing(warm.name, NOW - 45 * 60_000),
    ok(warm.name, NOW - 40 * 60_000),
  ]);
  await live.refresh();
});

t.test('a Single template with a target: weighted availability, budget and burn rates of its CIs, and the CIs with the least budget left', async (t) => {
  const template = await k.template({
    type: 'Single',
    target: 99.5,
    configItems: [
      { id: hot.id, weight: 3 },
      { id: warm.id, weight: 1 },
      { id: quiet.id, weight: 1 },
    ],
  });
  const got = await liveOf(template.id);
  t.equal(got.status, 200, got.text);
  const body = got.body;
  t.strictSame(body.template, { id: template.id, name: template.name, type: 'Single' });
  t.strictSame(body.period, { start: '2026-03-01T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z' });
  t.equal(body.configItems, 3);
  t.strictSame(body.parts, []);
  const budgets = new Map<number, any>();
  for (const ci of [hot, warm, quiet])
    budgets.set(
      ci.id,
      (await ciSla(ci.id)).budgets.find((b: any) => b.template.id === template.id),
    );
  const weights = new Map([
    [hot.id, 3],
    [warm.id, 1],
    [quiet.id, 1],
  ]);
  const mean = (f: (b: any) => number) => [...weights].reduce((sum, [id, w]) => sum + w * f(budgets.get(id)), 0) / 5;
  t.equal(body.budget.target, 99.5);
  close(
    t,
    body.budget.usedMs,
    mean((b) => b.usedMs),
    'used: the weighted mean of the CIs’',
  );
  close(
    t,
    body.budget.allowedMs,
    mean((b) => b.allowedMs),
    'allowed: the weighted mean of the CIs’',
  );
  t.equal(body.budget.remainingMs, body.budget.allowedMs - body.budget.usedMs);
  // No maintenance and no calendar: every CI's last hour is all eligible, so the weighted rate is the weighted mean of the CIs' rates.
  close(
    t,
    body.budget.burnRate['1h'],
    mean((b) => b.burnRate['1h']),
    '1h burn rate',
  );
  close(
    t,
    body.budget.burnRate['6h'],
    mean((b) => b.burnRate['6h']),
    '6h burn rate',
  );
  t.ok(body.budget.burnRate['1h'] > 0 && body.budget.usedMs > 0, 'the case is not trivial');
  // The availability so far in March: the weighted mean of an ordered report's CI figures over the same range.
  const report = await k.finished(await k.ordered({ template: { id: template.id }, range: { start: body.period.start, end: iso(NOW) } }));
  t.equal(report.status, 'Ok', report.error);
  const rows = (await k.exportOf(report.id, '?format=json&exportType=configItems')).body as Array<{ configItem: { id: number }; serviceAvailability: number }>;
  const availability = rows.reduce((sum, row) => sum + weights.get(row.configItem.id)! * row.serviceAvailability, 0) / 5;
  close(t, body.availability, availability, 'availability: the report’s CI figures, weighted');
  t.strictSame(
    body.worst.map((w: { id: number; name: string }) => [w.id, w.name]),
    [hot, warm].sort((x, y) => budgets.get(x.id).remaining - budgets.get(y.id).remaining).map((ci) => [ci.id, ci.name]),
    'the CIs that used budget, the least left first; the quiet one is not named',
  );
  const first = body.worst[0];
  const own = budgets.get(first.id);
  t.strictSame([first.usedMs, first.allowedMs, first.burnRate], [own.usedMs, own.allowedMs, own.burnRate], 'each as its own live SLA says');
});

t.test('a template without a target has its availability and no budget', async (t) => {
  const template = await k.template({ type: 'Single', configItems: [{ id: quiet.id }] });
  const body = (await liveOf(template.id)).body;
  t.equal(body.availability, 100);
  t.equal(body.budget, null);
  t.strictSame(body.worst, []);
});

t.test('a Multi template: each part with its weight and influence, the whole availability weighted as its reports', async (t) => {
  const one = await k.template({ type: 'Single', target: 99.9, configItems: [{ id: hot.id }] });
  const two = await k.template({ type: 'Single', configItems: [{ id: warm.id }, { id: quiet.id }] });
  const multi = await k.template({
    type: 'Multi',
    templates: [
      { id: one.id, weight: 3 },
      { id: two.id, weight: 1 },
    ],
  });
  const got = await liveOf(multi.id);
  t.equal(got.status, 200, got.text);
  const body = got.body;
  t.strictSame(body.template, { id: multi.id, name: multi.name, type: 'Multi' });
  t.equal(body.period, null);
  t.equal(body.budget, null);
  t.equal(body.configItems, 3);
  t.strictSame(
    body.parts.map((p: any) => [p.template.id, p.weight, p.influence, p.configItems]),
    [
      [one.id, 3, 0.75, 1],
      [two.id, 1, 0.25, 2],
    ],
  );
  const alone = [(await liveOf(one.id)).body, (await liveOf(two.id)).body];
  t.strictSame(
    body.parts.map((p: any) => [p.availability, p.budget]),
    alone.map((a) => [a.availability, a.budget]),
    'each part as its own template answers',
  );
  close(t, body.availability, (3 * alone[0].availability + alone[1].availability) / 4, 'Σ weight × availability / Σ weights');
});

t.test('403 for a reader who may not read the template, and without the SLA read right', async (t) => {
  const template = await k.template({ type: 'Single', configItems: [{ id: quiet.id }] });
  const stranger = await k.reader();
  isProblem(t, await liveOf(template.id, stranger.token), 403, 'forbidden', /SLA template/);
  const noRight = await k.reader([], []);
  isProblem(t, await liveOf(template.id, noRight.token), 403, 'forbidden', /base-system\.sla\.read/);
});

t.test('404 for a template that does not exist, 400 for an id that is not one, 401 without a token', async (t) => {
  isProblem(t, await liveOf(999_999), 404, 'not-found', /SLA template 999999 not found/);
  isProblem(t, await k.api('GET', `${SLA}/templates/abc/live`), 400, 'bad-request');
  t.equal((await k.api('GET', `${SLA}/templates/1/live`, { token: null })).status, 401);
});

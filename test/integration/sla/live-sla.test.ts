/**
 * Issue #18, live availability: GET config-items/{id}?includeSla=true (and the filter endpoint)
 * gives the CI's availability over 24 h, 7 d and 30 d ending now, kept from the problems' changes
 * in memory; the same figures as an ordered report of a template with the default rules over the
 * same range. For a template with a target: the error budget of its current period and the burn
 * rates, also on /metrics.
 */
import t from 'tap';
import { createApiPart } from '../../../services/api/api.part.js';
import type { LiveSla } from '../../../services/live-sla/live-sla.js';
import { isProblem } from '../cmdb/cmdb-kit.js';
import { CIS, MAINT } from '../problems/problems-kit.js';
import { SlaKit } from './sla-kit.js';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.parse('2026-03-20T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const k = new SlaKit();
let live!: LiveSla;
t.before(async () => {
  await k.startWith({ replace: [createApiPart({ liveSla: (l) => (live = l) })] });
  k.clock = NOW;
});
t.teardown(() => k.stop());

interface Window {
  window: string;
  availability: number;
  okMs: number;
  problemMs: number;
  maintenanceMs: number;
  maxDowntimeMs: number;
}
interface CiRow {
  configItem: { id: number };
  okTime: { value: number };
  problemTime: { value: number };
  maintenanceTime: { value: number };
  serviceAvailability: number;
  maxDowntime: number;
}

/** Posts records oldest first, waits until they are stored and placed, then reads the changes. */
async function post(key: string, records: Array<Record<string, unknown>>): Promise<void> {
  await k.post(key, records);
  await live.refresh();
}

async function sla(ciId: number): Promise<{ windows: Window[]; budgets: any[]; asOf: string }> {
  const got = await k.api('GET', `${CIS}/${ciId}?includeSla=true`);
  if (got.status !== 200) throw new Error(`GET CI: ${got.status} ${got.text}`);
  return got.body.sla;
}

/** An ordered report of `templateId` over [start, end): its CI rows by CI id. */
async function reportRows(templateId: number, start: number, end: number): Promise<Map<number, CiRow>> {
  const report = await k.finished(await k.ordered({ template: { id: templateId }, range: { start: iso(start), end: iso(end) } }));
  if (report.status !== 'Ok') throw new Error(`report ${report.status}: ${report.error}`);
  const exported = await k.exportOf(report.id, '?format=json&exportType=configItems');
  if (exported.status !== 200) throw new Error(`export: ${exported.status} ${exported.text}`);
  return new Map((exported.body as CiRow[]).map((row) => [row.configItem.id, row]));
}

let a!: { id: number; name: string };
let b!: { id: number; name: string };
let key!: string;

t.test('setup: one CI with problems of every kind over the last 30 days, under maintenance twice; one without', async (t) => {
  const wg = await k.workGroup();
  a = await k.ci({ ownerWorkGroup: { id: wg.id } });
  b = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  key = stream.key;
  await k.trigger(stream.id, { influence: { value: 60, maxInfluence: false } });
  // Modes are made before they start (a mode cannot end in the past), then time moves on.
  k.clock = NOW - 11 * D;
  for (const [start, end] of [
    [NOW - 10 * D, NOW - 9 * D],
    [NOW - 4 * H, NOW - 3.5 * H],
  ] as const) {
    const mode = await k.api('POST', MAINT, { json: { title: k.uniq('mode'), dateStart: iso(start), dateEnd: iso(end), configItems: [{ id: a.id, scope: 'Ci' }] } });
    t.equal(mode.status, 201, mode.text);
  }
  k.clock = NOW;
  const firing = (ms: number, severity: string) => ({ '@timestamp': iso(ms), check: 'cpu', host: a.name, severity });
  const ok = (ms: number) => ({ '@timestamp': iso(ms), check: 'cpu', host: a.name, status: 'ok' });
  await post(key, [
    firing(NOW - 20 * D, 'critical'),
    ok(NOW - 20 * D + 1.5 * H),
    firing(NOW - 9.5 * D, 'major'), // half under the first maintenance
    ok(NOW - 8.5 * D),
    firing(NOW - 40 * H, 'critical'),
    ok(NOW - 39 * H),
    firing(NOW - 5 * H, 'major'), // across the second maintenance
    ok(NOW - 3 * H),
    firing(NOW - 2 * H, 'minor'), // priority 3: not counted
    ok(NOW - H),
    firing(NOW - 20 * 60_000, 'critical'), // still open
  ]);
  const [day] = (await sla(a.id)).windows;
  t.ok(day!.problemMs > 0, 'the live figures see the problems');
});

t.test('the live windows equal an ordered report of a template with the default rules over the same range', async (t) => {
  const template = await k.template({ type: 'Single', configItems: [{ id: a.id }, { id: b.id }] });
  const live = { a: await sla(a.id), b: await sla(b.id) };
  for (const [index, ms] of [D, 7 * D, 30 * D].entries()) {
    const rows = await reportRows(template.id, NOW - ms, NOW);
    for (const [name, ci] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const window = live[name].windows[index]!;
      const row = rows.get(ci.id)!;
      t.strictSame(
        {
          okMs: window.okMs,
          problemMs: window.problemMs,
          maintenanceMs: window.maintenanceMs,
          availability: window.availability,
          maxDowntime: Math.round(window.maxDowntimeMs / 1000),
        },
        { okMs: row.okTime.value, problemMs: row.problemTime.value, maintenanceMs: row.maintenanceTime.value, availability: row.serviceAvailability, maxDowntime: row.maxDowntime },
        `CI ${name}, ${window.window}`,
      );
    }
  }
  t.equal(live.a.windows[0]!.window, '24h');
  t.ok(live.a.windows[0]!.problemMs > 0 && live.a.windows[2]!.maintenanceMs > 0, 'the case is not trivial');
  t.strictSame(
    live.b.windows.map((w) => w.availability),
    [100, 100, 100],
  );
  t.strictSame(live.a.budgets, [], 'no template with a target covers it yet');
});

t.test('a late record that ends a problem earlier changes the live figures once its row is written', async (t) => {
  const before = (await sla(a.id)).windows[0]!.problemMs;
  // The open problem (since NOW − 20 min) is resolved 10 minutes after it opened.
  await post(key, [{ '@timestamp': iso(NOW - 10 * 60_000), check: 'cpu', host: a.name, status: 'ok' }]);
  const after = (await sla(a.id)).windows[0]!.problemMs;
  t.equal(before - after, 0.6 * 10 * 60_000, '10 minutes less of a 60 % problem');
});

t.test('a template with a target: its budget for the current period and the burn rates, on the CI and on /metrics', async (t) => {
  const template = await k.template({ type: 'Single', configItems: [{ id: a.id }], target: 99.5 });
  const got = await sla(a.id);
  t.equal(got.budgets.length, 1);
  const budget = got.budgets[0];
  t.strictSame(budget.template, { id: template.id, name: template.name });
  t.equal(budget.target, 99.5);
  t.strictSame(budget.period, { start: '2026-03-01T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z' });
  // Used: the report's problem time from the start of March to now; allowed: 0.5 % of March but
  // the maintenance of March (1 day and 30 minutes).
  const rows = await reportRows(template.id, Date.parse('2026-03-01T00:00:00.000Z'), NOW);
  t.equal(budget.usedMs, rows.get(a.id)!.problemTime.value);
  t.equal(budget.allowedMs, Math.round(0.005 * (31 * D - D - 0.5 * H)));
  t.equal(budget.remainingMs, budget.allowedMs - budget.usedMs);
  t.ok(Math.abs(budget.remaining - budget.remainingMs / budget.allowedMs) < 1e-9);
  // Last hour: 10 minutes of a 60 % problem (NOW − 20 min to NOW − 10 min), the minor one not counted.
  t.ok(Math.abs(budget.burnRate['1h'] - (0.6 * 10) / 60 / 0.005) < 1e-9, `1h burn ${budget.burnRate['1h']}`);
  await live.refreshMetrics(); // the background computes them every 15 s
  const metrics = await (await fetch(`${k.p.base}/metrics`)).text();
  const burnMetric = new RegExp(`^ops_sla_burn_rate\\{template="${template.id}",ci="${a.id}",window="1h"\\} (\\S+)$`, 'm').exec(metrics);
  t.ok(burnMetric && Math.abs(Number(burnMetric[1]) - budget.burnRate['1h']) < 1e-9, `the 1h burn rate on /metrics: ${burnMetric?.[1]}`);
  t.match(metrics, new RegExp(`^ops_sla_error_budget_remaining_ratio\\{template="${template.id}",ci="${a.id}"\\} `, 'm'));
  t.match(metrics, new RegExp(`^ops_sla_availability_percent\\{ci="${a.id}",window="30d"\\} `, 'm'));
  t.notMatch(metrics, new RegExp(`ci="${b.id}"`), 'a CI no template with a target covers is not exposed');
  // Covered, but without a problem in 31 days: no series (absent: 100 %, the whole budget, no burn).
  const quiet = await k.ci({ ownerWorkGroup: { id: (await k.workGroup()).id } });
  await k.api('PATCH', `/api/admin/v1/sla/templates/${template.id}`, { json: { configItems: [{ id: a.id }, { id: quiet.id }] } });
  await live.refreshMetrics();
  const again = await (await fetch(`${k.p.base}/metrics`)).text();
  t.match(again, new RegExp(`^ops_sla_burn_rate\\{template="${template.id}",ci="${a.id}",window="1h"\\} `, 'm'));
  t.notMatch(again, new RegExp(`ci="${quiet.id}"`), 'a covered CI without problems has no series');
});

t.test('the filter endpoint gives the same figures with includeSla, and none without', async (t) => {
  const body = { ids: [a.id, b.id] };
  const withSla = await k.api('POST', `${CIS}/filter?includeSla=true`, { json: body });
  t.equal(withSla.status, 200);
  t.strictSame(withSla.body.find((c: { id: number }) => c.id === a.id).sla, await sla(a.id));
  const without = await k.api('POST', `${CIS}/filter`, { json: body });
  t.notOk('sla' in without.body[0], 'no sla unless asked');
  const plain = await k.api('GET', `${CIS}/${a.id}`);
  t.notOk('sla' in plain.body);
});

t.test('after a restart the figures are read back from the problems table: the same as before', async (t) => {
  const before = await sla(a.id);
  await k.restart({ replace: [createApiPart({ liveSla: (l) => (live = l) })] });
  k.clock = NOW;
  await live.refresh(); // the first read of the problems, which the start does not wait for
  const after = await sla(a.id);
  t.strictSame(after.windows, before.windows);
  t.strictSame(after.budgets, before.budgets);
});

t.test('400 for an includeSla that is not a boolean', async (t) => {
  isProblem(t, await k.api('GET', `${CIS}/${a.id}?includeSla=maybe`), 400, 'validation');
});

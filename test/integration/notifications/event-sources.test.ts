/**
 * Issue #31, the sources of the maintenance and SLA-burn events, on a real embedded platform:
 * `activeWindows` (services/notifications/maintenance-source.ts) against modes made through the
 * maintenance API and the coverage rule the rest of the platform uses (`modesCovering`); the SLA
 * template field `burnRateAlert` through the admin API; and `createBurnSource`
 * (services/notifications/sla-burn-source.ts) on problems posted to a stream. Time moves only
 * when a test sets the clock.
 */
import type { Test } from 'tap';
import t from 'tap';
import { maintenanceTransitions, type MaintenanceSeen } from '../../../pipelines/notifications/maintenance-transitions.js';
import { burnTransitions } from '../../../pipelines/notifications/sla-burn.js';
import { modesCovering } from '../../../services/control-plane/maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../../../services/control-plane/model.js';
import { activeWindows } from '../../../services/notifications/maintenance-source.js';
import { type BurnSource, createBurnSource } from '../../../services/notifications/sla-burn-source.js';
import { isProblem } from '../cmdb/cmdb-kit.js';
import { MAINT } from '../problems/problems-kit.js';
import { SLA_TEMPLATES_ADMIN, SlaKit } from '../sla/sla-kit.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-03-03T00:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

const k = new SlaKit();
let model!: PlatformModel;
let wg!: { id: number; name: string };
const sources: BurnSource[] = [];
t.before(async () => {
  await k.startWith();
  k.clock = T0;
  model = k.p.platform.controlPlane.model;
  wg = await k.workGroup();
});
t.teardown(async () => {
  for (const source of sources) await source.stop();
  await k.stop();
});

async function mode(body: Record<string, unknown>): Promise<number> {
  const created = await k.api('POST', MAINT, { json: body });
  if (created.status !== 201) throw new Error(`mode: ${created.status} ${created.text}`);
  return created.body.id;
}

/** The windows of mode `id` at the clock: [start, end, CI ids] each. */
const windowsOf = (id: number, maxCis?: number) =>
  activeWindows(model, k.clock, maxCis)
    .filter((w) => w.maintenanceId === id)
    .map((w) => [iso(w.windowStart), iso(w.windowEnd), w.configItems.map((ci) => ci.id)]);

/** Every CI listed under a mode is one the platform counts under it, and the other way round. */
function agreesWithCoverage(t: Test): void {
  const listed = new Set(activeWindows(model, k.clock).flatMap((w) => w.configItems.map((ci) => `${w.maintenanceId}:${ci.id}`)));
  const covered = new Set<string>();
  for (const id of model.slices.cmdb.cis.keys()) for (const modeId of modesCovering(model, id, k.clock)) covered.add(`${modeId}:${id}`);
  t.same([...listed].sort(), [...covered].sort(), `${iso(k.clock)}: the windows list exactly the CIs modesCovering counts`);
}

t.test('activeWindows: a one-off mode while it runs, with the CIs its scope reaches (descendants to the depth), by id, named', async (t) => {
  const root = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const child = await k.ci({ parent: { id: root.id } });
  const grandchild = await k.ci({ parent: { id: child.id } });
  const single = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const id = await mode({
    title: 'DB upgrade',
    dateStart: iso(T0 + HOUR),
    dateEnd: iso(T0 + 2 * HOUR),
    configItems: [
      { id: single.id, scope: 'Ci' },
      { id: root.id, scope: 'CiAndChildren', depth: 1 },
    ],
  });
  t.same(windowsOf(id), [], 'scheduled: not active');
  k.clock = T0 + HOUR;
  const [window] = activeWindows(model, k.clock).filter((w) => w.maintenanceId === id);
  t.same(window, {
    maintenanceId: id,
    title: 'DB upgrade',
    windowStart: T0 + HOUR,
    windowEnd: T0 + 2 * HOUR,
    configItems: [root, child, single].sort((a, b) => a.id - b.id).map((ci) => ({ id: ci.id, name: ci.name })),
  });
  t.notOk(
    window!.configItems.some((ci) => ci.id === grandchild.id),
    'below the depth: not covered',
  );
  agreesWithCoverage(t);
  k.clock = T0 + 2 * HOUR;
  t.same(windowsOf(id), [], 'its end is exclusive');
});

t.test('activeWindows: a recurring mode has one window per occurrence, none between them', async (t) => {
  k.clock = T0 + 3 * HOUR;
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const start = T0 + 4 * HOUR;
  const id = await mode({
    dateStart: iso(start),
    dateEnd: iso(start + HOUR),
    configItems: [{ id: ci.id, scope: 'Ci' }],
    recurrence: { rule: 'FREQ=DAILY;COUNT=3', timeZone: 'UTC' },
  });
  k.clock = start + 30 * MIN;
  t.same(windowsOf(id), [[iso(start), iso(start + HOUR), [ci.id]]], 'the first occurrence');
  t.equal(activeWindows(model, k.clock).find((w) => w.maintenanceId === id)!.title, `Maintenance ${id}`, 'an untitled mode is named by its id');
  k.clock = start + 12 * HOUR;
  t.same(windowsOf(id), [], 'between occurrences');
  k.clock = start + 24 * HOUR;
  t.same(windowsOf(id), [[iso(start + 24 * HOUR), iso(start + 25 * HOUR), [ci.id]]], 'the second occurrence, a window of its own');
  agreesWithCoverage(t);
});

t.test('activeWindows through a running mode’s edits, with maintenanceTransitions: CIs added and removed, a CI created below, completed early', async (t) => {
  const start = k.clock + MIN;
  const a = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const b = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const id = await mode({ title: 'patching', dateStart: iso(start), dateEnd: iso(start + 4 * HOUR), configItems: [{ id: a.id, scope: 'Ci' }] });
  let seen: MaintenanceSeen = {};
  const tick = (): string[] => {
    const step = maintenanceTransitions(seen, activeWindows(model, k.clock), k.clock);
    seen = step.seen;
    return step.events
      .filter((e) => (e.kind === 'maintenance.started' || e.kind === 'maintenance.ended') && e.maintenance.id === id)
      .map((e) => (e.kind === 'maintenance.started' || e.kind === 'maintenance.ended' ? `${e.kind} [${e.maintenance.configItems.map((ci) => ci.name).join(',')}]` : ''));
  };
  tick(); // the windows of the earlier tests
  k.clock = start;
  t.same(tick(), [`maintenance.started [${a.name}]`]);
  k.clock += 10 * MIN;
  const put = await k.api('PUT', `${MAINT}/${id}`, {
    json: { title: 'patching', dateStart: iso(start), dateEnd: iso(start + 4 * HOUR), configItems: [{ id: b.id, scope: 'CiAndChildren', depth: -1 }] },
  });
  t.equal(put.status, 200, put.text);
  t.same(tick(), [`maintenance.ended [${a.name}]`, `maintenance.started [${b.name}]`], 'a removed, b added');
  k.clock += MIN;
  const below = await k.ci({ parent: { id: b.id } });
  t.same(tick(), [`maintenance.started [${below.name}]`], 'a CI created below a covered one is covered from then');
  agreesWithCoverage(t);
  k.clock += MIN;
  t.same(tick(), [], 'nothing changed');
  const done = await k.api('PATCH', `${MAINT}/${id}`, { json: { cancel: true } });
  t.equal(done.status, 200, done.text);
  t.same(
    tick(),
    [
      `maintenance.ended [${[b, below]
        .sort((x, y) => x.id - y.id)
        .map((ci) => ci.name)
        .join(',')}]`,
    ],
    'completed early: ended at once',
  );
});

t.test('activeWindows: a window lists at most maxCis CIs, the lowest ids', async (t) => {
  const root = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const kids = [await k.ci({ parent: { id: root.id } }), await k.ci({ parent: { id: root.id } })];
  const id = await mode({ dateStart: iso(k.clock), dateEnd: iso(k.clock + HOUR), configItems: [{ id: root.id, scope: 'CiAndChildren', depth: -1 }] });
  t.same(
    windowsOf(id, 2).map((w) => w[2]),
    [[root.id, kids[0]!.id]],
  );
  t.same(
    windowsOf(id).map((w) => w[2]),
    [[root.id, ...kids.map((ci) => ci.id)]],
  );
});

t.test('burnRateAlert through the admin API: created, read, listed, changed and cleared on a Single template', async (t) => {
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const body = { type: 'Single', name: k.uniq('burn'), period: 'ThisMonth', ownerType: 'WorkGroup', workGroupId: wg.id, configItems: [{ id: ci.id }], target: 99.9 };
  const created = await k.api('POST', SLA_TEMPLATES_ADMIN, { json: { ...body, burnRateAlert: 14.4 } });
  t.equal(created.status, 201, created.text);
  t.equal(created.body.burnRateAlert, 14.4);
  const id = created.body.id;
  t.equal((await k.api('GET', `${SLA_TEMPLATES_ADMIN}/${id}`)).body.burnRateAlert, 14.4, 'read');
  t.equal((await k.api('GET', SLA_TEMPLATES_ADMIN)).body.find((x: { id: number }) => x.id === id).burnRateAlert, 14.4, 'listed');
  const changed = await k.api('PATCH', `${SLA_TEMPLATES_ADMIN}/${id}`, { json: { burnRateAlert: 6 } });
  t.equal(changed.status, 200, changed.text);
  t.equal(changed.body.burnRateAlert, 6);
  const renamed = await k.api('PATCH', `${SLA_TEMPLATES_ADMIN}/${id}`, { json: { description: 'kept' } });
  t.equal(renamed.body.burnRateAlert, 6, 'a PATCH without it keeps it');
  const cleared = await k.api('PATCH', `${SLA_TEMPLATES_ADMIN}/${id}`, { json: { burnRateAlert: null } });
  t.equal(cleared.status, 200, cleared.text);
  t.notOk('burnRateAlert' in cleared.body, 'cleared with null: absent, no alert');
  t.equal(cleared.body.target, 99.9, 'the target stays');
  const without = await k.api('POST', SLA_TEMPLATES_ADMIN, { json: { ...body, name: k.uniq('burn') } });
  t.notOk('burnRateAlert' in without.body, 'not given: absent');
});

t.test('burnRateAlert: 400 problem+json at /burnRateAlert for a value not above 0, not a number, or on a Multi template', async (t) => {
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const body = { type: 'Single', name: k.uniq('burn'), period: 'ThisMonth', ownerType: 'WorkGroup', workGroupId: wg.id, configItems: [{ id: ci.id }], target: 99.9 };
  for (const value of [0, -1, 'high']) {
    isProblem(t, await k.api('POST', SLA_TEMPLATES_ADMIN, { json: { ...body, burnRateAlert: value } }), 400, 'validation', undefined, '/burnRateAlert');
  }
  const single = await k.api('POST', SLA_TEMPLATES_ADMIN, { json: body });
  isProblem(t, await k.api('PATCH', `${SLA_TEMPLATES_ADMIN}/${single.body.id}`, { json: { burnRateAlert: 0 } }), 400, 'validation', undefined, '/burnRateAlert');
  const multi = { type: 'Multi', name: k.uniq('multi'), period: 'ThisMonth', ownerType: 'WorkGroup', workGroupId: wg.id, templates: [{ id: single.body.id }], burnRateAlert: 14.4 };
  isProblem(t, await k.api('POST', SLA_TEMPLATES_ADMIN, { json: multi }), 400, 'validation', /Single/, '/burnRateAlert');
});

t.test('createBurnSource: null while the live SLA loads, then the 1 h burn rate of each CI with a recent problem of each template with a target and a burnRateAlert', async (t) => {
  k.clock = T0 + 2 * 24 * HOUR;
  const stream = await k.stream();
  await k.trigger(stream.id);
  const burning = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const quiet = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const alerting = await k.template({ type: 'Single', configItems: [{ id: burning.id }, { id: quiet.id }], target: 99.9, burnRateAlert: 14.4 });
  await k.template({ type: 'Single', configItems: [{ id: burning.id }], target: 99.9 }); // no threshold: not read
  await k.template({ type: 'Single', configItems: [{ id: burning.id }], burnRateAlert: 14.4 }); // no target: no burn rate
  await k.post(stream.key, [{ '@timestamp': iso(k.clock - 30 * MIN), check: 'cpu', host: burning.name, severity: 'critical' }]);

  const p = k.p.platform;
  const source = createBurnSource({ analytics: p.engines.analytics, model, metrics: p.metrics, logger: p.logger, now: () => k.clock });
  sources.push(source);
  t.equal(source.readings(k.clock), null, 'the live SLA is still loading');
  await source.refresh();
  const readings = source.readings(k.clock)!;
  t.same(
    readings.map((r) => ({ ...r, burnRate: Math.round(r.burnRate) })),
    [{ template: alerting, configItem: { id: burning.id, name: burning.name }, burnRate: 150, threshold: 14.4, budgetLeft: readings[0]?.budgetLeft }],
    'a P1 problem of influence 30 % open for the last 30 minutes: 9 of 60 minutes, 0.15 / (1 − 0.999) = 150; the quiet CI has no reading',
  );
  t.ok(readings[0]!.budgetLeft < 1, 'some of the budget is spent');
  const step = burnTransitions({}, readings, k.clock);
  t.same(
    step.events.map((e) => e.id),
    [`sla-${alerting.id}-${burning.id}-${k.clock}`],
    'one sla.budget_burning',
  );
});

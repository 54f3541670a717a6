/** Custom SLA reports on the bare control model (pure): ordering, heartbeats, finishing, requeueing, forgetting. */
import t from 'tap';
import { finishReport, forgetOldReports, heartbeatReport, lastSignOfLife, orderReport, requeueReport } from '../../../../../services/control-plane/sla/sla-reports.commands.js';
import type { SlaTemplateRecord } from '../../../../../services/control-plane/sla/sla-templates.slice.js';
import type { PlatformCommand } from '../../../../../services/control-plane/model.js';
import { createControlModel } from '../../../../../services/control-plane/slices.js';
import type { PlatformModel } from '../../../../../services/control-plane/model.js';

const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const ID = '6f1c2b8e-3d4a-4b5c-9d6e-7f8a9b0c1d2e';
const at = new Date(T0).toISOString();
const template: SlaTemplateRecord = {
  id: 1,
  name: 'core',
  description: '',
  period: 'Yesterday',
  timeZone: 'Europe/Berlin',
  createdAt: at,
  updatedAt: at,
  ownerType: 'User',
  userId: 1,
  workGroupId: null,
  type: 'Single',
  configItems: [{ id: 1, weight: 1, withDescendants: false }],
  priorities: [1, 3],
  calendar: null,
  excludeMaintenance: true,
  target: null,
};

function model(): PlatformModel {
  const m = createControlModel();
  m.load(
    new Map<string, unknown>([
      ['user:1', { id: 1, name: 'alice', roles: ['sla-reader'], disabled: false, createdAt: at }],
      ['sla-template:1', template],
    ]),
    1,
  );
  return m;
}

/** Runs a command and applies its changes as the journal would. */
function run<R>(m: PlatformModel, command: PlatformCommand<R>): R {
  const outcome = command(m);
  if (outcome.changes.length > 0) m.applyEntry({ revision: m.revision + 1, changes: outcome.changes });
  return outcome.result(m);
}

const order = (m: PlatformModel) => run(m, orderReport({ id: ID, templateId: 1, range: undefined, reader: { userId: 1, admin: false }, now: T0 }));

t.test('an order without range takes the template’s period in its time zone, Pending, with the counted priorities', async (t) => {
  const report = order(model());
  t.match(report, {
    status: 'Pending',
    reportId: null,
    error: null,
    start: '2026-03-08T23:00:00.000Z',
    end: '2026-03-09T23:00:00.000Z',
    priorities: [1, 3],
    timeZone: 'Europe/Berlin',
    attempt: 1,
    heartbeatAt: null,
  });
});

t.test('a heartbeat is the report’s last sign of life; without one it is the order', async (t) => {
  const m = model();
  t.equal(lastSignOfLife(order(m)), T0);
  run(m, heartbeatReport(ID, T0 + 90_000));
  t.equal(lastSignOfLife(m.slices.slaReports.reports.get(ID)!), T0 + 90_000);
});

t.test('a finished report takes no heartbeat, no new attempt, and keeps its first outcome', async (t) => {
  const m = model();
  order(m);
  run(m, finishReport(ID, { status: 'Ok', reportId: 'r1' }, T0 + 1000));
  t.same(heartbeatReport(ID, T0 + 2000)(m).changes, []);
  t.same(requeueReport(ID)(m).changes, []);
  t.same(finishReport(ID, { status: 'Error', error: 'late' }, T0 + 3000)(m).changes, []);
  t.match(m.slices.slaReports.reports.get(ID), { status: 'Ok', reportId: 'r1', error: null, finishedAt: new Date(T0 + 1000).toISOString() });
});

t.test('a requeue counts a new attempt of a pending report', async (t) => {
  const m = model();
  order(m);
  t.equal(run(m, requeueReport(ID))!.attempt, 2);
});

t.test('reports are forgotten 30 days after their order, not before', async (t) => {
  const m = model();
  order(m);
  t.equal(run(m, forgetOldReports(T0 + 29 * 86_400_000)), 0);
  t.equal(run(m, forgetOldReports(T0 + 31 * 86_400_000)), 1);
  t.equal(m.slices.slaReports.reports.size, 0);
});

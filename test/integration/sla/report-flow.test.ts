/**
 * Issue #8: a report ordered over HTTP goes Pending → Ok through the SLA worker, and its exports
 * show the figures of DESIGN §9 for the problems the stream records opened (spec 2.13–2.15).
 */
import t from 'tap';
import { SlaKit } from './sla-kit.js';

const k = new SlaKit();
t.before(() => k.start());
t.teardown(() => k.stop());

const H = 3_600_000;
const day = Date.parse('2026-03-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

t.test('a Single template over a day: 2 h of a 30 % problem, 1 h of a 100 % one', async (t) => {
  const wg = await k.workGroup();
  const a = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const b = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  await k.trigger(stream.id, { name: 'cpu30', influence: { value: 30, maxInfluence: false } });
  const s2 = await k.stream();
  await k.trigger(s2.id, { name: 'down', influence: { value: 0, maxInfluence: true } });
  await k.post(stream.key, [
    { '@timestamp': iso(day + 1 * H), check: 'cpu', host: a.name, severity: 'major' },
    { '@timestamp': iso(day + 3 * H), check: 'cpu', host: a.name, status: 'ok' },
  ]);
  await k.post(s2.key, [
    { '@timestamp': iso(day + 5 * H), check: 'cpu', host: b.name, severity: 'critical', ticket: 'INC-9' },
    { '@timestamp': iso(day + 6 * H), check: 'cpu', host: b.name, status: 'ok' },
  ]);
  const template = await k.template({ type: 'Single', configItems: [{ id: a.id }, { id: b.id, weight: 3 }] });
  const ordered = await k.order({ template: { id: template.id }, range: { start: iso(day), end: iso(day + 24 * H) } });
  t.equal(ordered.status, 200, ordered.text);
  t.equal(ordered.body.status, 'Pending');
  const report = await k.finished(ordered.body.id);
  t.equal(report.status, 'Ok', report.error ?? '');
  t.type(report.reportId, 'string');

  const cis = await k.exportOf(report.id, '?format=json&exportType=configItems');
  t.equal(cis.status, 200, cis.text);
  t.equal(cis.headers.get('content-type'), 'application/json');
  const [rowA, rowB] = cis.body;
  t.equal(rowA.configItem.id, a.id);
  t.equal(rowA.problemTime.value, 0.3 * 2 * H);
  t.equal(rowA.okTime.value, 24 * H - 0.3 * 2 * H);
  t.equal(rowA.problem2EventsCount, 1);
  t.equal(rowA.maxDowntime, 2 * 3600);
  t.equal(rowB.problemTime.value, H);
  t.equal(rowB.problem1EventsCount, 1);
  t.equal(rowB.configItem.influence.value, 75);

  const events = await k.exportOf(report.id, '?format=json');
  t.equal(events.status, 200, events.text);
  t.equal(events.body.length, 2);
  t.match(events.body[0], { trigger: { name: 'cpu30' }, priority: 'Problem2', dateStart: iso(day + H), dateEnd: iso(day + 3 * H), duration: 2 * H, isIncluded: true });
  t.match(events.body[1], {
    trigger: { name: 'down' },
    priority: 'Problem1',
    incidents: [{ connector: { id: 7, name: 'tracker' }, incidents: [{ id: 'INC-9', type: 'Incident' }] }],
  });

  const csv = await k.exportOf(report.id, '?format=csv&exportType=configItems');
  t.equal(csv.status, 200);
  t.match(csv.headers.get('content-type'), /^text\/csv/);
  t.match(csv.headers.get('content-disposition'), /attachment; filename=".*\.csv"/);
  t.equal(
    csv.text.split('\n')[0],
    'Id,Name,ConfigItemType,Influence,ServiceAvailability,ServiceAvailabilityTime,ProblemTimePercent,ProblemTime,AttendedTime,UnattendedTime,MaintenanceTime,EventsCount,Problem1EventsCount,Problem2EventsCount,Problem3EventsCount,Problem4EventsCount,MaxDownTime',
  );

  const xls = await k.exportOf(report.id, '');
  t.equal(xls.status, 200);
  t.equal(xls.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
});

/**
 * Issue #17: everything that reads maintenance reads a recurring mode's occurrences — the CI's
 * state under maintenance, the problem rows' withMaintenance, and the SLA maintenance bucket —
 * worked by hand for a weekly Sunday 02:00–04:00 Europe/Berlin window across the spring-forward
 * night of 2027-03-28 (that night 03:00–04:00 CEST, 01:00Z–02:00Z; before it 01:00Z–03:00Z; after
 * it 00:00Z–02:00Z).
 */
import t from 'tap';
import { MAINT } from '../problems/problems-kit.js';
import { SlaKit } from './sla-kit.js';

const k = new SlaKit();
t.before(() => k.start());
t.teardown(() => k.stop());

const H = 3_600_000;
const DAY = 24 * H;

t.test('state under maintenance, withMaintenance and the SLA maintenance bucket follow the occurrences', async (t) => {
  k.clock = Date.parse('2027-03-01T00:00:00Z');
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  await k.trigger(stream.id, { influence: { value: 0, maxInfluence: true } });
  const mode = await k.api('POST', MAINT, {
    json: {
      title: 'Sunday window',
      dateStart: '2027-03-21T02:00:00+01:00',
      dateEnd: '2027-03-21T04:00:00+01:00',
      configItems: [{ id: ci.id, scope: 'Ci' }],
      recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
    },
  });
  t.equal(mode.status, 201, mode.text);

  await k.post(stream.key, [{ '@timestamp': '2027-03-28T00:00:00Z', check: 'cpu', host: ci.name, severity: 'critical' }]);
  k.clock = Date.parse('2027-03-28T01:30:00Z');
  t.match((await k.getCi(ci.id)).state, { value: 'Problem', valueUnderMaintenance: 'Problem' }, '03:30 CEST: inside the short window');
  k.clock = Date.parse('2027-03-28T02:30:00Z');
  t.match((await k.getCi(ci.id)).state, { value: 'Problem', valueUnderMaintenance: 'Unknown' }, '04:30 CEST: after it');

  await k.post(stream.key, [
    { '@timestamp': '2027-03-28T03:00:00Z', check: 'cpu', host: ci.name, status: 'ok' },
    { '@timestamp': '2027-03-30T10:00:00Z', check: 'cpu', host: ci.name, severity: 'critical' },
    { '@timestamp': '2027-03-30T11:00:00Z', check: 'cpu', host: ci.name, status: 'ok' },
  ]);
  const rows = await k.problems(ci.id);
  t.same(
    rows.map((r) => [r.date_start.slice(0, 16), r.with_maintenance]),
    [
      ['2027-03-28 00:00', 1],
      ['2027-03-30 10:00', 0],
    ],
    'the problem across the short window is with maintenance; the Tuesday one is not',
  );

  k.clock = Date.parse('2027-04-06T00:00:00Z');
  const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }] });
  const start = Date.parse('2027-03-20T00:00:00Z');
  const end = Date.parse('2027-04-05T00:00:00Z');
  const report = await k.finished(await k.ordered({ template: { id: template.id }, range: { start: new Date(start).toISOString(), end: new Date(end).toISOString() } }));
  t.equal(report.status, 'Ok', report.error ?? '');
  const [row] = (await k.exportOf(report.id, '?format=json&exportType=configItems')).body;
  // 21 March 01–03Z (2 h), 28 March 01–02Z (1 h, the short night), 4 April 00–02Z (2 h).
  t.equal(row.maintenanceTime.value, 5 * H, 'maintenance: 2 h + 1 h + 2 h');
  // 28 March 00–03Z less its hour of maintenance, and 30 March 10–11Z.
  t.equal(row.problemTime.value, 2 * H + H, 'problem: 2 h + 1 h');
  t.equal(row.okTime.value, end - start - 5 * H - 3 * H, 'the rest is ok');
  t.equal(end - start, 16 * DAY);
});

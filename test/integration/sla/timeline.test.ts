/**
 * Issue #18: a finished report's timeline for each of its CIs adds up exactly to the report's
 * figures for that CI, for reports with and without a working calendar across the DST change of
 * 2027-03-28 in Europe/Berlin, with overlapping one-off and recurring maintenance, problems of
 * several priorities and influences, and one still open when the report was calculated.
 */
import ExcelJS from 'exceljs';
import t from 'tap';
import { MAINT } from '../problems/problems-kit.js';
import { SLA, SlaKit } from './sla-kit.js';

const k = new SlaKit();
t.before(() => k.start());
t.teardown(() => k.stop());

const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const start = Date.parse('2027-03-25T00:00:00Z');
const end = Date.parse('2027-04-01T00:00:00Z');

interface Row {
  configItem: { id: number };
  okTime: { value: number };
  problemTime: { value: number };
  unattendedTime: { value: number };
  maintenanceTime: { value: number };
  maxDowntime: number;
}

t.test('for every CI of several reports, the timeline adds up to the report’s figures, segment by segment', async (t) => {
  k.clock = Date.parse('2027-03-20T00:00:00Z');
  const wg = await k.workGroup();
  const cis: Array<{ id: number; name: string }> = [];
  for (let i = 0; i < 4; i++) cis.push(await k.ci({ ownerWorkGroup: { id: wg.id } }));
  const stream = await k.stream();
  await k.trigger(stream.id, { name: 'cpu30', influence: { value: 30, maxInfluence: false } });
  const s2 = await k.stream();
  await k.trigger(s2.id, { name: 'down', influence: { value: 0, maxInfluence: true } });

  const mode = (body: Record<string, unknown>) =>
    k.api('POST', MAINT, {
      json: {
        configItems: [
          { id: cis[0]!.id, scope: 'Ci' },
          { id: cis[1]!.id, scope: 'Ci' },
        ],
        ...body,
      },
    });
  t.equal((await mode({ title: 'one-off', dateStart: '2027-03-27T20:00:00Z', dateEnd: '2027-03-28T02:30:00Z' })).status, 201);
  const weekly = await mode({
    title: 'Sundays',
    dateStart: '2027-03-28T03:00:00+02:00',
    dateEnd: '2027-03-28T05:00:00+02:00',
    recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU', timeZone: 'Europe/Berlin' },
  });
  t.equal(weekly.status, 201, weekly.text);

  const at = (ms: number) => new Date(ms).toISOString();
  await k.post(stream.key, [
    { '@timestamp': at(Date.parse('2027-03-26T15:00:00Z')), check: 'cpu', host: cis[0]!.name, severity: 'major' },
    { '@timestamp': at(Date.parse('2027-03-29T09:00:00Z')), check: 'cpu', host: cis[0]!.name, status: 'ok' },
    { '@timestamp': at(Date.parse('2027-03-28T00:00:00Z')), check: 'cpu', host: cis[2]!.name, severity: 'minor' },
    { '@timestamp': at(Date.parse('2027-03-28T06:00:00Z')), check: 'cpu', host: cis[2]!.name, status: 'ok' },
  ]);
  await k.post(s2.key, [
    { '@timestamp': at(Date.parse('2027-03-27T23:00:00Z')), check: 'cpu', host: cis[1]!.name, severity: 'critical' },
    { '@timestamp': at(Date.parse('2027-03-28T04:00:00Z')), check: 'cpu', host: cis[1]!.name, status: 'ok' },
    { '@timestamp': at(Date.parse('2027-03-31T10:00:00Z')), check: 'cpu', host: cis[3]!.name, severity: 'critical' },
  ]);

  k.clock = Date.parse('2027-03-31T18:00:00Z');
  const configItems = cis.map((c) => ({ id: c.id }));
  const plain = await k.template({ type: 'Single', configItems, priorities: [1, 2, 3] });
  const office = await k.template({
    type: 'Single',
    configItems,
    priorities: [1, 2],
    timeZone: 'Europe/Berlin',
    calendar: {
      week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })),
      holidays: ['2027-03-29'],
    },
  });
  const keepsMaintenance = await k.template({ type: 'Single', configItems, priorities: [1, 2, 3, 4], excludeMaintenance: false });

  const timelines = new Map<number, { segments: Array<{ bucket: string }> }>();
  let officeReport = '';
  for (const template of [plain, office, keepsMaintenance]) {
    const report = await k.finished(await k.ordered({ template: { id: template.id }, range: { start: iso(start), end: iso(end) } }));
    t.equal(report.status, 'Ok', report.error ?? '');
    if (template === office) officeReport = report.id;
    const rows = (await k.exportOf(report.id, '?format=json&exportType=configItems')).body as Row[];
    t.equal(rows.length, 4);
    for (const row of rows) {
      const answer = await k.api('GET', `${SLA}/ordered/${report.id}/timeline?configItemId=${row.configItem.id}`);
      t.equal(answer.status, 200, answer.text);
      const timeline = answer.body;
      const what = `${template.name}, CI ${row.configItem.id}`;
      t.same(
        timeline.totals,
        {
          okMs: row.okTime.value,
          problemMs: row.problemTime.value,
          unattendedMs: row.unattendedTime.value,
          maintenanceMs: row.maintenanceTime.value,
          maxDowntimeSeconds: row.maxDowntime,
        },
        `${what}: totals are the report's figures`,
      );
      const segments = timeline.segments as Array<{ dateStart: string; dateEnd: string; bucket: string; durationMs: number; problemMs: number }>;
      t.equal(segments[0]!.dateStart, iso(start), `${what}: from the range's start`);
      t.equal(segments.at(-1)!.dateEnd, iso(end), `${what}: to its end`);
      t.ok(
        segments.every((s, i) => i === 0 || s.dateStart === segments[i - 1]!.dateEnd),
        `${what}: contiguous`,
      );
      const sum = (bucket: string) => segments.filter((s) => s.bucket === bucket).reduce((n, s) => n + s.durationMs, 0);
      t.equal(sum('unattended'), row.unattendedTime.value, `${what}: unattended segments`);
      t.equal(sum('maintenance'), row.maintenanceTime.value, `${what}: maintenance segments`);
      t.equal(Math.round(segments.reduce((n, s) => n + s.problemMs, 0)), row.problemTime.value, `${what}: weighted problem segments`);
      if (template === office) timelines.set(row.configItem.id, timeline);
      if (template === plain && row.configItem.id === cis[0]!.id) {
        const titles = new Set(
          timeline.segments
            .filter((s: { bucket: string }) => s.bucket === 'maintenance')
            .flatMap((s: { maintenanceModes: Array<{ title: string }> }) => s.maintenanceModes.map((m) => m.title)),
        );
        t.same([...titles].sort(), ['Sundays', 'one-off'], 'the maintenance segments name both modes');
      }
    }
  }

  // The workbook of the CI export: the CI sheet, then the timelines of the worst CIs, worst first.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await k.exportBytes(officeReport, '?format=xls&exportType=configItems')).bytes as unknown as ArrayBuffer);
  t.same(
    workbook.worksheets.map((w) => w.name),
    ['Configuration items', 'Timeline'],
  );
  const cisSheet = workbook.worksheets[0]!;
  const byAvailability: Array<[number, number]> = [];
  for (let r = 2; r <= cisSheet.rowCount; r++) byAvailability.push([Number(cisSheet.getRow(r).getCell(1).value), Number(cisSheet.getRow(r).getCell(5).value)]);
  byAvailability.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const sheet = workbook.worksheets[1]!;
  t.same((sheet.getRow(1).values as unknown[]).slice(1), ['Id', 'Name', 'Start', 'End', 'Bucket', 'Duration', 'Weight', 'ProblemTime', 'Problems', 'MaintenanceModes', 'Holidays']);
  const lines: Array<{ id: number; bucket: string }> = [];
  for (let r = 2; r <= sheet.rowCount; r++) lines.push({ id: Number(sheet.getRow(r).getCell(1).value), bucket: String(sheet.getRow(r).getCell(5).value) });
  t.same(
    [...new Set(lines.map((l) => l.id))],
    byAvailability.map(([id]) => id),
    'every CI (fewer than 20), worst availability first',
  );
  for (const [id, timeline] of timelines) {
    t.same(
      lines.filter((l) => l.id === id).map((l) => l.bucket),
      timeline.segments.map((s) => s.bucket),
      `CI ${id}: the sheet's segments are the timeline's`,
    );
  }
});

t.test('the timeline names what is behind each segment: the modes, the calendar, the problems and the weight', async (t) => {
  k.clock = Date.parse('2027-03-20T00:00:00Z');
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  await k.trigger(stream.id, { influence: { value: 30, maxInfluence: false } });
  const created = await k.api('POST', MAINT, {
    json: { title: 'night work', dateStart: '2027-03-26T20:00:00Z', dateEnd: '2027-03-26T22:00:00Z', configItems: [{ id: ci.id, scope: 'Ci' }] },
  });
  await k.post(stream.key, [
    { '@timestamp': '2027-03-26T16:00:00Z', check: 'cpu', host: ci.name, severity: 'major' },
    { '@timestamp': '2027-03-26T21:00:00Z', check: 'cpu', host: ci.name, status: 'ok' },
  ]);
  k.clock = Date.parse('2027-03-31T18:00:00Z');
  const template = await k.template({
    type: 'Single',
    configItems: [{ id: ci.id }],
    timeZone: 'Europe/Berlin',
    calendar: { week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })), holidays: ['2027-03-29'] },
  });
  const report = await k.finished(await k.ordered({ template: { id: template.id }, range: { start: '2027-03-26T00:00:00Z', end: '2027-03-30T00:00:00Z' } }));
  const { body } = await k.api('GET', `${SLA}/ordered/${report.id}/timeline?configItemId=${ci.id}`);
  const segs = body.segments as Array<Record<string, any>>;
  const problemId = body.problems[0].id;
  // Friday 26 March, CET (UTC+1): working 08:00Z–17:00Z. The problem 16:00Z–21:00Z counts 16:00–17:00Z at 30 %;
  // after 17:00Z the day is unattended (the calendar wins over maintenance at 20:00–22:00Z, first match).
  t.match(
    segs.find((s) => s.dateStart === '2027-03-26T16:00:00.000Z'),
    { dateEnd: '2027-03-26T17:00:00.000Z', bucket: 'problem', weightPercent: 30, problemMs: 0.3 * H, problems: [problemId] },
  );
  // From Friday 18:00 CET to the range's end (Tuesday 02:00 CEST) nobody works: the weekend, then the holiday of Monday 29 March.
  const weekend = segs.filter((s) => s.bucket === 'unattended' && s.dateStart >= '2027-03-26T17:00:00.000Z');
  t.same(
    weekend.map((s) => [s.dateStart, s.dateEnd, s.problems.length]),
    [
      ['2027-03-26T17:00:00.000Z', '2027-03-26T21:00:00.000Z', 1],
      ['2027-03-26T21:00:00.000Z', '2027-03-30T00:00:00.000Z', 0],
    ],
    'the problem is listed while it is open, hidden by the calendar',
  );
  t.same(
    weekend.map((s) => s.calendar),
    [
      { timeZone: 'Europe/Berlin', holidays: [] },
      { timeZone: 'Europe/Berlin', holidays: ['2027-03-29'] },
    ],
    'the holiday is named where it falls',
  );
  t.equal(weekend[0]!.problems[0], problemId);
  t.equal(body.totals.problemMs, 0.3 * H);
  t.equal(body.totals.maxDowntimeSeconds, 3600);
  t.equal(created.status, 201);
});

t.test('refusals: a CI not in the report 404, a Multi report 400, a mode changed since the calculation 409, a bad id 400', async (t) => {
  k.clock = Date.parse('2027-03-20T00:00:00Z');
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const other = await k.ci({ ownerWorkGroup: { id: wg.id } });
  // Recurring, so it is still Active (and editable) after the report.
  const mode = await k.api('POST', MAINT, {
    json: {
      dateStart: '2027-03-26T20:00:00Z',
      dateEnd: '2027-03-26T22:00:00Z',
      configItems: [{ id: ci.id, scope: 'Ci' }],
      recurrence: { rule: 'FREQ=WEEKLY;BYDAY=FR', timeZone: 'UTC' },
    },
  });
  t.equal(mode.status, 201, mode.text);
  k.clock = Date.parse('2027-03-31T18:00:00Z');
  const single = await k.template({ type: 'Single', configItems: [{ id: ci.id }] });
  const report = await k.finished(await k.ordered({ template: { id: single.id }, range: { start: '2027-03-26T00:00:00Z', end: '2027-03-30T00:00:00Z' } }));
  const timeline = (query: string) => k.api('GET', `${SLA}/ordered/${report.id}/timeline${query}`);
  t.equal((await timeline(`?configItemId=${ci.id}`)).status, 200);
  const missing = await timeline(`?configItemId=${other.id}`);
  t.equal(missing.status, 404);
  t.equal(missing.body.code, 'sla_report.ci_not_in_report');
  t.equal((await timeline('?configItemId=x')).status, 400);
  t.equal((await timeline('')).status, 400);

  const multi = await k.template({ type: 'Multi', templates: [{ id: single.id, weight: 1 }] });
  const multiReport = await k.finished(await k.ordered({ template: { id: multi.id }, range: { start: '2027-03-26T00:00:00Z', end: '2027-03-30T00:00:00Z' } }));
  const fromMulti = await k.api('GET', `${SLA}/ordered/${multiReport.id}/timeline?configItemId=${ci.id}`);
  t.equal(fromMulti.status, 400);
  t.equal(fromMulti.body.code, 'sla_report.timeline_single_only');

  k.clock += 60_000;
  t.equal((await k.api('PATCH', `${MAINT}/${mode.body.id}`, { json: { title: 'renamed' } })).status, 200);
  const changed = await timeline(`?configItemId=${ci.id}`);
  t.equal(changed.status, 409);
  t.equal(changed.body.code, 'sla_report.inputs_changed');
});

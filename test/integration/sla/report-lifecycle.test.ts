/**
 * Custom SLA reports from order to export (spec 2.12–2.16, 3.3, 4.3; DESIGN §9): the default
 * range from the template's period in its time zone, a job taken again after its worker died, a
 * Multi template's rows, the CSV of events, the xlsx workbook read back against the CSV, and who
 * reads a report (its orderer, the members of its template's owner workgroup).
 */

import ExcelJS from 'exceljs';
import t from 'tap';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import { SLA_REPORT_PROBLEMS } from '../../../schemas/tables/sla-report-problems.table.js';
import { SLA_REPORT_ROWS } from '../../../schemas/tables/sla-report-rows.table.js';
import { BusUnavailableError } from '../../../services/runtime/adapters/bus/bus.port.js';
import { keys, type Named } from '../cmdb/cmdb-kit.js';
import { parseCsv, SLA, SlaKit, SlaWorkerGate } from './sla-kit.js';

const k = new SlaKit();
const gate = new SlaWorkerGate();

const H = 3_600_000;
const DAY = 24 * H;
const day = Date.parse('2026-03-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const range = { start: iso(day), end: iso(day + DAY) };
/** A problem an earlier, interrupted attempt of a report copied. */
const STALE_PROBLEM = '00000000-0000-4000-8000-00000000057a';
/** Spec 2.15: day.month.year hour:minute. */
const CSV_DATE = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/;

let wg: Named;
/** Its trigger opens problems of priority 1 (`critical`) or 2 (`major`) at 100 % influence, with `ticket` as incident. */
let stream: { id: number; key: string };
let triggerName: string;

t.before(async () => {
  await k.startWith({ replace: [gate.part] });
  wg = await k.workGroup();
  stream = await k.stream();
  triggerName = (await k.trigger(stream.id, { name: k.uniq('down'), influence: { value: 0, maxInfluence: true } })).name;
});
t.teardown(() => k.stop());

const newCi = async (): Promise<{ id: number; name: string }> => {
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  return { id: ci.id, name: ci.name };
};

/** A problem on `host` from `from` until `to` (open when null). */
async function problem(host: string, from: number, to: number | null, extra: Record<string, unknown> = {}): Promise<void> {
  const records: object[] = [{ '@timestamp': iso(from), check: 'cpu', host, severity: 'critical', ...extra }];
  if (to !== null) records.push({ '@timestamp': iso(to), check: 'cpu', host, status: 'ok' });
  await k.post(stream.key, records);
}

async function okReport(body: unknown, token?: string): Promise<any> {
  const id = await k.ordered(body, token);
  const report = await k.finished(id, token);
  if (report.status !== 'Ok') throw new Error(`report ${id}: ${report.status} ${report.error}`);
  return report;
}

t.test('a worker that dies mid-job leaves the job to be taken again', async (t) => {
  const ci = await newCi();
  const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }] });
  const hold = gate.hold();
  const id = await k.ordered({ template: { id: template.id }, range });
  t.equal(await hold.reached, id, 'the worker has taken the job');
  t.equal((await k.api('GET', `${SLA}/ordered/${id}`)).body.status, 'Pending');

  // What an earlier attempt would have left had it died after storing: rows and a copied problem
  // of this report, which the job taken again must not keep beside its own.
  const analytics = k.p.platform.engines.analytics;
  // Dated by the real clock, as the worker dates them: the tables' TTL runs on it.
  const created = clickhouseDateTime(Date.now());
  await analytics.insert(
    SLA_REPORT_ROWS.name,
    [0, 7].map((seq) => ({ report_id: id, kind: 'configItems', seq, row: '{"stale":true}', created_at: created })),
  );
  await analytics.insert(SLA_REPORT_PROBLEMS.name, [
    {
      report_id: id,
      id: STALE_PROBLEM,
      trigger_id: 1,
      trigger_name: 'stale',
      ci_id: ci.id,
      date_start: '2026-03-01 01:00:00.000',
      date_end: null,
      priority: 1,
      tags: '[]',
      incidents: '[]',
      influence_value: 100,
      influence_max: 1,
      with_maintenance: 0,
      created_at: created,
    },
  ]);
  const stored = await analytics.query<{ n: string }>(`SELECT count() AS n FROM ${SLA_REPORT_ROWS.name} WHERE report_id = {r:String}`, { r: id });
  t.equal(Number(stored[0]?.n), 2, 'the earlier attempt’s rows are on disk before the job runs again');

  const dying = k.p;
  // The process goes away mid-job: the bus is gone, so the handler gives the job back.
  const busGone = new BusUnavailableError('the bus went away');
  await k.restart({ whileStopping: () => hold.fail(busGone) });
  const before = dying.logs.join('');
  t.match(before, /SLA calculation interrupted; the job will run again/);
  t.notMatch(before, /SLA report failed/, 'no Error was recorded');
  t.notMatch(before, /SLA report calculated/);

  // A new platform on the same data directory, with the normal SLA worker.
  const report = await k.finished(id);
  t.equal(report.status, 'Ok', report.error ?? '');
  t.type(report.reportId, 'string');
  t.equal(report.error, null);
  t.match(k.p.logs.join(''), /SLA report calculated/);
  const cis = await k.exportOf(id, '?format=json&exportType=configItems');
  t.equal(cis.status, 200, cis.text);
  t.equal(cis.body.length, 1);
  t.equal(cis.body[0].configItem.id, ci.id);
  t.equal(cis.body[0].okTime.value, DAY);
  t.equal(cis.body[0].configItem.configItemType.userspaceId, 1, "the platform's one userspace, as for workgroups");
  t.equal(cis.body[0].configItem.configItemType.icon, null, 'a type without icon: null (ci-type-icon-export.test.ts shows one with)');
  const onDisk = async (sql: string): Promise<number> => Number((await k.p.platform.engines.analytics.query<{ n: string }>(sql, { r: id, stale: STALE_PROBLEM }))[0]?.n);
  t.equal(await onDisk(`SELECT count() AS n FROM ${SLA_REPORT_ROWS.name} WHERE report_id = {r:String}`), 1, 'its one CI row on disk, the earlier attempt’s gone (no FINAL)');
  t.equal(await onDisk(`SELECT count() AS n FROM ${SLA_REPORT_PROBLEMS.name} WHERE report_id = {r:String} AND id = {stale:UUID}`), 0, 'the earlier attempt’s copied problem gone');
});

t.test('the range omitted: the template’s period in its time zone', async (t) => {
  const saved = k.clock;
  t.teardown(() => void (k.clock = saved));
  const ci = await newCi();
  const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }], period: 'Yesterday', timeZone: 'Europe/Berlin' });

  // 23:30 UTC on 1 March is 00:30 on 2 March in Berlin (UTC+1): yesterday there is 1 March.
  k.clock = Date.parse('2026-03-01T23:30:00.000Z');
  const ordered = await k.order({ template: { id: template.id } });
  t.equal(ordered.status, 200, ordered.text);
  t.match(ordered.body, { status: 'Pending', start: '2026-02-28T23:00:00.000Z', end: '2026-03-01T23:00:00.000Z', template: { id: template.id, period: 'Yesterday' } });
  const report = await k.finished(ordered.body.id);
  t.match(report, { status: 'Ok', start: '2026-02-28T23:00:00.000Z', end: '2026-03-01T23:00:00.000Z' });

  // `range: null` is the same; 29 March, the change to summer time, has 23 hours in Berlin.
  k.clock = Date.parse('2026-03-30T10:00:00.000Z');
  const short = await okReport({ template: { id: template.id }, range: null });
  t.equal(short.start, '2026-03-28T23:00:00.000Z');
  t.equal(short.end, '2026-03-29T22:00:00.000Z');
  const cis = await k.exportOf(short.id, '?format=json&exportType=configItems');
  t.equal(cis.body[0].okTime.value, 23 * H, 'the figures cover the 23 hours');
});

t.test('a Multi template (weights 1 and 3): one row per template, influence 0.25 and 0.75; the CSV columns of spec 2.16', async (t) => {
  const a = await newCi();
  const b = await newCi();
  await problem(a.name, day + 5 * H, day + 6 * H);
  const first = await k.template({ type: 'Single', configItems: [{ id: a.id }] });
  const second = await k.template({ type: 'Single', configItems: [{ id: b.id }] });
  const multi = await k.template({
    type: 'Multi',
    templates: [
      { id: first.id, weight: 1 },
      { id: second.id, weight: 3 },
    ],
  });
  const report = await okReport({ template: { id: multi.id }, range });
  t.match(report.template, { id: multi.id, name: multi.name, type: 'Multi' });

  const json = await k.exportOf(report.id, '?format=json');
  t.equal(json.status, 200, json.text);
  t.equal(json.headers.get('content-type'), 'application/json');
  const rows = json.body;
  t.equal(rows.length, 2, 'one row per template');
  t.same(keys(rows[0]), [
    'attendedTime',
    'eventsCount',
    'influence',
    'maintenanceTime',
    'maxDownTime',
    'name',
    'okTime',
    'problem1EventsCount',
    'problem2EventsCount',
    'problem3EventsCount',
    'problem4EventsCount',
    'problemTime',
    'problemTimePercent',
    'serviceAvailability',
    'unattendedTime',
    'weight',
  ]);
  t.match(rows[0], {
    name: first.name,
    weight: 1,
    influence: 0.25,
    okTime: 23 * H,
    problemTime: H,
    attendedTime: DAY,
    unattendedTime: 0,
    maintenanceTime: 0,
    eventsCount: 1,
    problem1EventsCount: 1,
    maxDownTime: H,
  });
  t.ok(Math.abs(rows[0].serviceAvailability - (23 / 24) * 100) < 1e-9, `availability ${rows[0].serviceAvailability}`);
  t.ok(Math.abs(rows[0].problemTimePercent - 100 / 24) < 1e-9, `problem percent ${rows[0].problemTimePercent}`);
  t.match(rows[1], { name: second.name, weight: 3, influence: 0.75, okTime: DAY, problemTime: 0, serviceAvailability: 100, eventsCount: 0, maxDownTime: 0 });

  const csv = await k.exportOf(report.id, '?format=csv');
  t.equal(csv.status, 200);
  t.match(csv.headers.get('content-type'), /^text\/csv/);
  const [header, ...lines] = parseCsv(csv.text);
  t.same(header, [
    'Name',
    'Weight',
    'Influence',
    'ServiceAvailability',
    'OkTime',
    'ProblemTimePercent',
    'ProblemTime',
    'AttendedTime',
    'UnattendedTime',
    'MaintenanceTime',
    'EventsCount',
    'Problem1EventsCount',
    'Problem2EventsCount',
    'Problem3EventsCount',
    'Problem4EventsCount',
    'MaxDownTime',
  ]);
  const seconds = (ms: number) => String(Math.round(ms / 1000));
  t.same(
    lines,
    rows.map((r: any) => [
      r.name,
      String(r.weight),
      String(r.influence),
      String(r.serviceAvailability),
      seconds(r.okTime),
      String(r.problemTimePercent),
      seconds(r.problemTime),
      seconds(r.attendedTime),
      seconds(r.unattendedTime),
      seconds(r.maintenanceTime),
      String(r.eventsCount),
      String(r.problem1EventsCount),
      String(r.problem2EventsCount),
      String(r.problem3EventsCount),
      String(r.problem4EventsCount),
      seconds(r.maxDownTime),
    ]),
    'the JSON rows, times in seconds',
  );
  t.same(lines[0]!.slice(0, 3), [first.name, '1', '0.25']);
  t.same([lines[0]![4], lines[0]![6], lines[0]![7], lines[0]![15]], ['82800', '3600', '86400', '3600']);
  t.same(lines[1]!.slice(0, 4), [second.name, '3', '0.75', '100']);
});

t.test('the CSV of exportType=events: the spec 2.15 header, dd.MM.yyyy HH:mm dates in the template’s time zone', async (t) => {
  const ci = await newCi();
  await problem(ci.name, day + 5 * H, day + 6 * H, { ticket: 'INC-42' });
  await problem(ci.name, day + 20 * H, null, { severity: 'major' });
  const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }], timeZone: 'Europe/Berlin' });
  const report = await okReport({ template: { id: template.id }, range });
  const events = (await k.exportOf(report.id, '?format=json')).body;
  t.equal(events.length, 2);
  t.equal(events[1].dateEnd, null, 'the second problem has not ended');

  const csv = await k.exportOf(report.id, '?format=csv&exportType=events');
  t.equal(csv.status, 200);
  t.match(csv.headers.get('content-disposition'), /attachment; filename=".*\.csv"/);
  const text = csv.text.split('\n');
  t.equal(text[0], 'Id,Problem,Priority,Start,End,Duration,InfluencedCI,Tags,Incidents');
  // 05:00 UTC is 06:00 in Berlin; multi-valued cells are quoted, an empty one is not.
  t.equal(text[1], `${events[0].id},${triggerName},Problem1,01.03.2026 06:00,01.03.2026 07:00,3600,"${ci.name}","cpu","INC-42"`);
  t.equal(text[2], `${events[1].id},${triggerName},Problem2,01.03.2026 21:00,,${Math.round(events[1].duration / 1000)},"${ci.name}","cpu",`);
  t.equal(text[3], '', 'the file ends with a line break');
  t.equal(text.length, 4);
  const [, ...rows] = parseCsv(csv.text);
  for (const row of rows) t.match(row[3], CSV_DATE, `Start ${row[3]}`);
});

/** The first sheet of an xlsx export (a CI export of a Single report has a "Timeline" sheet after it: timeline.test.ts), with its response. */
async function workbook(id: string, query: string): Promise<{ headers: Headers; sheet: ExcelJS.Worksheet }> {
  const answer = await k.exportBytes(id, query);
  if (answer.status !== 200) throw new Error(`export: ${answer.status} ${answer.bytes.toString()}`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(answer.bytes as unknown as ArrayBuffer);
  if (wb.worksheets.length < 1 || wb.worksheets.length > 2) throw new Error(`${wb.worksheets.length} worksheets`);
  return { headers: answer.headers, sheet: wb.worksheets[0]! };
}

/** The rows of a sheet as arrays of cell values, columns 1..width. */
function sheetRows(sheet: ExcelJS.Worksheet, width: number): ExcelJS.CellValue[][] {
  const rows: ExcelJS.CellValue[][] = [];
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    rows.push(Array.from({ length: width }, (_, c) => row.getCell(c + 1).value));
  }
  return rows;
}

/** How a cell reads in the CSV: numbers as JS prints them, dates as their wall clock `dd.MM.yyyy HH:mm`, empty as ''. */
function asCsv(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0');
    return `${p(value.getUTCDate())}.${p(value.getUTCMonth() + 1)}.${value.getUTCFullYear()} ${p(value.getUTCHours())}:${p(value.getUTCMinutes())}`;
  }
  return String(value);
}

/** A Single template in Berlin over two CIs, one with a 1 h outage. */
async function twoCiReport(): Promise<any> {
  const a = await newCi();
  const b = await newCi();
  await problem(a.name, day + 5 * H, day + 6 * H, { ticket: 'INC-7' });
  const template = await k.template({ type: 'Single', configItems: [{ id: a.id }, { id: b.id, weight: 3 }], timeZone: 'Europe/Berlin' });
  return okReport({ template: { id: template.id }, range });
}

t.test('the xlsx of configItems read back with exceljs: the CSV cell by cell, a bold frozen header, an autofilter', async (t) => {
  const report = await twoCiReport();
  const csv = parseCsv((await k.exportOf(report.id, '?format=csv&exportType=configItems')).text);
  const { headers, sheet } = await workbook(report.id, '?format=xls&exportType=configItems');
  t.equal(headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.match(headers.get('content-disposition'), /^attachment; filename="[^"]+\.xlsx"; filename\*=UTF-8''\S+\.xlsx$/, 'names a .xlsx file');

  const width = csv[0]!.length;
  t.equal(width, 17);
  t.equal(sheet.rowCount, csv.length, 'the same number of rows');
  t.equal(sheet.actualColumnCount, width, 'the same number of columns');
  const rows = sheetRows(sheet, width);
  t.same(
    rows.map((row) => row.map(asCsv)),
    csv,
    'every cell as in the CSV',
  );
  // Typed cells: the numeric columns are numbers, the names text.
  for (const row of rows.slice(1)) {
    t.same(
      row.map((v) => typeof v),
      ['number', 'string', 'string', ...Array(14).fill('number')],
      `cell types of CI ${String(row[0])}`,
    );
  }
  t.equal(rows.length, 3);

  for (let c = 1; c <= width; c++) t.equal(sheet.getRow(1).getCell(c).font?.bold, true, `header ${csv[0]![c - 1]} is bold`);
  t.equal(sheet.getRow(2).getCell(1).font?.bold ?? false, false, 'a data cell is not');
  t.match(sheet.views[0], { state: 'frozen', ySplit: 1 }, 'the header row is frozen');
  const filter = sheet.autoFilter;
  const ref = typeof filter === 'string' ? filter : undefined;
  t.equal(ref, 'A1:Q3', 'an autofilter over the header and both rows');
});

t.test('the default export (no query) is the events xlsx: date cells show the CSV’s wall-clock time', async (t) => {
  const report = await twoCiReport();
  const csv = parseCsv((await k.exportOf(report.id, '?format=csv')).text);
  const { headers, sheet } = await workbook(report.id, '');
  t.match(headers.get('content-disposition'), /filename="[^"]+ events\.xlsx"/);
  const rows = sheetRows(sheet, 9);
  t.same(rows[0], ['Id', 'Problem', 'Priority', 'Start', 'End', 'Duration', 'InfluencedCI', 'Tags', 'Incidents']);
  t.same(
    rows.map((row) => row.map(asCsv)),
    csv,
    'every cell as in the CSV',
  );
  t.equal(rows.length, 2);
  t.ok(rows[1]![3] instanceof Date, 'Start is a date cell');
  t.equal(asCsv(rows[1]![3]!), '01.03.2026 06:00', 'shown at Berlin time');
  t.equal(sheet.getRow(2).getCell(4).numFmt, 'dd.mm.yyyy hh:mm');
  t.equal(rows[1]![5], 3600, 'Duration is a number of seconds');
});

t.test('a user reads the report they ordered; another member of the template’s owner workgroup reads it too', async (t) => {
  const team = await k.workGroup();
  const ci = await newCi();
  const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }], ownerType: 'WorkGroup', workGroupId: team.id, userId: null });
  const orderer = await k.reader([team.id]);
  const colleague = await k.reader([team.id]);
  const outsider = await k.reader();

  const ordered = await k.order({ template: { id: template.id }, range }, orderer.token);
  t.equal(ordered.status, 200, ordered.text);
  t.match(ordered.body, {
    status: 'Pending',
    reportId: null,
    ownerType: 'User',
    userId: orderer.id,
    workGroup: null,
    template: { id: template.id, name: template.name, type: 'Single', ownerType: 'WorkGroup', userId: null, workGroup: { id: team.id, name: team.name } },
  });
  const id = ordered.body.id;
  const mine = await k.finished(id, orderer.token);
  t.equal(mine.status, 'Ok');
  const exported = await k.exportOf(id, '?format=json&exportType=configItems', orderer.token);
  t.equal(exported.status, 200, 'the orderer exports it');

  const seen = await k.api('GET', `${SLA}/ordered/${id}`, { token: colleague.token });
  t.equal(seen.status, 200, seen.text);
  t.same(seen.body, mine, 'the colleague sees the same report');
  const theirs = await k.exportOf(id, '?format=csv&exportType=configItems', colleague.token);
  t.equal(theirs.status, 200, 'and exports it');
  t.match(theirs.text, new RegExp(`^Id,Name,.*\\n${ci.id},${ci.name},`));

  t.equal((await k.api('GET', `${SLA}/ordered/${id}`, { token: outsider.token })).status, 403, 'someone outside the workgroup does not');
  t.equal((await k.api('DELETE', `/api/admin/v1/work-groups/${team.id}/members/${colleague.id}`)).status, 200);
  t.equal((await k.api('GET', `${SLA}/ordered/${id}`, { token: colleague.token })).status, 403, 'nor does the colleague once out of it');
});

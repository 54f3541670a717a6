/**
 * Exports whose parts add to their whole (issue #37). In the CSV and xlsx exports the seconds of
 * ok, problem, maintenance and unattended time add up to the range, and ok + problem +
 * maintenance to `AttendedTime` (working time, spec 2.15 and DESIGN §9), for every CI row and
 * every template row of a Multi report (a template's totals); each shown time is within 1 s of
 * the milliseconds the row holds. Checked on seeded random reports calculated by the real
 * pipeline (pipelines/sla), and on the case the issue found.
 */
import ExcelJS from 'exceljs';
import t, { type Test } from 'tap';
import { ciColumns, type ExportColumn, templateColumns } from '../../../../../pipelines/sla/export/columns.js';
import { csvExport } from '../../../../../pipelines/sla/export/csv.js';
import { xlsxExport } from '../../../../../pipelines/sla/export/xlsx.js';
import { calculateMulti } from '../../../../../pipelines/sla/multi-template.js';
import { calculateSingle } from '../../../../../pipelines/sla/single-template.js';
import type { ProblemInput, SingleTemplateInput, SlaCiInput } from '../../../../../pipelines/sla/sla.types.js';
import type { SlaCiRowModel, SlaTemplateRowModel } from '../../../../../schemas/sla-export.schema.js';
import { seededRandom } from '../../../../support/random.js';

async function* from<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

/** The exported tables as header → number per row: CSV (its names and numbers hold no comma or quote) and the first xlsx sheet. */
type Table = Array<Record<string, number>>;

async function csvTable<R>(rows: readonly R[], columns: ReadonlyArray<ExportColumn<R>>): Promise<Table> {
  let text = '';
  for await (const chunk of csvExport(from(rows), columns)) text += chunk;
  const [head, ...lines] = text.trimEnd().split('\n');
  const headers = head!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [headers[i]!, Number(cell)])));
}

async function xlsxTable<R>(rows: readonly R[], columns: ReadonlyArray<ExportColumn<R>>): Promise<Table> {
  const parts: Buffer[] = [];
  for await (const chunk of xlsxExport(from(rows), columns, { sheetName: 'Report' })) parts.push(Buffer.from(chunk));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Uint8Array.from(Buffer.concat(parts)).buffer);
  const sheet = workbook.getWorksheet('Report')!;
  const headers = columns.map((c) => c.header);
  const table: Table = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    table.push(Object.fromEntries(headers.map((h, c) => [h, Number(row.getCell(c + 1).value)])));
  }
  return table;
}

/** A row's times as its columns name them, in milliseconds (exact) and as shown (seconds). */
interface Times {
  ok: number;
  problem: number;
  attended: number;
  unattended: number;
  maintenance: number;
}
const ciExact = (r: SlaCiRowModel): Times => ({
  ok: r.okTime.value,
  problem: r.problemTime.value,
  attended: r.okTime.value + r.problemTime.value + r.maintenanceTime.value,
  unattended: r.unattendedTime.value,
  maintenance: r.maintenanceTime.value,
});
const ciShown = (c: Record<string, number>): Times => ({
  ok: c['ServiceAvailabilityTime']!,
  problem: c['ProblemTime']!,
  attended: c['AttendedTime']!,
  unattended: c['UnattendedTime']!,
  maintenance: c['MaintenanceTime']!,
});
const templateExact = (r: SlaTemplateRowModel): Times => ({
  ok: r.okTime,
  problem: r.problemTime,
  attended: r.attendedTime,
  unattended: r.unattendedTime,
  maintenance: r.maintenanceTime,
});
const templateShown = (c: Record<string, number>): Times => ({
  ok: c['OkTime']!,
  problem: c['ProblemTime']!,
  attended: c['AttendedTime']!,
  unattended: c['UnattendedTime']!,
  maintenance: c['MaintenanceTime']!,
});

/** What is wrong with a shown row against its exact times and the range (ms); nothing when it adds up. */
function sumsOf(shown: Times, exact: Times, rangeMs: number): string[] {
  const wrong: string[] = [];
  const whole = Math.round(rangeMs / 1000);
  if (shown.ok + shown.problem + shown.maintenance + shown.unattended !== whole) wrong.push(`ok + problem + maintenance + unattended ≠ range ${whole} s`);
  if (shown.ok + shown.problem + shown.maintenance !== shown.attended) wrong.push('ok + problem + maintenance ≠ AttendedTime');
  if (shown.maintenance === 0 && shown.ok + shown.problem !== shown.attended) wrong.push('ok + problem ≠ AttendedTime without maintenance');
  for (const key of ['ok', 'problem', 'attended', 'unattended', 'maintenance'] as const) {
    if (!(Math.abs(shown[key] * 1000 - exact[key]) < 1000)) wrong.push(`${key}: ${shown[key]} s for ${exact[key]} ms`);
  }
  return wrong;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-03-23T00:00:00.000Z');

/** A random Single template report: ranges, problems and maintenance to the millisecond, influences such as 50 %. */
function randomReport(random: () => number, name: string): SingleTemplateInput {
  const int = (n: number): number => Math.floor(random() * n);
  const start = T0 + int(30 * DAY);
  const length = random() < 0.2 ? int(10 * MINUTE) : int(14 * DAY);
  const range = { start, end: start + length };
  const instant = (): number => range.start - HOUR + int(length + 2 * HOUR);
  const influences: Array<ProblemInput['influence']> = [
    { value: 50, maxInfluence: false },
    { value: 30, maxInfluence: false },
    { value: 100, maxInfluence: false },
    { value: 0, maxInfluence: true },
  ];
  const cis: SlaCiInput[] = Array.from({ length: 1 + int(6) }, (_, c) => {
    const problems: ProblemInput[] = Array.from({ length: int(6) }, (_, p) => {
      const from = instant();
      return {
        id: `${name}-${c}-${p}`,
        trigger: { id: p, name: 'trigger' },
        ciId: c + 1,
        start: from,
        end: random() < 0.15 ? null : from + int(random() < 0.5 ? 10 * MINUTE : DAY),
        priority: (1 + int(4)) as ProblemInput['priority'],
        influence: random() < 0.6 ? influences[int(influences.length)]! : { value: random() * 100, maxInfluence: false },
        tags: [],
        incidents: [],
      };
    });
    const maintenance = Array.from({ length: int(3) }, () => {
      const from = instant();
      return { start: from, end: from + int(6 * HOUR) };
    });
    return { id: c + 1, name: `${name}-ci-${c + 1}`, type: { id: 1, name: 'Server', description: '' }, weight: 1 + int(5), maintenance, problems };
  });
  const calendar = random() < 0.5 ? null : { timeZone: 'Europe/Berlin', week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '17:30' })), holidays: ['2026-04-03'] };
  return { range, now: range.end - int(HOUR), priorities: [1, 2], calendar, excludeMaintenance: random() < 0.5, cis };
}

async function checkTable<R>(
  t: Test,
  what: string,
  rows: readonly R[],
  table: Table,
  shown: (c: Record<string, number>) => Times,
  exact: (r: R) => Times,
  rangeMs: (r: R) => number,
): Promise<number> {
  t.equal(table.length, rows.length, `${what}: one line per row`);
  let bad = 0;
  rows.forEach((row, i) => {
    const wrong = sumsOf(shown(table[i]!), exact(row), rangeMs(row));
    if (wrong.length > 0 && bad++ < 5) t.fail(`${what} row ${i + 1}: ${wrong.join('; ')}`);
  });
  return bad;
}

t.test('CI 127.0.0.1 (issue #37): influence 50, 108 500 ms of problem time; CSV and xlsx add up to AttendedTime', async (t) => {
  // A 38-minute range (2 280 s), always attended; one problem of 217 s at influence 50.
  const start = Date.parse('2026-03-02T10:00:00.000Z');
  const report = calculateSingle({
    range: { start, end: start + 2_280_000 },
    now: start + 3_000_000,
    priorities: [1, 2],
    calendar: null,
    excludeMaintenance: false,
    cis: [
      {
        id: 1,
        name: '127.0.0.1',
        type: { id: 1, name: 'Host', description: '' },
        weight: 1,
        maintenance: [],
        problems: [
          {
            id: 'p1',
            trigger: { id: 1, name: 'Ping lost' },
            ciId: 1,
            start: start + 600_000,
            end: start + 817_000,
            priority: 1,
            influence: { value: 50, maxInfluence: false },
            tags: [],
            incidents: [],
          },
        ],
      },
    ],
  });
  const row = report.ciRows[0]!;
  t.equal(row.problemTime.value, 108_500, 'the calculation: 108 500 ms of problem time');
  t.equal(row.okTime.value, 2_171_500);
  for (const [format, table] of [
    ['CSV', await csvTable(report.ciRows, ciColumns)],
    ['xlsx', await xlsxTable(report.ciRows, ciColumns)],
  ] as const) {
    const shown = ciShown(table[0]!);
    t.strictSame(shown, { ok: 2171, problem: 109, attended: 2280, unattended: 0, maintenance: 0 }, `${format}: 2 171 + 109 = 2 280 (it was 2 172 + 109 = 2 281)`);
    t.equal(shown.ok + shown.problem, shown.attended, `${format}: ServiceAvailabilityTime + ProblemTime = AttendedTime`);
  }
  let csv = '';
  for await (const chunk of csvExport(from(report.ciRows), ciColumns)) csv += chunk;
  t.equal(csv.split('\n')[1], '1,127.0.0.1,Host,100,95.24122807017544,2171,4.758771929824562,109,2280,0,0,1,1,0,0,0,217', 'the whole CSV line');
});

t.test('property: 60 random Single reports and their Multi report add up in CSV and xlsx, every CI and template row', async (t) => {
  const random = seededRandom(3_700);
  let bad = 0;
  let ciRows = 0;
  for (let r = 0; r < 12; r++) {
    // A Multi report of five random Single reports over one range (a Multi template's members share it).
    const singles = Array.from({ length: 5 }, (_, s) => randomReport(random, `r${r}s${s}`));
    const range = singles[0]!.range;
    const items = singles.map((input, s) => {
      const result = calculateSingle({ ...input, range, now: Math.min(input.now, range.end) });
      return { name: `T${s}`, weight: 1 + Math.floor(random() * 4), result };
    });
    const rangeMs = range.end - range.start;
    for (const { name, result } of items) {
      const rows = result.ciRows;
      ciRows += rows.length;
      bad += await checkTable(t, `report ${r} ${name} CSV`, rows, await csvTable(rows, ciColumns), ciShown, ciExact, () => rangeMs);
      bad += await checkTable(t, `report ${r} ${name} xlsx`, rows, await xlsxTable(rows, ciColumns), ciShown, ciExact, () => rangeMs);
    }
    const templates = calculateMulti(items.map(({ name, weight, result }) => ({ name, weight, figures: result.figures }))).templateRows;
    const templateRange = (row: SlaTemplateRowModel): number => row.okTime + row.problemTime + row.unattendedTime + row.maintenanceTime;
    t.ok(
      templates.every((row) => Math.abs(templateRange(row) - rangeMs) < 1),
      `report ${r}: each template row's times add up to the range in milliseconds`,
    );
    bad += await checkTable(t, `report ${r} templates CSV`, templates, await csvTable(templates, templateColumns), templateShown, templateExact, templateRange);
    bad += await checkTable(t, `report ${r} templates xlsx`, templates, await xlsxTable(templates, templateColumns), templateShown, templateExact, templateRange);
  }
  t.ok(ciRows > 100, `${ciRows} CI rows checked`);
  t.equal(bad, 0, 'every row adds up');
});

t.test('property: 2 000 rows of random millisecond parts (exact half seconds often) add up in CSV', async (t) => {
  const random = seededRandom(2_280);
  const part = (): number => {
    const seconds = Math.floor(random() * 100_000);
    const kind = random();
    return kind < 0.1 ? 0 : kind < 0.5 ? seconds * 1000 + 500 : seconds * 1000 + Math.floor(random() * 1000);
  };
  const share = (value: number) => ({ percent: 0, value });
  const rows: SlaCiRowModel[] = Array.from({ length: 2_000 }, (_, i) => ({
    configItem: {
      id: i,
      name: `ci-${i}`,
      configItemType: { id: 1, name: 'Host', description: '', icon: null, userspaceId: 1 },
      isIncluded: true,
      withMaintenance: false,
      influence: { value: 1, maxInfluence: false },
      serviceAvailability: 100,
    },
    okTime: share(part()),
    problemTime: share(part()),
    unattendedTime: share(part()),
    maintenanceTime: share(random() < 0.5 ? 0 : part()),
    serviceAvailability: 100,
    maxDowntime: 0,
    problem1EventsCount: 0,
    problem2EventsCount: 0,
    problem3EventsCount: 0,
    problem4EventsCount: 0,
    eventsCount: 0,
  }));
  const rangeOf = (r: SlaCiRowModel): number => r.okTime.value + r.problemTime.value + r.unattendedTime.value + r.maintenanceTime.value;
  t.equal(await checkTable(t, 'CSV', rows, await csvTable(rows, ciColumns), ciShown, ciExact, rangeOf), 0, 'every row adds up');
});

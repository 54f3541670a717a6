/**
 * Spreadsheet export of SLA reports (DESIGN §9): read back with exceljs, the workbook holds the
 * same cells as the CSV export — numbers as numbers, dates as date cells showing the zone's wall
 * time, text as text — under a bold, frozen header with an autofilter.
 */

import ExcelJS from 'exceljs';
import t, { type Test } from 'tap';
import { ciColumns, type ExportColumn, eventColumns, templateColumns } from '../../../../../pipelines/sla/export/columns.js';
import { csvExport } from '../../../../../pipelines/sla/export/csv.js';
import { XLSX_DATE_FORMAT, xlsxExport } from '../../../../../pipelines/sla/export/xlsx.js';
import type { SlaCiRowModel, SlaEventRowModel, SlaTemplateRowModel } from '../../../../../schemas/sla-export.schema.js';

async function* from<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

async function collect(chunks: AsyncIterable<Uint8Array | string>): Promise<{ text: string; bytes: Buffer }> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  const bytes = Buffer.concat(parts);
  return { text: bytes.toString('utf8'), bytes };
}

/** RFC 4180 fields, enough for the export's output. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A spreadsheet date as its shown text: its UTC fields, to the minute. */
const shown = (d: Date) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

async function compare<R>(t: Test, rows: R[], columns: ReadonlyArray<ExportColumn<R>>, timeZone: string) {
  const csv = parseCsv((await collect(csvExport(from(rows), columns, { timeZone }))).text);
  const { bytes } = await collect(xlsxExport(from(rows), columns, { timeZone, sheetName: 'Report' }));
  const workbook = new ExcelJS.Workbook();
  // exceljs types its Buffer as an ArrayBuffer: hand it one.
  await workbook.xlsx.load(Uint8Array.from(bytes).buffer);
  t.equal(workbook.worksheets.length, 1, 'one sheet');
  const sheet = workbook.getWorksheet('Report');
  if (!sheet) return t.fail('sheet "Report" missing');

  t.equal(sheet.rowCount, rows.length + 1, 'header + one row per report row');
  t.equal(sheet.columnCount, columns.length);
  t.match(sheet.views[0], { state: 'frozen', ySplit: 1 }, 'header frozen');
  const last = sheet.getRow(1).getCell(columns.length).address.replace(/\d+$/, '');
  t.same(sheet.autoFilter, `A1:${last}${rows.length + 1}`, 'autofilter from the header over every row');

  columns.forEach((column, c) => {
    const head = sheet.getRow(1).getCell(c + 1);
    t.equal(head.value, column.header, `header ${c + 1}`);
    t.equal(head.font?.bold, true, `header ${column.header} bold`);
    t.ok((sheet.getColumn(c + 1).width ?? 0) >= 8, `column ${column.header} has a width`);
  });

  for (let r = 0; r < rows.length; r++) {
    const expected = csv[r + 1] ?? [];
    columns.forEach((column, c) => {
      const cell = sheet.getRow(r + 2).getCell(c + 1);
      const at = `row ${r + 2} ${column.header}`;
      const want = expected[c] ?? '';
      if (column.type === 'number') {
        t.equal(typeof cell.value, 'number', `${at} is a number`);
        t.equal(String(cell.value), want, at);
      } else if (column.type === 'date') {
        if (want === '') t.equal(cell.value, null, `${at} empty`);
        else {
          t.ok(cell.value instanceof Date, `${at} is a date`);
          t.equal(cell.numFmt, XLSX_DATE_FORMAT, `${at} date format`);
          t.equal(shown(cell.value as Date), want, at);
        }
      } else {
        if (want === '') t.equal(cell.value, null, `${at} empty`);
        else t.equal(cell.value, want, `${at} is the same text`);
      }
    });
  }
}

const ciType = (name: string) => ({ id: 3, name, description: '', icon: null, userspaceId: 1 });
const names = ['db-1', 'Billing, EU', 'web "edge"', 'Сервер-Ω', 'cache'];
const event = (i: number): SlaEventRowModel => {
  const start = Date.UTC(2026, 2, 28, 23, 0) + i * 1_234_567;
  const open = i % 4 === 3;
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    isIncluded: i % 2 === 0,
    trigger: { id: i, name: `${names[i % names.length]} trigger` },
    dateStart: new Date(start).toISOString(),
    dateEnd: open ? null : new Date(start + i * 60_000 + 29_999).toISOString(),
    duration: i * 60_000 + 29_999,
    priority: `Problem${(i % 4) + 1}`,
    tags: names.slice(0, i % 3).map((name, k) => ({ id: k, name, colorName: 'red' })),
    configItems: names
      .slice(0, i % 4)
      .map((name, k) => ({ id: k, name, configItemType: ciType('Host'), withMaintenance: false, influence: { value: 1, maxInfluence: true }, isIncluded: true })),
    influence: { value: 1, maxInfluence: true },
    incidents:
      i % 5 === 0
        ? []
        : [
            {
              connector: { id: 1, name: 'Jira' },
              incidents: [
                { id: `INC-${i}`, type: 'incident' },
                { id: `INC-${i + 1}`, type: 'incident' },
              ],
            },
          ],
  };
};
const ci = (i: number): SlaCiRowModel => {
  const ok = 3_600_000 * i + 499;
  const problem = 60_000 * i + 500;
  const total = ok + problem + 1_000 * i;
  return {
    configItem: {
      id: 100 + i,
      name: names[i % names.length] ?? '',
      configItemType: ciType(i % 2 ? 'Service' : 'Host'),
      isIncluded: true,
      withMaintenance: false,
      influence: { value: i / 7, maxInfluence: false },
      serviceAvailability: 0,
    },
    okTime: { percent: (ok / total) * 100, value: ok },
    problemTime: { percent: (problem / total) * 100, value: problem },
    unattendedTime: { percent: 0, value: 0 },
    maintenanceTime: { percent: ((1_000 * i) / total) * 100, value: 1_000 * i },
    serviceAvailability: (ok / (ok + problem)) * 100,
    maxDowntime: 60 * i,
    problem1EventsCount: i,
    problem2EventsCount: i % 3,
    problem3EventsCount: 0,
    problem4EventsCount: 1,
    eventsCount: i + (i % 3) + 1,
  };
};
const template = (i: number): SlaTemplateRowModel => ({
  name: `Template ${i}`,
  weight: i + 1,
  influence: (i + 1) / 6,
  serviceAvailability: 99.9 - i,
  okTime: 1_000_500 * i,
  problemTimePercent: i / 10,
  problemTime: 1_499 * i,
  attendedTime: 1_001_999 * i,
  unattendedTime: 0,
  maintenanceTime: 500,
  eventsCount: i,
  problem1EventsCount: i,
  problem2EventsCount: 0,
  problem3EventsCount: 0,
  problem4EventsCount: 0,
  maxDownTime: 61_000,
});

t.test('events: the workbook holds the CSV cells, dates in the zone (over a DST change)', async (t) => {
  await compare(
    t,
    Array.from({ length: 40 }, (_, i) => event(i)),
    eventColumns,
    'Europe/Berlin',
  );
});

t.test('events in UTC', async (t) => {
  await compare(
    t,
    Array.from({ length: 8 }, (_, i) => event(i)),
    eventColumns,
    'UTC',
  );
});

t.test('configItems: the workbook holds the CSV cells', async (t) => {
  await compare(
    t,
    Array.from({ length: 30 }, (_, i) => ci(i)),
    ciColumns,
    'UTC',
  );
});

t.test('templates: the workbook holds the CSV cells', async (t) => {
  await compare(
    t,
    Array.from({ length: 3 }, (_, i) => template(i)),
    templateColumns,
    'UTC',
  );
});

t.test('no rows: a header-only sheet', async (t) => {
  await compare(t, [] as SlaEventRowModel[], eventColumns, 'UTC');
});

t.test('a consumer that stops early ends the export without error', async (t) => {
  let pulled = 0;
  async function* many() {
    for (let i = 0; i < 5_000; i++) {
      pulled++;
      yield ci(i);
    }
  }
  for await (const chunk of xlsxExport(many(), ciColumns, { batchSize: 100 })) {
    t.ok(chunk.length > 0);
    break;
  }
  t.ok(pulled < 5_000, `stopped after ${pulled} rows`);
});

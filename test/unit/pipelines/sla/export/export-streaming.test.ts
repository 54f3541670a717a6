/**
 * The exports stream (DESIGN §9): a report of 20 000 rows starts coming out long before its last
 * row is read, in every format, and what comes out is complete.
 */

import ExcelJS from 'exceljs';
import t from 'tap';
import { type ExportFormat, exportFile } from '../../../../../pipelines/sla/export/formats.js';
import type { SlaCiRowModel } from '../../../../../schemas/sla-export.schema.js';

const total = 20_000;
const row = (i: number): SlaCiRowModel => ({
  configItem: {
    id: i,
    name: `host-${i}`,
    configItemType: { id: 1, name: 'Host', description: '', icon: null, userspaceId: 1 },
    isIncluded: true,
    withMaintenance: false,
    influence: { value: 1, maxInfluence: true },
    serviceAvailability: 99.5,
  },
  okTime: { percent: 99.5, value: 86_000_000 },
  problemTime: { percent: 0.5, value: 400_000 },
  unattendedTime: { percent: 0, value: 0 },
  maintenanceTime: { percent: 0, value: 0 },
  serviceAvailability: 99.5,
  maxDowntime: 400,
  problem1EventsCount: i % 3,
  problem2EventsCount: 0,
  problem3EventsCount: 0,
  problem4EventsCount: 0,
  eventsCount: i % 3,
});

/** Rows on demand, counting how many the export has pulled. */
function source() {
  const state = { pulled: 0 };
  async function* rows(): AsyncIterable<SlaCiRowModel> {
    for (let i = 1; i <= total; i++) {
      state.pulled = i;
      yield row(i);
    }
  }
  return { state, rows: rows() };
}

async function run(format: ExportFormat) {
  const { state, rows } = source();
  const file = exportFile('configItems', format, rows, { baseName: 'cis' });
  let pulledAtFirst = -1;
  let chunks = 0;
  let bytesBeforeLastRow = 0;
  const parts: Buffer[] = [];
  for await (const chunk of file.body) {
    if (pulledAtFirst < 0) pulledAtFirst = state.pulled;
    chunks++;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    if (state.pulled < total) bytesBeforeLastRow += bytes.length;
    parts.push(bytes);
  }
  const bytes = Buffer.concat(parts);
  return { pulledAtFirst, chunks, pulled: state.pulled, bytes, shareBeforeLastRow: bytesBeforeLastRow / bytes.length };
}

t.test('csv: the first chunk comes after one batch', async (t) => {
  const out = await run('csv');
  t.equal(out.pulled, total);
  t.ok(out.pulledAtFirst > 0 && out.pulledAtFirst <= 500, `first chunk after ${out.pulledAtFirst} rows`);
  t.ok(out.chunks >= total / 500);
  t.ok(out.shareBeforeLastRow > 0.95, `${(out.shareBeforeLastRow * 100).toFixed(1)}% out before the last row was read`);
  const lines = out.bytes.toString('utf8').split('\n');
  t.equal(lines.length, total + 2, 'header, every row, trailing newline');
  t.equal(lines[total], `${total},host-${total},Host,1,99.5,86000,0.5,400,86400,0,0,${total % 3},${total % 3},0,0,0,400`);
});

t.test('json: the array comes out element by element', async (t) => {
  const out = await run('json');
  t.ok(out.pulledAtFirst > 0 && out.pulledAtFirst < 1_000, `first chunk after ${out.pulledAtFirst} rows`);
  t.ok(out.shareBeforeLastRow > 0.95, `${(out.shareBeforeLastRow * 100).toFixed(1)}% out before the last row was read`);
  const parsed = JSON.parse(out.bytes.toString('utf8')) as SlaCiRowModel[];
  t.equal(parsed.length, total);
  t.strictSame(parsed[total - 1], row(total));
});

t.test('xlsx: zipped bytes come out while rows are still being read', async (t) => {
  const out = await run('xls');
  t.equal(out.pulled, total);
  t.ok(out.pulledAtFirst > 0 && out.pulledAtFirst < total / 2, `first chunk after ${out.pulledAtFirst} rows`);
  t.ok(out.chunks > 2, `${out.chunks} chunks`);
  // The writer holds about one batch of rows: the zip keeps pace with the rows read.
  t.ok(out.shareBeforeLastRow > 0.8, `${(out.shareBeforeLastRow * 100).toFixed(1)}% out before the last row was read`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Uint8Array.from(out.bytes).buffer);
  const sheet = workbook.worksheets[0];
  t.equal(sheet?.rowCount, total + 1);
  t.equal(sheet?.getRow(total + 1).getCell(2).value, `host-${total}`);
});

/**
 * The export file (spec 4.3 #4; DESIGN §9): content type and file name by format, the rows'
 * columns by kind, and a Content-Disposition that carries a non-ASCII name (RFC 6266, 5987).
 */
import t from 'tap';
import { contentDisposition, exportFile, safeBaseName } from '../../../../../pipelines/sla/export/formats.js';
import type { SlaTemplateRowModel } from '../../../../../schemas/sla-export.schema.js';

async function* from<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}
async function bytes(body: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(parts);
}

const row: SlaTemplateRowModel = {
  name: 'Core',
  weight: 1,
  influence: 1,
  serviceAvailability: 100,
  okTime: 60_000,
  problemTimePercent: 0,
  problemTime: 0,
  attendedTime: 60_000,
  unattendedTime: 0,
  maintenanceTime: 0,
  eventsCount: 0,
  problem1EventsCount: 0,
  problem2EventsCount: 0,
  problem3EventsCount: 0,
  problem4EventsCount: 0,
  maxDownTime: 0,
};

t.test('content type, file name and body by format', async (t) => {
  const xls = exportFile('templates', 'xls', from([row]), { baseName: 'sla-42' });
  t.equal(xls.contentType, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.equal(xls.fileName, 'sla-42.xlsx');
  t.equal((await bytes(xls.body)).subarray(0, 2).toString('latin1'), 'PK', 'a zip');

  const csv = exportFile('templates', 'csv', from([row]), { baseName: 'sla-42' });
  t.equal(csv.contentType, 'text/csv; charset=utf-8');
  t.equal(csv.fileName, 'sla-42.csv');
  t.match((await bytes(csv.body)).toString('utf8'), /^Name,Weight,Influence,.*\nCore,1,1,100,60,0,0,60,0,0,0,0,0,0,0,0\n$/);

  const json = exportFile('templates', 'json', from([row]), { baseName: 'sla-42' });
  t.equal(json.contentType, 'application/json');
  t.equal(json.fileName, 'sla-42.json');
  t.strictSame(JSON.parse((await bytes(json.body)).toString('utf8')), [row]);
  t.equal(json.contentDisposition, 'attachment; filename="sla-42.json"; filename*=UTF-8\'\'sla-42.json');
});

t.test('an unknown time zone is refused before anything is streamed', async (t) => {
  t.throws(() => exportFile('templates', 'xls', from([row]), { baseName: 'x', timeZone: 'Nowhere/Atlantis' }), RangeError);
});

t.test('Content-Disposition: ASCII fallback and the UTF-8 name percent-encoded', async (t) => {
  t.equal(
    contentDisposition('Отчёт SLA (март).csv'),
    'attachment; filename="_____ SLA (____).csv"; filename*=UTF-8\'\'%D0%9E%D1%82%D1%87%D1%91%D1%82%20SLA%20%28%D0%BC%D0%B0%D1%80%D1%82%29.csv',
  );
  t.equal(contentDisposition('Café "ü" 100%.xlsx'), 'attachment; filename="Cafe _u_ 100_.xlsx"; filename*=UTF-8\'\'Caf%C3%A9%20%22%C3%BC%22%20100%25.xlsx');
  t.equal(contentDisposition("it's*.json"), "attachment; filename=\"it's*.json\"; filename*=UTF-8''it%27s%2A.json", "' and * are not attr-chars");
  const header = contentDisposition('Отчёт — 1.csv');
  const encoded = /filename\*=UTF-8''(.+)$/.exec(header)?.[1] ?? '';
  t.equal(decodeURIComponent(encoded), 'Отчёт — 1.csv', 'decodes back to the name');
  t.match(header.split('filename*=')[0], /^[\x20-\x7e]*$/, 'the rest of the header is ASCII');
});

t.test('the base name loses path separators and control characters', async (t) => {
  t.equal(safeBaseName('../etc/passwd'), '_etc_passwd');
  t.equal(safeBaseName('a\r\nb'), 'a_b');
  t.equal(safeBaseName(' . '), 'report');
  t.equal(exportFile('events', 'csv', from([]), { baseName: 'Отчёт/март' }).fileName, 'Отчёт_март.csv');
});

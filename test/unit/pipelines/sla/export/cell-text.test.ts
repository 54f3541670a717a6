/** Issue #15: text cells of the CSV and xlsx exports cannot become formulas (OWASP CSV injection). */
import t from 'tap';
import { inertCellText } from '../../../../../pipelines/sla/export/cell-text.js';
import type { ExportColumn } from '../../../../../pipelines/sla/export/columns.js';
import { csvExport } from '../../../../../pipelines/sla/export/csv.js';

t.test('a cell beginning with = + - @ tab or CR gets a leading quote', async (t) => {
  for (const text of ['=HYPERLINK("http://x","y")', '+1+2', '-2+3', '@SUM(A1)', '\tx', '\rx']) t.equal(inertCellText(text)[0], "'", JSON.stringify(text));
  t.equal(inertCellText('=1+1'), "'=1+1");
});

t.test('other text is kept as it is, line breaks included', async (t) => {
  for (const text of ['core-router', 'a=b', 'x-1', 'line 1\nline 2', '', 'Ünïcödé ✓']) t.equal(inertCellText(text), text, JSON.stringify(text));
});

t.test('control characters are written as \\uXXXX', async (t) => {
  t.equal(inertCellText('a\u0000b\u0007c\u001bd\u007f'), 'a\\u0000b\\u0007c\\u001bd\\u007f');
  t.equal(inertCellText('\u0001=x'), '\\u0001=x', 'escaped first: no longer a formula start');
});

t.test('the CSV export writes a CI named as a formula inert', async (t) => {
  const columns: ReadonlyArray<ExportColumn<{ name: string; n: number }>> = [
    { header: 'Name', type: 'string', width: 20, value: (r) => r.name },
    { header: 'N', type: 'number', width: 5, value: (r) => r.n },
  ];
  async function* rows() {
    yield { name: '=HYPERLINK("http://x","y")', n: -5 };
  }
  let text = '';
  for await (const chunk of csvExport(rows(), columns)) text += chunk;
  t.equal(text, 'Name,N\n"\'=HYPERLINK(""http://x"",""y"")",-5\n', 'the number stays a number');
});

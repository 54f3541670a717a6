/**
 * CSV export of an SLA report (spec 2.15, 2.16): the header row, then one line per row, streamed
 * in batches through csv-stringify's sync API. Lines end with `\n`; a cell is quoted when it holds
 * a comma, a quote or a line break, and a multi-valued cell (`multi` columns: CIs, tags,
 * incidents) is always quoted when it is not empty ("comma-joined inside a quoted cell"), empty
 * and unquoted when there is nothing. Dates are `dd.MM.yyyy HH:mm` in `timeZone`. Text cells
 * are made inert first (cell-text.ts).
 */
import { stringify } from 'csv-stringify/sync';
import { inertCellText } from './cell-text.js';
import { type ExportColumn, zonedClock } from './columns.js';

export interface CsvOptions {
  /** IANA zone of the dates; `UTC` by default. */
  timeZone?: string;
  /** Rows per yielded chunk (default 500). */
  batchSize?: number;
}

/** Checks the options at once (a bad time zone throws here), then streams lazily. */
export function csvExport<R>(rows: AsyncIterable<R>, columns: ReadonlyArray<ExportColumn<R>>, options: CsvOptions = {}): AsyncIterable<string> {
  const clock = zonedClock(options.timeZone);
  const batchSize = options.batchSize ?? 500;
  const multi = new Set(columns.flatMap((c, i) => (c.type === 'string' && c.multi ? [i] : [])));
  const format = (records: unknown[][]): string =>
    stringify(records, {
      cast: {
        string: (value, context) => (value !== '' && typeof context.column === 'number' && multi.has(context.column) ? { value, quoted: true } : value),
      },
    });
  const cells = (row: R): unknown[] =>
    columns.map((column) => {
      if (column.type === 'string') return inertCellText(column.value(row));
      if (column.type !== 'date') return column.value(row);
      const ms = column.value(row);
      return ms === null ? '' : clock.format(ms);
    });
  const header = stringify([columns.map((c) => c.header)]);

  return (async function* csv() {
    let head = header;
    let batch: unknown[][] = [];
    for await (const row of rows) {
      batch.push(cells(row));
      if (batch.length >= batchSize) {
        yield head + format(batch);
        head = '';
        batch = [];
      }
    }
    if (head || batch.length > 0) yield head + format(batch);
  })();
}

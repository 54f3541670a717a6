/**
 * Spreadsheet export of an SLA report (DESIGN §9): an Office Open XML workbook whose first sheet
 * has the same columns and values as the CSV export (and, when given, further sheets after it,
 * such as the CI timelines of issue #18), built with exceljs' streaming writer. Each row
 * is committed as soon as it is read; the zipped bytes are handed on as they come out of the
 * writer, so a large report is never held whole.
 *
 * Cells are typed: numbers as numbers, text as strings (an empty list as an empty cell), dates as
 * date cells formatted `dd.mm.yyyy hh:mm`. A spreadsheet date has no time zone (Excel shows its
 * UTC fields), so each date is shifted to the wall-clock time of `timeZone`, to the second: the
 * cell shows what the CSV shows, and a reader of the file who wants the instant must know the
 * zone. The header row is bold, frozen and carries an autofilter over the whole table.
 *
 * exceljs has no backpressure of its own: a committed row is buffered until the zip takes it, and
 * the zip compresses on the thread pool. After every `batchSize` rows the export waits until the
 * zip has taken what the sheet has written (`zipCaughtUp`), then hands on what has been zipped;
 * so the export goes at the pace of its consumer and holds about one batch of rows.
 */

import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { inertCellText } from './cell-text.js';
import { type ExportColumn, zonedClock } from './columns.js';

export const XLSX_DATE_FORMAT = 'dd.mm.yyyy hh:mm';

export interface XlsxOptions {
  /** IANA zone of the dates' wall-clock time; `UTC` by default. */
  timeZone?: string;
  /** Worksheet name (at most 31 characters, none of `[]:*?/\`); `Report` by default. */
  sheetName?: string;
  /** Rows committed between two hand-overs of zipped bytes (default 500). */
  batchSize?: number;
  /** Sheets written after the first, in order. */
  more?: ReadonlyArray<XlsxSheet<never>>;
}

/** A further sheet: its name, columns and rows. */
export interface XlsxSheet<R> {
  name: string;
  columns: ReadonlyArray<ExportColumn<R>>;
  rows: AsyncIterable<R>;
}

/** A sheet of any row type, for `more` (each sheet's columns read its own rows). */
export const furtherSheet = <R>(sheet: XlsxSheet<R>): XlsxSheet<never> => sheet as unknown as XlsxSheet<never>;

/** Checks the options at once (a bad time zone throws here), then streams lazily. */
export function xlsxExport<R>(rows: AsyncIterable<R>, columns: ReadonlyArray<ExportColumn<R>>, options: XlsxOptions = {}): AsyncIterable<Uint8Array> {
  const clock = zonedClock(options.timeZone);
  const batchSize = options.batchSize ?? 500;
  const sheets = [{ name: options.sheetName ?? 'Report', columns, rows } as XlsxSheet<unknown>, ...((options.more ?? []) as unknown as ReadonlyArray<XlsxSheet<unknown>>)];
  const cellsOf =
    <T>(sheetColumns: ReadonlyArray<ExportColumn<T>>) =>
    (row: T): Array<string | number | Date | null> =>
      sheetColumns.map((column) => {
        if (column.type === 'number') return column.value(row);
        if (column.type === 'string') return inertCellText(column.value(row)) || null;
        const ms = column.value(row);
        return ms === null ? null : new Date(clock.wallClock(ms));
      });

  return (async function* xlsx() {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    let ended = false;
    let failure: unknown;
    let wake: (() => void) | undefined;
    const signal = () => {
      wake?.();
      wake = undefined;
    };
    out.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      signal();
    });
    out.on('end', () => {
      ended = true;
      signal();
    });
    out.on('error', (error) => {
      failure ??= error;
      signal();
    });

    try {
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
      for (const spec of sheets) {
        // Views are written with the sheet's opening tag, so they go in now.
        const sheet = workbook.addWorksheet(spec.name, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
        sheet.columns = spec.columns.map((c) => ({ width: c.width }));
        const header = sheet.addRow(spec.columns.map((c) => c.header));
        header.font = { bold: true };
        header.commit();
        const cells = cellsOf(spec.columns);
        const dateCells = spec.columns.flatMap((c, i) => (c.type === 'date' ? [i + 1] : []));

        let count = 0;
        for await (const row of spec.rows) {
          const line = sheet.addRow(cells(row));
          for (const i of dateCells) line.getCell(i).numFmt = XLSX_DATE_FORMAT;
          line.commit();
          count += 1;
          if (count % batchSize === 0) {
            await zipCaughtUp(sheet);
            if (failure !== undefined) throw failure;
            yield* chunks.splice(0);
          }
        }
        // The autofilter is written when the sheet is committed, so it can cover every row.
        sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: count + 1, column: spec.columns.length } };
        sheet.commit();
      }
      workbook.commit().catch((error: unknown) => {
        failure ??= error;
        signal();
      });

      for (;;) {
        if (failure !== undefined) throw failure;
        if (chunks.length > 0) yield* chunks.splice(0);
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      if (!ended) out.destroy();
    }
  })();
}

/**
 * Resolves when the zip has taken what the sheet has written so far. This reads exceljs 4.4
 * internals: the sheet's `stream` (a StreamBuf) writes, without heeding backpressure, into the
 * PassThrough archiver wraps it in (`pipes[0]`, a readable-stream 2 stream, whose writable state
 * is `_writableState`); that PassThrough drains as the zip compresses. Should the internals
 * change, it falls back to one turn of the event loop (the streaming test then fails, as the
 * output would lag behind the rows).
 */
async function zipCaughtUp(sheet: object): Promise<void> {
  type Target = Writable & { _writableState?: { needDrain?: unknown } };
  const target = (sheet as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0] as Target | undefined;
  const needDrain = target?.writableNeedDrain ?? target?._writableState?.needDrain;
  if (target && typeof needDrain === 'boolean') {
    if (needDrain && !target.destroyed) await once(target, 'drain');
  } else {
    await nextTurn();
  }
  // Let the zipped bytes reach the output before they are handed on.
  await nextTurn();
}

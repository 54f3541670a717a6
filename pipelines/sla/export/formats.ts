/**
 * The export file of an SLA report (spec 4.3 #4; DESIGN §9): which rows, in which format, under
 * which content type and file name. `xls` (the API's default) is an Office Open XML workbook,
 * so its file ends in `.xlsx`.
 */
import type { SlaCiRowModel, SlaEventRowModel, SlaTemplateRowModel } from '../../../schemas/sla-export.schema.js';
import { ciColumns, type ExportColumn, eventColumns, templateColumns, zonedClock } from './columns.js';
import { csvExport } from './csv.js';
import { jsonExport } from './json.js';
import { type XlsxOptions, xlsxExport } from './xlsx.js';

export type ExportKind = 'events' | 'configItems' | 'templates';
export type ExportFormat = 'xls' | 'csv' | 'json';

export interface ExportRows {
  events: SlaEventRowModel;
  configItems: SlaCiRowModel;
  templates: SlaTemplateRowModel;
}

export interface ExportOptions {
  /** IANA zone of the dates in CSV and xlsx; `UTC` by default. */
  timeZone?: string;
  /** File name without extension; may hold any Unicode character. */
  baseName: string;
  /** xlsx only: sheets after the first (the CSV and JSON exports are one table each). */
  more?: XlsxOptions['more'];
}

export interface ExportFile {
  contentType: string;
  fileName: string;
  /** The `Content-Disposition` header value for `fileName`. */
  contentDisposition: string;
  body: AsyncIterable<Uint8Array | string>;
}

const formats = {
  xls: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  json: { contentType: 'application/json', extension: 'json' },
} as const;

const columnsOf: { [K in ExportKind]: ReadonlyArray<ExportColumn<ExportRows[K]>> } = {
  events: eventColumns,
  configItems: ciColumns,
  templates: templateColumns,
};

const sheetNames: Record<ExportKind, string> = { events: 'Events', configItems: 'Configuration items', templates: 'Templates' };

/** Throws a RangeError for an unknown time zone before anything is streamed. */
export function exportFile<K extends ExportKind>(kind: K, format: ExportFormat, rows: AsyncIterable<ExportRows[K]>, options: ExportOptions): ExportFile {
  const { contentType, extension } = formats[format];
  const fileName = `${safeBaseName(options.baseName)}.${extension}`;
  const timeZone = options.timeZone ?? 'UTC';
  zonedClock(timeZone);
  const columns = columnsOf[kind];
  const body =
    format === 'json'
      ? jsonExport(rows)
      : format === 'csv'
        ? csvExport(rows, columns, { timeZone })
        : xlsxExport(rows, columns, { timeZone, sheetName: sheetNames[kind], ...(options.more ? { more: options.more } : {}) });
  return { contentType, fileName, contentDisposition: contentDisposition(fileName), body };
}

/** A file name without path separators, control characters or surrounding dots and blanks. */
export function safeBaseName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it removes.
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]+/g, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  return cleaned || 'report';
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 §4.3, RFC 5987): an ASCII fallback
 * for old clients (accents dropped, other non-ASCII characters as `_`, quotes and backslashes
 * as `_`) and the exact name percent-encoded as UTF-8.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Plain-text output: aligned tables and key/value lists. Pure functions from values to text.
 * Every cell goes through `cell`, which also neutralises control characters, so a name sent to
 * the API cannot move the cursor or colour the terminal of whoever lists it.
 */

/** Header → property name, in display order. */
export type Columns = Readonly<Record<string, string>>;

// eslint-disable-next-line no-control-regex -- control characters are what it replaces.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export const printable = (text: string): string =>
  text.replace(CONTROL, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));

/** One value as cell text: `-` for nothing, arrays joined with commas, objects as compact JSON. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : printable(value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(', '));
  if (typeof value === 'object') return printable(JSON.stringify(value));
  return printable(String(value));
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rows padded to the widest cell of each column, two spaces apart, no trailing blanks. */
export function align(rows: ReadonlyArray<readonly string[]>): string {
  const widths: number[] = [];
  for (const row of rows) for (const [i, text] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, text.length);
  return `${rows
    .map((row) =>
      row
        .map((text, i) => (i === row.length - 1 ? text : text.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** A header line and one line per item; an item that is not an object shows as empty cells. */
export function table(items: readonly unknown[], columns: Columns): string {
  const keys = Object.values(columns);
  const rows = items.map((item) => keys.map((key) => cell(isRecord(item) ? item[key] : undefined)));
  return align([Object.keys(columns), ...rows]);
}

/** A single object as two columns, property name and value, in the object's own order. */
export function keyValue(record: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(record);
  if (entries.length === 0) return '';
  return align(entries.map(([key, value]) => [printable(key), cell(value)]));
}

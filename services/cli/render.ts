/** Renderers for the default (non --json) output, shared by the command files. */
import type { CommandInput, Render } from './spec.js';
import { type Columns, cell, isRecord, keyValue, table } from './table.js';

/** An array answer as a table with these columns. */
export const list =
  (columns: Columns): Render =>
  (data) =>
    Array.isArray(data) ? table(data, columns) : fallback(data);

/** A single-object answer as key/value lines, without the named properties. */
export const one =
  (...omit: string[]): Render =>
  (data) => {
    if (!isRecord(data)) return fallback(data);
    return keyValue(Object.fromEntries(Object.entries(data).filter(([key]) => !omit.includes(key))));
  };

/** A 204 answer: a sentence saying what was done. */
export const done =
  (message: (input: CommandInput) => string): Render =>
  (_data, input) =>
    `${message(input)}\n`;

function fallback(data: unknown): string {
  if (Array.isArray(data)) return table(data, Object.fromEntries(Object.keys(isRecord(data[0]) ? data[0] : {}).map((k) => [k, k])));
  if (isRecord(data)) return keyValue(data);
  return data === undefined ? '' : `${cell(data)}\n`;
}

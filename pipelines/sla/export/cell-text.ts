/**
 * Text as it goes into a spreadsheet cell (CSV and xlsx), made inert (OWASP, "CSV Injection"): a
 * cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is read by spreadsheet
 * programs as a formula (`=HYPERLINK(...)` in a CI name would be a live link, `=cmd|...` worse),
 * so it gets a leading `'`, which they show as text; other control characters are written as
 * `\uXXXX`, so none reaches the file raw. Line breaks stay: a quoted CSV cell may hold them.
 * Applied to text columns only; numbers and dates are typed cells.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function inertCellText(text: string): string {
  const escaped = text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return FORMULA_START.test(escaped) ? `'${escaped}` : escaped;
}

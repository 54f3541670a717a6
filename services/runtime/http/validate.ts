import type { TSchema } from 'typebox';

export { type Checker, compileSchema, fieldErrors } from './field-errors.js';

/**
 * A boolean query parameter, the one rule of every route: `true` or `1` is true, `false` or `0`
 * false, in any case (TRUE, True); anything else is not a boolean (undefined), a 400.
 */
export function queryBoolean(raw: string): boolean | undefined {
  const value = raw.toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}

export const BOOLEAN_RULE = 'must be true or false (or 1 or 0)';

/**
 * Query parameters a schema types as integers. TypeBox's Convert turns `1.5` into 1 and `1e3`
 * into 1000; these are read by one rule instead: an optional minus and decimal digits (issue #34).
 */
export function integerProperties(schema: TSchema | undefined): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, property]) => (property.type === 'integer' ? [name] : []));
}

const INTEGER_TEXT = /^-?\d+$/;
export const isIntegerText = (raw: string): boolean => INTEGER_TEXT.test(raw);
export const INTEGER_RULE = 'must be an integer (decimal digits, no fraction or exponent)';

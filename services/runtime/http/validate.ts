import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { FieldError } from '../errors.js';

export type Checker = Validator<Record<string, never>, TSchema>;

export const compileSchema = (schema: TSchema): Checker => Compile(schema) as unknown as Checker;

/** Validation errors as `{path, message}` with JSON-pointer paths, most specific first. */
export function fieldErrors(checker: Checker, value: unknown): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of checker.Errors(value)) {
    // A `false` sub-schema repeats what additionalProperties already says better.
    if (e.keyword === 'boolean') continue;
    const params = e.params as Record<string, unknown>;
    const path = e.instancePath || '/';
    const message = e.message;
    if (e.keyword === 'required' && Array.isArray(params['requiredProperties'])) {
      for (const name of params['requiredProperties'] as string[]) {
        push(`${e.instancePath}/${name}`, 'is required');
      }
      continue;
    }
    if (e.keyword === 'additionalProperties' && Array.isArray(params['additionalProperties'])) {
      for (const name of params['additionalProperties'] as string[]) push(`${e.instancePath}/${name}`, 'is not a known field');
      continue;
    }
    push(path, message);
  }
  return out;

  function push(path: string, message: string): void {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ path, message });
  }
}

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

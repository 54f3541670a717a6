import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { Settings } from 'typebox/system';
import type { FieldError } from '../errors.js';

export type Checker = Validator<Record<string, never>, TSchema>;

export const compileSchema = (schema: TSchema): Checker => Compile(schema) as unknown as Checker;

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: unknown;
  message: string;
}

/** A branch of a union that cannot be meant: the value is of another type, or another kind (`type: 'slack'`). */
const misfits = (e: SchemaError, at: string): boolean =>
  (e.instancePath === at && (e.keyword === 'type' || e.keyword === 'const' || e.keyword === 'enum')) ||
  (e.keyword === 'const' && e.instancePath.startsWith(`${at}/`) && !e.instancePath.slice(at.length + 1).includes('/'));

/** How many steps into the value a schema path leads (`properties/x` and `items` one each, `anyOf/1` none). */
function instanceDepth(schemaPath: string): number {
  const steps = schemaPath
    .replace(/^#/, '')
    .split('/')
    .filter((s) => s !== '');
  let depth = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step === 'properties' || step === 'patternProperties' || step === 'prefixItems') {
      depth += 1;
      i += 1;
    } else if (step === 'anyOf' || step === 'allOf' || step === 'oneOf') i += 1;
    else if (step === 'items' || step === 'additionalProperties' || step === 'additionalItems') depth += 1;
  }
  return depth;
}

/** The errors say the value lacks a field of the branch or has one it does not know: its shape is another branch's. */
const misshapen = (e: SchemaError, at: string): boolean => e.instancePath === at && (e.keyword === 'required' || e.keyword === 'additionalProperties');

/**
 * A union's errors narrowed to the branch the value means. The validator reports every branch's
 * errors (a receiver body of `type: 'slack'` would also hear that it lacks the webhook's
 * `secrets`); the branch meant is the one alone in fitting the value's type and constant fields
 * (a discriminant such as `type`), or else the one alone in fitting its shape as well (the fields
 * it requires are there, no field is unknown to it): only its errors are kept. When every branch
 * is refused by a constant of the same field, that field is reported once, with the values it
 * may take. Otherwise all are kept.
 */
function narrowUnions(errors: SchemaError[]): SchemaError[] {
  // The validator buffers at most maxErrors: a branch whose misfit was cut off would look fitting.
  if (errors.length >= Settings.Get().maxErrors) return errors;
  const unions = new Set<string>();
  for (const e of errors) for (const m of e.schemaPath.matchAll(/\/anyOf\/\d+/g)) unions.add(e.schemaPath.slice(0, m.index));
  let list = errors;
  for (const union of [...unions].sort((a, b) => b.length - a.length)) {
    const prefix = `${union}/anyOf/`;
    const depth = instanceDepth(union) + 1;
    // One union schema may fail at several places of the value (the items of an array).
    const places = new Map<string, Map<string, SchemaError[]>>();
    for (const e of list) {
      if (!e.schemaPath.startsWith(prefix)) continue;
      const at = e.instancePath.split('/').slice(0, depth).join('/');
      const branch = e.schemaPath.slice(prefix.length).split('/')[0]!;
      const branches = places.get(at) ?? new Map<string, SchemaError[]>();
      places.set(at, branches.set(branch, [...(branches.get(branch) ?? []), e]));
    }
    for (const [at, branches] of places) {
      if (branches.size < 2) continue;
      const here = (e: SchemaError): boolean =>
        (e.schemaPath.startsWith(prefix) && (e.instancePath === at || e.instancePath.startsWith(`${at}/`))) ||
        (e.keyword === 'anyOf' && e.schemaPath === union && e.instancePath === at);
      let fitting = [...branches.values()].filter((found) => !found.some((e) => misfits(e, at)));
      if (fitting.length > 1) {
        const shaped = fitting.filter((found) => !found.some((e) => misshapen(e, at)));
        if (shaped.length === 1) fitting = shaped;
      }
      if (fitting.length === 1) {
        const kept = new Set(fitting[0]);
        list = list.filter((e) => !here(e) || kept.has(e));
        continue;
      }
      if (fitting.length > 0) continue;
      const constants = [...branches.values()].map((found) => found.find((e) => e.keyword === 'const' && e.instancePath !== at));
      const field = constants[0]?.instancePath;
      if (field === undefined || constants.some((e) => e?.instancePath !== field)) continue;
      const allowed = constants.map((e) => JSON.stringify((e!.params as { allowedValue?: unknown }).allowedValue));
      list = [...list.filter((e) => !here(e)), { keyword: 'const', schemaPath: union, instancePath: field, params: {}, message: `must be one of ${allowed.join(', ')}` }];
    }
  }
  return list;
}

/** A union of objects told apart by a property every branch has as a constant (`type: 'webhook' | 'slack' | …`). */
interface Discriminated {
  property: string;
  branches: Map<unknown, TSchema>;
}

const discriminants = new WeakMap<TSchema, Discriminated | null>();
const branchCheckers = new WeakMap<TSchema, Checker>();

function discriminantOf(schema: TSchema): Discriminated | undefined {
  let found = discriminants.get(schema);
  if (found === undefined) {
    found = null;
    const anyOf = (schema as { anyOf?: unknown }).anyOf;
    const propertiesOf = (branch: unknown): Record<string, { const?: unknown }> => (branch as { properties?: Record<string, { const?: unknown }> }).properties ?? {};
    if (Array.isArray(anyOf) && anyOf.length > 1) {
      for (const property of Object.keys(propertiesOf(anyOf[0]))) {
        const branches = new Map<unknown, TSchema>();
        for (const branch of anyOf as TSchema[]) {
          const field = propertiesOf(branch)[property];
          if (!field || !('const' in field) || branches.has(field.const)) break;
          branches.set(field.const, branch);
        }
        if (branches.size === anyOf.length) {
          found = { property, branches };
          break;
        }
      }
    }
    discriminants.set(schema, found);
  }
  return found ?? undefined;
}

/**
 * The errors of a discriminated union's value are those of the branch its discriminant names
 * (checked whole, whatever the validator's error buffer holds); a discriminant missing or naming
 * no branch is the one error. Undefined for any other schema or value.
 */
function discriminatedErrors(checker: Checker, value: unknown): FieldError[] | undefined {
  const union = discriminantOf(checker.Type());
  if (!union || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const tag = (value as Record<string, unknown>)[union.property];
  const branch = union.branches.get(tag);
  if (branch) {
    let branchChecker = branchCheckers.get(branch);
    if (!branchChecker) branchCheckers.set(branch, (branchChecker = compileSchema(branch)));
    return fieldErrors(branchChecker, value);
  }
  const path = `/${union.property}`;
  if (tag === undefined) return [{ path, message: 'is required' }];
  return [{ path, message: `must be one of ${[...union.branches.keys()].map((v) => JSON.stringify(v)).join(', ')}` }];
}

/** Validation errors as `{path, message}` with JSON-pointer paths, most specific first. */
export function fieldErrors(checker: Checker, value: unknown): FieldError[] {
  const discriminated = discriminatedErrors(checker, value);
  if (discriminated) return discriminated;
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of narrowUnions(checker.Errors(value) as SchemaError[])) {
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

/**
 * A 400's `errors` (issue #37: errors that say what to do). The validator reports every branch of
 * a union and names no allowed value; these rules turn its errors into what the caller must change:
 *
 * - A discriminated union (every branch an object with constants of one same property: `op`,
 *   `type`, `by`) is judged by the branch its discriminant names, wherever the union sits in the
 *   value (a trigger's `match[0]`, a receiver body). A discriminant missing, or naming no branch,
 *   is the one error, with the values it may take.
 * - A union of literals (`'xls' | 'csv' | 'json'`, with or without `null`) and an enum say the
 *   values they allow: `must be one of "xls", "csv", "json"`; one literal says its value.
 * - Any other union keeps the errors of the one branch that fits the value (unionErrors); when
 *   none takes the value's type, one error names the types it may be; when several fit, every
 *   branch's errors stay.
 * - A pattern the schemas name in words (PATTERN_RULES) is said in those words, not as its regex.
 *
 * The errors are found by walking the schema beside the value where the compiled check fails
 * (collect): an object's or array's own keywords are checked on their own, then only the members
 * that fail are entered, and a union is met as a whole. The validator's own error walk visits the
 * whole value and every branch of every union, however many errors it already holds (seconds for
 * a body of a few megabytes); here a value costs a compiled check per member and the error walk of
 * what fails, and at most MAX_ERRORS errors are reported.
 */
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { PATTERN_RULES } from '../../../schemas/common.schema.js';
import type { FieldError } from '../../../schemas/errors.js';

export type Checker = Validator<Record<string, never>, TSchema>;

export const compileSchema = (schema: TSchema): Checker => Compile(schema) as unknown as Checker;

/** The members of an error's `params` these rules read, by keyword (the validator's, or made here). */
interface ErrorParams {
  /** `const`. */
  allowedValue?: unknown;
  /** `enum`. */
  allowedValues?: unknown[];
  /** `type`: one type's name, or several. */
  type?: string | string[];
  pattern?: string;
  requiredProperties?: string[];
  additionalProperties?: string[];
}

/** An error as the validator reports it (its instance path relative to the value checked). */
interface SchemaError {
  keyword: string;
  instancePath: string;
  params: ErrorParams;
  message: string;
}

/** The most errors one answer lists. */
const MAX_ERRORS = 32;
/** Union branches one value may have checked, so the work a bad input causes stays bounded. */
const BRANCH_CHECKS = 256;

interface Walk {
  branchChecks: number;
}

type Schema = Record<string, unknown>;

const quoteAll = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ');
const oneOf = (values: readonly unknown[]): string => `must be one of ${quoteAll(values)}`;
/** `a`, `a or b`, `a, b or c`. */
const either = (words: readonly string[]): string => (words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)!}`);

/** RFC 6901: `~` and `/` escaped in a pointer's step. */
const escapeStep = (step: string): string => step.replaceAll('~', '~0').replaceAll('/', '~1');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSchema = (value: unknown): value is Schema => isObject(value);

const checkers = new WeakMap<object, Checker>();
function checkerOf(schema: Schema): Checker {
  let checker = checkers.get(schema);
  if (!checker) checkers.set(schema, (checker = compileSchema(schema as TSchema)));
  return checker;
}

/** Keywords that annotate and do not validate. */
const ANNOTATIONS = ['$id', '$schema', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
/** The keywords of an object schema that collect knows how to split; any other keeps the schema whole. */
const OBJECT_KEYWORDS = new Set([...ANNOTATIONS, 'type', 'properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties']);
const ARRAY_KEYWORDS = new Set([...ANNOTATIONS, 'type', 'items', 'minItems', 'maxItems', 'uniqueItems']);

/**
 * How collect splits a schema: an object's own keywords (type, required, sizes), the schemas of
 * its members and whether it takes unknown ones; an array's own keywords and its items' schema;
 * anything else is checked whole.
 */
type Parts =
  | { kind: 'object'; own: Schema; properties: Record<string, Schema>; patterns: Array<[RegExp, Schema]>; additional: Schema | boolean }
  | { kind: 'array'; own: Schema; items: Schema }
  | { kind: 'whole' };

const partsOf = new WeakMap<object, Parts>();
const without = (schema: Schema, keys: readonly string[]): Schema => Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));

function splitOf(schema: Schema): Parts {
  let parts = partsOf.get(schema);
  if (parts) return parts;
  const keys = Object.keys(schema);
  const properties = schema['properties'] ?? {};
  const patterns = schema['patternProperties'] ?? {};
  const additional = schema['additionalProperties'] ?? true;
  if (
    schema['type'] === 'object' &&
    keys.every((k) => OBJECT_KEYWORDS.has(k)) &&
    isSchema(properties) &&
    isSchema(patterns) &&
    (isSchema(additional) || typeof additional === 'boolean')
  ) {
    parts = {
      kind: 'object',
      own: without(schema, ['properties', 'patternProperties', 'additionalProperties']),
      properties: properties as Record<string, Schema>,
      patterns: Object.entries(patterns as Record<string, Schema>).map(([pattern, sub]) => [new RegExp(pattern, 'u'), sub]),
      additional,
    };
  } else if (schema['type'] === 'array' && keys.every((k) => ARRAY_KEYWORDS.has(k)) && isSchema(schema['items'])) {
    parts = { kind: 'array', own: without(schema, ['items']), items: schema['items'] };
  } else parts = { kind: 'whole' };
  partsOf.set(schema, parts);
  return parts;
}

/** The validator's errors of a schema collect does not split (or of an object's or array's own keywords). */
function wholeErrors(schema: Schema, value: unknown, at: string, out: SchemaError[]): void {
  const checker = checkerOf(schema);
  if (checker.Check(value)) return;
  for (const e of checker.Errors(value) as SchemaError[]) {
    if (out.length >= MAX_ERRORS) return;
    // A `false` sub-schema repeats what additionalProperties says better.
    if (e.keyword !== 'boolean') out.push({ keyword: e.keyword, instancePath: `${at}${e.instancePath}`, params: e.params, message: e.message });
  }
}

/** An object's errors: its own keywords, the members it does not know, then each member that fails. */
function objectErrors(parts: Extract<Parts, { kind: 'object' }>, value: Record<string, unknown>, at: string, walk: Walk, out: SchemaError[]): void {
  wholeErrors(parts.own, value, at, out);
  const subsOf = (key: string): Schema[] => {
    const subs = parts.patterns.filter(([pattern]) => pattern.test(key)).map(([, sub]) => sub);
    if (Object.hasOwn(parts.properties, key)) subs.unshift(parts.properties[key]!);
    return subs.length > 0 || typeof parts.additional === 'boolean' ? subs : [parts.additional];
  };
  if (parts.additional === false) {
    const unknown: string[] = [];
    for (const key in value) if (Object.hasOwn(value, key) && subsOf(key).length === 0 && unknown.push(key) >= MAX_ERRORS) break;
    if (unknown.length > 0 && out.length < MAX_ERRORS)
      out.push({ keyword: 'additionalProperties', instancePath: at, params: { additionalProperties: unknown }, message: 'must not have additional properties' });
  }
  for (const key in value) {
    if (out.length >= MAX_ERRORS) return;
    if (!Object.hasOwn(value, key)) continue;
    for (const sub of subsOf(key)) collect(sub, value[key], `${at}/${escapeStep(key)}`, walk, out);
  }
}

/** The errors of `value` (at `at` in the whole) against `schema`, appended to `out`; `failed` when its check already failed. */
function collect(schema: Schema, value: unknown, at: string, walk: Walk, out: SchemaError[], failed = false): void {
  if (out.length >= MAX_ERRORS || (!failed && checkerOf(schema).Check(value))) return;
  if (Array.isArray(schema['anyOf'])) {
    for (const e of unionErrors(schema as Schema & { anyOf: Schema[] }, value, at, walk)) if (out.length < MAX_ERRORS) out.push(e);
    return;
  }
  const parts = splitOf(schema);
  if (parts.kind === 'object' && isObject(value)) return objectErrors(parts, value, at, walk, out);
  if (parts.kind === 'array' && Array.isArray(value)) {
    const items = value as unknown[];
    wholeErrors(parts.own, items, at, out);
    for (let i = 0; i < items.length && out.length < MAX_ERRORS; i++) collect(parts.items, items[i], `${at}/${i}`, walk, out);
    return;
  }
  wholeErrors(schema, value, at, out);
}

/**
 * How a union's errors are said: by the branch its discriminant names, as the list of its
 * literals, or (any other union) by the one branch that fits the value.
 */
type Site = { kind: 'discriminated'; property: string; branches: Map<unknown, number> } | { kind: 'literals'; values: unknown[] } | { kind: 'fit' };

const sitesOf = new WeakMap<object, Site>();

/** The values a union of literals allows (nested unions of literals and `null` included), or undefined. */
function literalsOf(node: unknown): unknown[] | undefined {
  if (!isSchema(node)) return undefined;
  if ('const' in node) return [node['const']];
  if (node['type'] === 'null' && Object.keys(node).every((k) => k === 'type' || ANNOTATIONS.includes(k))) return [null];
  if (!Array.isArray(node['anyOf'])) return undefined;
  const values: unknown[] = [];
  for (const branch of node['anyOf']) {
    const found = literalsOf(branch);
    if (!found) return undefined;
    values.push(...found);
  }
  return values;
}

/** The property every branch holds as constants of its own (`type: 'webhook' | 'slack' | …`). */
function discriminantOf(anyOf: readonly Schema[]): Site | undefined {
  const propertiesOf = (branch: Schema): Record<string, unknown> => (isSchema(branch['properties']) ? branch['properties'] : {});
  for (const property of Object.keys(propertiesOf(anyOf[0]!))) {
    const branches = new Map<unknown, number>();
    for (const [index, branch] of anyOf.entries()) {
      const values = literalsOf(propertiesOf(branch)[property]);
      if (!values || values.some((v) => branches.has(v))) break;
      for (const value of values) branches.set(value, index);
      if (index === anyOf.length - 1) return { kind: 'discriminated', property, branches };
    }
  }
  return undefined;
}

function siteOf(union: Schema & { anyOf: Schema[] }): Site {
  let site = sitesOf.get(union);
  if (!site) {
    const values = literalsOf(union);
    site = values ? { kind: 'literals', values } : union.anyOf.length > 1 ? (discriminantOf(union.anyOf) ?? { kind: 'fit' }) : { kind: 'fit' };
    sitesOf.set(union, site);
  }
  return site;
}

/** The values a `const` or `enum` error allows. */
const allowedOf = (e: SchemaError): unknown[] => {
  const { params } = e;
  return e.keyword === 'enum' ? (params.allowedValues ?? []) : [params.allowedValue];
};

/** What a refusal of the value itself asks it to be: a type's name, or literals as JSON. */
const kindsOf = (e: SchemaError): string[] => {
  if (e.keyword !== 'type') return allowedOf(e).map((v) => JSON.stringify(v));
  const { type } = e.params;
  return (Array.isArray(type) ? type : [type]).map(String);
};

/** A branch that cannot be meant: the value is of another type, or another kind (`type: 'slack'`). */
const misfits = (e: SchemaError, at: string): boolean =>
  (e.instancePath === at && (e.keyword === 'type' || e.keyword === 'const' || e.keyword === 'enum')) ||
  ((e.keyword === 'const' || e.keyword === 'enum') && e.instancePath.startsWith(`${at}/`) && !e.instancePath.slice(at.length + 1).includes('/'));

/** The errors say the value lacks a field of the branch or has one it does not know: its shape is another branch's. */
const misshapen = (e: SchemaError, at: string): boolean => e.instancePath === at && (e.keyword === 'required' || e.keyword === 'additionalProperties');
/** The value has a field the branch does not know (it may lack some the branch requires). */
const unknownField = (e: SchemaError, at: string): boolean => e.instancePath === at && e.keyword === 'additionalProperties';

/**
 * The errors of the value at `at` said against a union as a whole. A union of literals is one
 * error naming its values. A discriminated union's are those of the branch its discriminant
 * names, or the one error of a discriminant missing or naming no branch. Any other union's are
 * those of the branch alone in fitting the value's type and constant fields, or else alone in
 * fitting its shape as well (the fields it requires are there, no field is unknown to it), or
 * else alone in knowing every field the value has (it only lacks some). When every branch refuses
 * the value itself by its type or value, one error names what it may be (`must be string, number
 * or boolean`); when every branch is refused by a constant of one same field, that field is the
 * one error, with the values it may take; otherwise every branch's errors stay.
 */
function unionErrors(union: Schema & { anyOf: Schema[] }, value: unknown, at: string, walk: Walk): SchemaError[] {
  const made = (keyword: string, instancePath: string, params: ErrorParams, message: string): SchemaError[] => [{ keyword, instancePath, params, message }];
  const unmatched = (): SchemaError[] => made('anyOf', at, {}, 'must match a schema in anyOf');
  /** A branch's errors (each branch fails, as the union does); undefined past the budget. */
  const branchErrors = (branch: Schema): SchemaError[] | undefined => {
    if (walk.branchChecks <= 0) return undefined;
    walk.branchChecks -= 1;
    const found: SchemaError[] = [];
    collect(branch, value, at, walk, found, true);
    return found;
  };
  const site = siteOf(union);
  if (site.kind === 'literals') return made('enum', at, { allowedValues: site.values }, oneOf(site.values));
  if (site.kind === 'discriminated') {
    if (!isObject(value)) return made('type', at, { type: 'object' }, 'must be object');
    const tag = value[site.property];
    const index = site.branches.get(tag);
    if (index !== undefined) return branchErrors(union.anyOf[index]!) ?? unmatched();
    if (tag === undefined) return made('required', at, { requiredProperties: [site.property] }, `must have required properties ${site.property}`);
    const allowed = [...site.branches.keys()];
    return made('enum', `${at}/${escapeStep(site.property)}`, { allowedValues: allowed }, oneOf(allowed));
  }
  const checked = union.anyOf.map(branchErrors);
  // Past the budget; or no error found for a branch (none can pass, as the union failed): said plainly rather than hidden.
  if (checked.some((list) => list === undefined || list.length === 0)) return unmatched();
  const lists = checked as SchemaError[][];
  let fitting = lists.filter((list) => !list.some((e) => misfits(e, at)));
  for (const narrower of [misshapen, unknownField]) {
    const narrowed = fitting.filter((list) => !list.some((e) => narrower(e, at)));
    if (fitting.length > 1 && narrowed.length === 1) fitting = narrowed;
  }
  if (fitting.length === 1) return fitting[0]!;
  if (fitting.length === 0) {
    // Every branch refuses the value itself (`must be string`, `must be "all"`): one error names them all.
    const kinds = lists.map((list) => (list.every((e) => e.instancePath === at && misfits(e, at)) ? list.flatMap(kindsOf) : []));
    if (kinds.every((k) => k.length > 0)) {
      const named = [...new Set(kinds.flat())];
      return made('type', at, { type: named }, `must be ${either(named)}`);
    }
    const constants = lists.map((list) => list.find((e) => (e.keyword === 'const' || e.keyword === 'enum') && e.instancePath !== at));
    const field = constants[0]?.instancePath;
    if (field !== undefined && constants.every((e) => e?.instancePath === field)) {
      const allowed = [...new Set(constants.flatMap((e) => allowedOf(e!)))];
      return made('enum', field, { allowedValues: allowed }, oneOf(allowed));
    }
  }
  return [...lists.flat(), ...unmatched()];
}

/** What an error asks for, in words. */
function messageOf(e: SchemaError): string {
  const { params } = e;
  switch (e.keyword) {
    case 'enum':
      return Array.isArray(params.allowedValues) ? oneOf(params.allowedValues) : e.message;
    case 'const':
      return 'allowedValue' in params ? `must be ${JSON.stringify(params.allowedValue)}` : e.message;
    case 'pattern':
      return PATTERN_RULES.get(String(params.pattern)) ?? e.message;
    default:
      return e.message;
  }
}

/** Validation errors as `{path, message}` with JSON-pointer paths: at most MAX_ERRORS, each once. */
export function fieldErrors(checker: Checker, value: unknown): FieldError[] {
  const root = checker.Type() as Schema;
  if (!checkers.has(root)) checkers.set(root, checker);
  const found: SchemaError[] = [];
  collect(root, value, '', { branchChecks: BRANCH_CHECKS }, found, true);
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of found) {
    const { params } = e;
    if (e.keyword === 'required' && Array.isArray(params.requiredProperties)) {
      for (const name of params.requiredProperties) push(`${e.instancePath}/${escapeStep(name)}`, 'is required');
      continue;
    }
    if (e.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
      for (const name of params.additionalProperties) push(`${e.instancePath}/${escapeStep(name)}`, 'is not a known field');
      continue;
    }
    push(e.instancePath || '/', messageOf(e));
  }
  return out;

  function push(path: string, message: string): void {
    const key = `${path}\u0000${message}`;
    if (out.length >= MAX_ERRORS || seen.has(key)) return;
    seen.add(key);
    out.push({ path, message });
  }
}

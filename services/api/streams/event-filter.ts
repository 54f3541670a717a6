/**
 * Filters on a record's JSON (issue #30): `field=value`, `field!=value` and `field~substring`,
 * where `field` is a dotted path into the record (`host`, `labels.env`). Parsing is pure and
 * answers a value; the SQL it turns into names no caller text: path parts and values are bound
 * as `{name:String}` parameters.
 *
 * What a field compares as, its text: a JSON string's value; a number, boolean, null, object
 * or array as its JSON (`code=500`, `up=true`; ClickHouse writes numbers in their shortest
 * form, so `1.50` reads `1.5`); a missing field (or a record that is no object) as empty. So
 * `field!=value` holds where the field is missing, and `field=` where it is missing or empty.
 * Path parts are object keys: array elements and keys holding a dot cannot be addressed.
 */
import { MAX_FILTER_LENGTH } from '../../../schemas/stream-events.schema.js';

export type FilterOp = '=' | '!=' | '~';

export interface EventFilter {
  /** The path into the record, one key per part. */
  path: string[];
  op: FilterOp;
  value: string;
}

export type FilterParse = { ok: true; filter: EventFilter } | { ok: false; reason: string };

/** Limits of one filter: its length, its path's parts, a part's length, the value's length. */
export const FILTER_LIMITS = { length: MAX_FILTER_LENGTH, parts: 10, partLength: 256, valueLength: 1024 } as const;

/** The first `=`, `!=` or `~`; a `!` right before `=` belongs to the operator. */
const OPERATOR = /!=|=|~/;

export function parseEventFilter(text: string): FilterParse {
  if (text.length > FILTER_LIMITS.length) return { ok: false, reason: `it is longer than ${FILTER_LIMITS.length} characters` };
  const match = OPERATOR.exec(text);
  if (!match) return { ok: false, reason: 'expected field=value, field!=value or field~substring' };
  const field = text.slice(0, match.index);
  const op = match[0] as FilterOp;
  const value = text.slice(match.index + op.length);
  if (field === '') return { ok: false, reason: 'the field before the operator is missing' };
  const path = field.split('.');
  if (path.some((part) => part === '')) return { ok: false, reason: 'the field has an empty part (a leading, trailing or doubled dot)' };
  if (path.length > FILTER_LIMITS.parts) return { ok: false, reason: `the field has more than ${FILTER_LIMITS.parts} parts` };
  if (path.some((part) => part.length > FILTER_LIMITS.partLength)) return { ok: false, reason: `a part of the field is longer than ${FILTER_LIMITS.partLength} characters` };
  if (value.length > FILTER_LIMITS.valueLength) return { ok: false, reason: `the value is longer than ${FILTER_LIMITS.valueLength} characters` };
  if (op === '~' && value === '') return { ok: false, reason: 'a substring filter (~) needs a substring' };
  return { ok: true, filter: { path, op, value } };
}

export interface SqlCondition {
  /** One boolean expression per filter, to be joined with AND. */
  sql: string[];
  params: Record<string, string>;
}

/**
 * The filters as conditions on the String column `column` holding the record's JSON. Parameter
 * names start with `prefix` (f0p0, f0p1, f0v...) so they cannot meet the statement's own.
 */
export function filterConditions(filters: readonly EventFilter[], column = 'payload', prefix = 'f'): SqlCondition {
  const sql: string[] = [];
  const params: Record<string, string> = {};
  filters.forEach((filter, i) => {
    const keys = filter.path.map((part, j) => {
      params[`${prefix}${i}p${j}`] = part;
      return `{${prefix}${i}p${j}:String}`;
    });
    const args = `${column}, ${keys.join(', ')}`;
    const text = `if(JSONType(${args}) = 'String', JSONExtractString(${args}), JSONExtractRaw(${args}))`;
    const value = `{${prefix}${i}v:String}`;
    params[`${prefix}${i}v`] = filter.value;
    sql.push(filter.op === '~' ? `position(${text}, ${value}) > 0` : `${text} ${filter.op} ${value}`);
  });
  return { sql, params };
}

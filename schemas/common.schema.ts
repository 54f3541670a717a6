/** Small building blocks shared by the wire models. */
import Type from 'typebox';

export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** ISO 8601 date-time with an explicit offset (Z or ±hh:mm). */
export const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$';
export const DateTime = Type.String({ pattern: DATE_TIME_PATTERN, description: 'ISO 8601 date-time with offset' });

/**
 * Patterns said in words (issue #37): a 400 names the form a value must take, not the regular
 * expression it failed (services/runtime/http/field-errors.ts).
 */
export const PATTERN_RULES: ReadonlyMap<string, string> = new Map([
  [DATE_TIME_PATTERN, 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm), e.g. 2030-01-31T00:00:00Z or 2030-01-31T09:30:00+01:00'],
]);
export const Name = Type.String({ minLength: 1, maxLength: 255 });

/**
 * Limits on what a caller may send (issue #15): every process keeps the control plane in memory,
 * so one request must not be able to fill it. In the schemas, so they reach the OpenAPI document.
 */
export const LIMITS = { name: 255, text: 4000, labelKey: 128, labelValue: 1024, labels: 100, listItems: 10_000 } as const;

/** A name or title as sent: at most LIMITS.name characters (the domain says when it is required). */
export const NameText = Type.String({ maxLength: LIMITS.name });
/** A description: at most LIMITS.text characters. */
export const LongText = Type.String({ maxLength: LIMITS.text });
/** A label value: at most LIMITS.labelValue characters. */
export const LabelValue = Type.String({ maxLength: LIMITS.labelValue });

/**
 * Labels as a dictionary: names of 1–128 characters without control characters, at most 100 of
 * them. A record's keys are checked by pattern, and a key the pattern does not match would go
 * unchecked, value and all, without `additionalProperties: false` (a name holding a newline did).
 */
export const labelRecord = <T extends Parameters<typeof Type.Record>[1]>(value: T, description: string) =>
  Type.Record(Type.String({ pattern: `^[^\\u0000-\\u001f\\u007f]{1,${LIMITS.labelKey}}$` }), value, { additionalProperties: false, maxProperties: LIMITS.labels, description });
export const IdParams = Type.Object({ id: Type.String({ description: 'Numeric id' }) });

/** `T | null` (spec 2: "null means any" / "null assigns the default"). */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

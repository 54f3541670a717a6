/** Small building blocks shared by the wire models. */
import Type from 'typebox';

export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** ISO 8601 date-time with an explicit offset (Z or ±hh:mm). */
export const DateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$',
  description: 'ISO 8601 date-time with offset',
});
export const Name = Type.String({ minLength: 1, maxLength: 255 });
export const IdParams = Type.Object({ id: Type.String({ description: 'Numeric id' }) });

/** `T | null` (spec 2: "null means any" / "null assigns the default"). */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** Wire models of the operational endpoints every process serves. */
import Type from 'typebox';

export const HealthSchema = Type.Object({ status: Type.Literal('ok') });

export const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not-ready')]),
  engines: Type.Record(Type.String(), Type.Object({ ok: Type.Boolean(), kind: Type.String(), error: Type.Optional(Type.String()) })),
});

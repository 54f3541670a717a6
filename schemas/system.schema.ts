/** Wire models of the operational endpoints every process serves. */
import Type from 'typebox';

export const HealthSchema = Type.Object({ status: Type.Literal('ok') });

export const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not-ready')]),
  engines: Type.Record(
    Type.String(),
    Type.Object({
      ok: Type.Boolean(),
      kind: Type.String(),
      error: Type.Optional(Type.String({ description: 'Why the engine is not ready: it does not answer, or it cannot write (its disk is full)' })),
    }),
  ),
  disk: Type.Optional(
    Type.Object(
      {
        freeBytes: Type.Integer({ description: 'Free space of the data directory' }),
        minFreeBytes: Type.Integer({ description: 'OPS_MIN_FREE_DISK in bytes: under it ingestion pauses (503 ingest.disk_low)' }),
        ingestion: Type.Union([Type.Literal('accepting'), Type.Literal('paused')]),
      },
      { description: 'The data directory, where an embedded engine keeps its data; it does not decide readiness by itself' },
    ),
  ),
});

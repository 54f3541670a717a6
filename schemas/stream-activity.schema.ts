/**
 * A stream's activity (issue #33, the console's streams screen): records stored and dead letters
 * per minute, by when they were received, over the last minutes.
 */
import Type, { type Static } from 'typebox';
import { DateTime } from './common.schema.js';

export const ACTIVITY_MINUTES = { default: 60, max: 1440 } as const;

export const StreamActivityQuery = Type.Object({
  minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: ACTIVITY_MINUTES.max, description: `Minutes back from now (default ${ACTIVITY_MINUTES.default})` })),
});

export const StreamActivity = Type.Object(
  {
    from: DateTime,
    to: DateTime,
    bucketSeconds: Type.Literal(60),
    buckets: Type.Array(
      Type.Object(
        {
          at: DateTime,
          records: Type.Integer({ minimum: 0 }),
          deadLetters: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { description: 'Every minute of the range, oldest first; the last one is the current, partial minute' },
    ),
  },
  { additionalProperties: false },
);

export type StreamActivityModel = Static<typeof StreamActivity>;

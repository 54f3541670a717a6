/**
 * A trigger tried on a stream's latest records before it is saved (the console's trigger
 * editor): what it would open problems on (pipelines/problems/trigger-dry-run.ts).
 */
import Type, { type Static } from 'typebox';
import { DateTime, Id } from './common.schema.js';
import { TriggerCreate } from './trigger.schema.js';

export const DRY_RUN_MAX_RECORDS = 1000;

export const TriggerDryRun = Type.Object(
  {
    trigger: TriggerCreate,
    streamId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "The stream whose records are tried (default: the trigger's first)" })),
    records: Type.Optional(
      Type.Integer({ minimum: 1, maximum: DRY_RUN_MAX_RECORDS, description: `The stream's latest records tried, by event date (default ${DRY_RUN_MAX_RECORDS})` }),
    ),
  },
  { additionalProperties: false },
);

const DryRunCi = Type.Object(
  {
    ciId: Id,
    ciName: Type.String(),
    hits: Type.Integer({ description: 'Records naming the CI that meet the conditions' }),
    opened: Type.Integer({ description: 'Problems the trigger would open on the CI' }),
    resolved: Type.Integer({ description: 'Of those, resolved by a later record' }),
    openAtEnd: Type.Boolean({ description: 'A problem would still be open after the last record' }),
    priority: Type.Union([Type.Integer({ minimum: 1, maximum: 4 }), Type.Null()], { description: 'The highest priority of the hits that opened or kept a problem' }),
    firstHitAt: DateTime,
    lastHitAt: DateTime,
  },
  { additionalProperties: false },
);

export const TriggerDryRunResult = Type.Object(
  {
    streamId: Id,
    examined: Type.Integer({ description: 'Records tried, oldest first' }),
    from: Type.Union([DateTime, Type.Null()], { description: 'Event date of the oldest record tried' }),
    to: Type.Union([DateTime, Type.Null()], { description: 'Event date of the newest record tried' }),
    matched: Type.Integer({ description: 'Records meeting the conditions' }),
    withoutCi: Type.Integer({ description: 'Of those, naming no CI the CMDB holds (or a name several CIs share)' }),
    cis: Type.Array(DryRunCi, { description: 'The CIs the trigger would hit: most problems opened first' }),
  },
  { additionalProperties: false },
);

export type TriggerDryRunBody = Static<typeof TriggerDryRun>;
export type TriggerDryRunModel = Static<typeof TriggerDryRunResult>;

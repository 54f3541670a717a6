/**
 * Admin API: a trigger tried on a stream's latest records before it is saved (the console's
 * trigger editor). Checked as a create would check it; nothing is stored.
 */
import { type DryRunCi, dryRunTrigger } from '../../../pipelines/problems/trigger-dry-run.js';
import type { TriggeredEvent } from '../../../pipelines/records/record-pipeline.js';
import { DRY_RUN_MAX_RECORDS, TriggerDryRun, TriggerDryRunResult } from '../../../schemas/trigger-dry-run.schema.js';
import type { TriggerModel } from '../../../schemas/trigger.schema.js';
import { triggerFieldErrors } from '../../control-plane/triggers/triggers.commands.js';
import { createTriggerIndex } from '../../control-plane/triggers/trigger-index.js';
import { failFields } from '../../../schemas/errors.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps, isoNow } from '../api-deps.js';
import { problems } from '../../runtime/http/route-kit.js';

interface LatestRow {
  item_id: string;
  ts_ms: string;
  payload: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The record's fields as the trigger reads them (the stored payload is the record after its preprocessor). */
function fieldsOf(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

export function triggerDryRunRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  return [
    defineRoute({
      tags: ['admin'],
      security: 'bearer',
      authenticate: deps.auth.requireRight(ADMIN),
      method: 'POST',
      path: `${ADMIN_PREFIX}/triggers/dry-run`,
      name: 'admin.dryRunTrigger',
      summary: "Try a trigger on a stream's latest records before saving it: the CIs it would open problems on",
      schema: { body: TriggerDryRun, responses: { 200: { description: 'What the trigger would do', schema: TriggerDryRunResult }, ...problems(400, 401, 403, 415) } },
      handler: async (req) => {
        const body = req.body;
        const model = cp.model;
        const now = isoNow(deps);
        const trigger: TriggerModel = {
          ...body.trigger,
          id: 0,
          description: body.trigger.description ?? '',
          enabled: true,
          tags: body.trigger.tags ?? [],
          incidents: body.trigger.incidents ?? [],
          createdAt: now,
          updatedAt: now,
        };
        const streamId = body.streamId ?? trigger.streamIds[0]!;
        const errors = triggerFieldErrors(model, trigger).map((e) => ({ ...e, path: `/trigger${e.path}` }));
        if (!model.slices.streams.streams.has(streamId)) errors.push({ path: '/streamId', message: `stream ${streamId} does not exist` });
        if (errors.length > 0) throw failFields('trigger.references_invalid', errors);

        const rows = await deps.analytics.query<LatestRow>(
          `SELECT toString(id) AS item_id, toUnixTimestamp64Milli(ts) AS ts_ms, payload
           FROM events FINAL
           WHERE stream_id = {stream:UInt64}
           ORDER BY ts DESC, received_at DESC, item_id DESC
           LIMIT {take:UInt32}`,
          { stream: streamId, take: body.records ?? DRY_RUN_MAX_RECORDS },
        );
        const events: TriggeredEvent[] = rows.reverse().map((row) => ({ id: row.item_id, streamId, ts: Number(row.ts_ms), fields: fieldsOf(row.payload) }));
        const outcome = dryRunTrigger(trigger, events, createTriggerIndex(model).cis);
        const { cis } = model.slices.cmdb;
        return json(200, {
          streamId,
          examined: outcome.examined,
          from: events.length > 0 ? iso(events[0]!.ts) : null,
          to: events.length > 0 ? iso(events.at(-1)!.ts) : null,
          matched: outcome.matched,
          withoutCi: outcome.withoutCi,
          cis: outcome.cis.map((ci: DryRunCi) => ({ ...ci, ciName: cis.get(ci.ciId)?.name ?? '', firstHitAt: iso(ci.firstHitAt), lastHitAt: iso(ci.lastHitAt) })),
        });
      },
    }),
  ];
}

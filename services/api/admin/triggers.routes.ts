/** Admin API: synthetic triggers (DESIGN §7). */
import Type from 'typebox';
import { Trigger, TriggerCreate, TriggerListQuery, TriggerPatch } from '../../../schemas/trigger.schema.js';
import { createTrigger, deleteTrigger, patchTrigger } from '../../control-plane/triggers/triggers.commands.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, noContent, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps, isoNow } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

export function triggerRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: deps.auth.requireRight(ADMIN) };
  const id = (params: Record<string, string>) => parseId(params['id'], 'id', 'trigger id');
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/triggers`,
      name: 'admin.listTriggers',
      summary: 'List triggers by id, optionally only those listening to one stream',
      schema: { query: TriggerListQuery, responses: { 200: { description: 'Triggers', schema: Type.Array(Trigger) }, ...problems(400, 401, 403) } },
      handler: (req) => {
        const { triggers } = cp.model.slices;
        const { streamId } = req.queryValues;
        const listed = streamId === undefined ? [...triggers.triggers.values()].sort((a, b) => a.id - b.id) : triggers.forStream(streamId);
        return json(200, listed);
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/triggers`,
      name: 'admin.createTrigger',
      summary: 'Create a trigger',
      schema: { body: TriggerCreate, responses: { 201: { description: 'Created', schema: Trigger }, ...problems(400, 401, 403, 409, 415) } },
      handler: async (req) => json(201, await cp.execute(createTrigger(req.body, isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/triggers/:id`,
      name: 'admin.getTrigger',
      summary: 'One trigger',
      schema: { responses: { 200: { description: 'The trigger', schema: Trigger }, ...problems(400, 401, 403, 404) } },
      handler: (req) => {
        const trigger = cp.model.slices.triggers.triggers.get(id(req.params));
        if (!trigger) throw fail('trigger.not_found', { id: req.params['id'] ?? '' });
        return json(200, trigger);
      },
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${ADMIN_PREFIX}/triggers/:id`,
      name: 'admin.patchTrigger',
      summary: 'Replace top-level fields of a trigger; the result is checked as a whole',
      schema: { body: TriggerPatch, responses: { 200: { description: 'Updated', schema: Trigger }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, await cp.execute(patchTrigger(id(req.params), req.body, isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/triggers/:id`,
      name: 'admin.deleteTrigger',
      summary: 'Delete a trigger',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        await cp.execute(deleteTrigger(id(req.params), isoNow(deps)));
        return noContent();
      },
    }),
  ];
}

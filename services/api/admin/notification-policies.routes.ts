/**
 * Admin API: notification policies (issue #31, docs/notifications.md "Model"): which events go to
 * which receivers. Rights as for receivers (notification-receivers.routes.ts); a policy sends only
 * to receivers of its own workgroup and covers only CIs its workgroup may read (policy-input.ts).
 */
import Type from 'typebox';
import { Policy, PolicyCreate, PolicyPatch, policyCreateExample, policyExample, policyPatchExample } from '../../../schemas/notifications.schema.js';
import { policiesOf, policyFor } from '../../control-plane/notifications/notifications-access.js';
import { createPolicy, deletePolicy, patchPolicy } from '../../control-plane/notifications/notifications.commands.js';
import { defineRoute, json, noContent, type Request, type Route } from '../../runtime/http/route.js';
import { type ApiDeps, isoNow } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { actorOf, NOTIFICATIONS_PATH, notificationsAuth } from './notification-receivers.routes.js';

export const POLICIES_PATH = `${NOTIFICATIONS_PATH}/policies`;

export function notificationPolicyRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: notificationsAuth(deps) };
  const id = (req: Request): number => parseId(req.params['id'], 'id', 'notification policy id');
  const One = { description: 'The policy', schema: Policy, example: policyExample };
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: POLICIES_PATH,
      name: 'admin.listNotificationPolicies',
      summary: 'The notification policies the caller may manage (all for admins; else those of its workgroups), by id',
      schema: { responses: { 200: { description: 'Policies', schema: Type.Array(Policy), example: [policyExample] }, ...problems(401, 403) } },
      handler: (req) => json(200, policiesOf(cp.model, actorOf(req))),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: POLICIES_PATH,
      name: 'admin.createNotificationPolicy',
      summary: 'Create a notification policy of one of the caller’s workgroups, sending to receivers of that workgroup',
      schema: { body: PolicyCreate, bodyExample: policyCreateExample, responses: { 201: One, ...problems(400, 401, 403, 409, 415) } },
      handler: async (req) => json(201, await cp.execute(createPolicy(req.body, actorOf(req), isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${POLICIES_PATH}/:id`,
      name: 'admin.getNotificationPolicy',
      summary: 'One notification policy',
      schema: { responses: { 200: One, ...problems(400, 401, 403, 404) } },
      handler: (req) => json(200, policyFor(cp.model, actorOf(req), id(req))),
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${POLICIES_PATH}/:id`,
      name: 'admin.patchNotificationPolicy',
      summary: 'Change fields of a notification policy (lists and configItems replaced whole)',
      schema: { body: PolicyPatch, bodyExample: policyPatchExample, responses: { 200: One, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, await cp.execute(patchPolicy(id(req), req.body, actorOf(req), isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${POLICIES_PATH}/:id`,
      name: 'admin.deleteNotificationPolicy',
      summary: 'Delete a notification policy',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        await cp.execute(deletePolicy(id(req), actorOf(req)));
        return noContent();
      },
    }),
  ];
}

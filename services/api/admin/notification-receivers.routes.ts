/**
 * Admin API: notification receivers (issue #31, docs/notifications.md "Model"). Platform admins
 * manage every receiver; holders of `base-system.notifications.write` (role
 * `notifications-writer`) those of their own workgroups (notifications-access.ts). Secrets are
 * write-only: every answer shows a receiver through receiverView, never as stored.
 *
 * Saving checks the body (400 with each field's path), then the URLs against the outbound address
 * rules (SSRF guard; a refused address is a 400 naming the rule, with the field's path), then
 * commits; the command checks the body again on the model it commits on.
 */
import Type from 'typebox';
import { Receiver, ReceiverCreate, ReceiverPatch, receiverCreateExample, receiverExample, receiverPatchExample, receiversExample } from '../../../schemas/notifications.schema.js';
import { NOTIFICATIONS_WRITE, receiverFor, receiversOf } from '../../control-plane/notifications/notifications-access.js';
import { createReceiver, deleteReceiver, draftReceiver, draftReceiverPatch, patchReceiver } from '../../control-plane/notifications/notifications.commands.js';
import type { NotificationsActor } from '../../control-plane/notifications/notifications.types.js';
import { outboundTargets } from '../../control-plane/notifications/receiver-input.js';
import { receiverView } from '../../control-plane/notifications/receiver.view.js';
import { defineRoute, json, noContent, type Request, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps, isoNow } from '../api-deps.js';
import { type AuthenticatePrincipal, principal, type PrincipalRequest } from '../auth.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

export const NOTIFICATIONS_PATH = `${ADMIN_PREFIX}/notifications`;
export const RECEIVERS_PATH = `${NOTIFICATIONS_PATH}/receivers`;

/** Authenticates, then requires `base-system.admin` or `base-system.notifications.write` (403 without). */
export function notificationsAuth(deps: ApiDeps): AuthenticatePrincipal {
  return deps.auth.requireRight(NOTIFICATIONS_WRITE, [ADMIN]);
}

export const actorOf = (request: PrincipalRequest): NotificationsActor => {
  const p = principal(request);
  return { userId: p.user.id, admin: p.subject.admin };
};

/**
 * The seam to the SSRF guard: each URL a receiver would reach, checked by checkUrl (services/
 * runtime/outbound/) against the address rules; the first refused one answers with its rule and
 * the field's path.
 */
export async function checkReceiverUrls(deps: ApiDeps, targets: ReadonlyArray<{ path: string; url: string }>): Promise<void> {
  for (const { path, url } of targets) {
    const refused = await deps.checkReceiverUrl(url);
    if (refused) throw refused.withFields([{ path, message: refused.detail }]);
  }
}

export const receiverId = (request: Request): number => parseId(request.params['id'], 'id', 'notification receiver id');

export function notificationReceiverRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: notificationsAuth(deps) };
  const One = { description: 'The receiver, without its secrets', schema: Receiver, example: receiverExample };
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: RECEIVERS_PATH,
      name: 'admin.listNotificationReceivers',
      summary: 'The notification receivers the caller may manage (all for admins; else those of its workgroups), by id',
      schema: { responses: { 200: { description: 'Receivers, without their secrets', schema: Type.Array(Receiver), example: receiversExample }, ...problems(401, 403) } },
      handler: (req) => json(200, receiversOf(cp.model, actorOf(req)).map(receiverView)),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: RECEIVERS_PATH,
      name: 'admin.createNotificationReceiver',
      summary: 'Create a notification receiver of one of the caller’s workgroups; its URLs must pass the outbound address rules',
      schema: { body: ReceiverCreate, bodyExample: receiverCreateExample, responses: { 201: One, ...problems(400, 401, 403, 409, 415, 503) } },
      handler: async (req) => {
        const { body } = req;
        const actor = actorOf(req);
        const now = isoNow(deps);
        await checkReceiverUrls(deps, outboundTargets(draftReceiver(cp.model, body, actor, 0, now)));
        return json(201, receiverView(await cp.execute(createReceiver(body, actor, now))));
      },
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${RECEIVERS_PATH}/:id`,
      name: 'admin.getNotificationReceiver',
      summary: 'One notification receiver, without its secrets',
      schema: { responses: { 200: One, ...problems(400, 401, 403, 404) } },
      handler: (req) => json(200, receiverView(receiverFor(cp.model, actorOf(req), receiverId(req)))),
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${RECEIVERS_PATH}/:id`,
      name: 'admin.patchNotificationReceiver',
      summary: 'Change fields of a notification receiver (secrets and recipients replaced whole; the type cannot change)',
      schema: { body: ReceiverPatch, bodyExample: receiverPatchExample, responses: { 200: One, ...problems(400, 401, 403, 404, 409, 415, 503) } },
      handler: async (req) => {
        const id = receiverId(req);
        const { body } = req;
        const actor = actorOf(req);
        const now = isoNow(deps);
        const { current, next } = draftReceiverPatch(cp.model, id, body, actor, now);
        const before = new Set(outboundTargets(current).map((target) => target.url));
        await checkReceiverUrls(
          deps,
          outboundTargets(next).filter((target) => !before.has(target.url)),
        );
        return json(200, receiverView(await cp.execute(patchReceiver(id, body, actor, now))));
      },
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${RECEIVERS_PATH}/:id`,
      name: 'admin.deleteNotificationReceiver',
      summary: 'Delete a notification receiver (409 while a policy sends to it)',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => {
        await cp.execute(deleteReceiver(receiverId(req), actorOf(req)));
        return noContent();
      },
    }),
  ];
}

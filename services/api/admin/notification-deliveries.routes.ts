/**
 * Admin API: a notification receiver's delivery log and the replay of one delivery (issue #31).
 * Rights as for the receiver itself (404 unknown, 403 another workgroup's). The log is written by
 * the dispatcher; a replay is recorded for the dispatcher to take up (202): it sends the message
 * again (notifications.commands.ts, requestReplay).
 */
import Type from 'typebox';
import {
  DELIVERY_ID_PATTERN,
  DELIVERY_PAGE_LIMITS,
  DeliveriesQuery,
  DeliveryPage,
  deliveryPageExample,
  ReplayRequest,
  replayExample,
} from '../../../schemas/notifications.schema.js';
import { receiverFor } from '../../control-plane/notifications/notifications-access.js';
import { requestReplay } from '../../control-plane/notifications/notifications.commands.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { defineRoute, json, type Request, type Route } from '../../runtime/http/route.js';
import { type ApiDeps, isoNow } from '../api-deps.js';
import { problems } from '../../runtime/http/route-kit.js';
import { decodeCursor, type ReadCursor } from '../streams/read-cursor.js';
import { findDelivery, readDeliveries } from './delivery-reads.js';
import { actorOf, notificationsAuth, RECEIVERS_PATH, receiverId } from './notification-receivers.routes.js';

const DELIVERY_ID = new RegExp(DELIVERY_ID_PATTERN);

const Params = Type.Object({
  id: Type.String({ description: 'The receiver id' }),
  deliveryId: Type.String({ pattern: DELIVERY_ID_PATTERN, description: 'The message’s delivery id (its webhook-id), as the log shows it' }),
});

function cursorOf(request: Request): ReadCursor | undefined {
  const text = request.query.get('cursor');
  if (text === null) return undefined;
  const cursor = decodeCursor(text);
  if (!cursor) throw fail('notification_delivery.cursor_invalid');
  return cursor;
}

function deliveryIdOf(request: Request): string {
  const value = request.params['deliveryId'] ?? '';
  if (!DELIVERY_ID.test(value)) {
    throw failFields('http.parameter_invalid', [{ path: '/deliveryId', message: 'must be 1 to 200 letters, digits and _ . : -' }], {
      name: 'delivery id',
      value: JSON.stringify(value.slice(0, 200)),
    });
  }
  return value;
}

export function notificationDeliveryRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: notificationsAuth(deps) };
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${RECEIVERS_PATH}/:id/deliveries`,
      name: 'admin.listNotificationDeliveries',
      summary: 'The receiver’s delivery log: one item per attempt, newest first, by keyset cursor (kept 30 days)',
      schema: {
        params: Type.Object({ id: Params.properties.id }),
        query: DeliveriesQuery,
        responses: { 200: { description: 'A page of deliveries', schema: DeliveryPage, example: deliveryPageExample }, ...problems(400, 401, 403, 404) },
      },
      handler: async (req) => {
        const receiver = receiverFor(cp.model, actorOf(req), receiverId(req));
        const limit = req.queryValues.limit ?? DELIVERY_PAGE_LIMITS.default;
        return json(200, await readDeliveries(deps.analytics, receiver.id, limit, cursorOf(req)));
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${RECEIVERS_PATH}/:id/deliveries/:deliveryId/replay`,
      name: 'admin.replayNotificationDelivery',
      summary: 'Ask for one delivery’s message to be sent again; the dispatcher takes the request up (202)',
      schema: {
        params: Params,
        responses: { 202: { description: 'The replay, recorded for the dispatcher', schema: ReplayRequest, example: replayExample }, ...problems(400, 401, 403, 404, 409) },
      },
      handler: async (req) => {
        const actor = actorOf(req);
        const receiver = receiverFor(cp.model, actor, receiverId(req));
        const deliveryId = deliveryIdOf(req);
        const delivery = await findDelivery(deps.analytics, receiver.id, deliveryId);
        if (!delivery) throw fail('notification_delivery.not_found', { receiverId: receiver.id, deliveryId: JSON.stringify(deliveryId) });
        return json(202, await cp.execute(requestReplay({ receiverId: receiver.id, policyId: delivery.policyId, deliveryId }, actor, isoNow(deps))));
      },
    }),
  ];
}

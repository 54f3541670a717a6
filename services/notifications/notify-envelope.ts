/**
 * The messages of the NOTIFICATIONS stream (bus-streams.ts), two kinds on one stream:
 * - `event`: a NotificationEvent made from the problem change feed, to be routed (msgId: its id),
 *   on `notifications.route`, which one consumer reads in order, one batch at a time;
 * - `delivery`: one message routing made of events for one (policy, receiver), to be sent, with
 *   when it was made, from which its maximum age counts (msgId: its deliveryId, the webhook-id;
 *   a replay asked through the API: the deliveryId and the replay's id).
 *
 * Partitions of deliveries: a message of one event goes to its (receiver, problem)'s, so a
 * receiver that keeps failing holds back only the partitions it hashes to, and the messages of
 * one problem to one receiver stay in order; a group (a policy with a window, listing several
 * problems) to its (receiver, policy)'s, where every group of that policy goes, in order.
 */
import { createHash } from 'node:crypto';
import type { RoutedMessage } from '../../pipelines/notifications/grouping.js';
import type { NotificationEvent } from '../../schemas/notification-events.schema.js';
import { NOTIFICATIONS_ROUTE_SUBJECT, notificationsSubject } from '../runtime/bus-streams.js';

export interface DeliveryEnvelope {
  type: 'delivery';
  message: RoutedMessage;
  firstAt: number;
  /** Set on a replay asked through the API: the message is sent again, with its webhook-id. */
  replayId?: number;
}

/**
 * `at`: when the dispatcher read the change from the feed, the instant it is routed at (a record
 * that came late opens its problem in the past: its repeats and windows count from now, not from
 * then). The stream keeps the first copy of an event, so a change read again keeps its instant.
 */
export type EventEnvelope = { type: 'event'; event: NotificationEvent; at?: number };

export type Envelope = EventEnvelope | DeliveryEnvelope;

export const NOTIFY_PARTITIONS = 128;

/** What keeps an event's order: its problem, else its CI or maintenance. */
export function orderKeyOf(event: NotificationEvent): string {
  switch (event.kind) {
    case 'problem.opened':
    case 'problem.acknowledged':
    case 'problem.resolved':
      return `problem:${event.problem.id}`;
    case 'problem.flapping':
    case 'sla.budget_burning':
      return `ci:${event.configItem.id}`;
    case 'maintenance.started':
    case 'maintenance.ended':
      return `maintenance:${event.maintenance.id}`;
  }
}

export function partitionOf(key: string, partitions: number = NOTIFY_PARTITIONS): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) % partitions;
}

export function partitionOfDelivery(envelope: DeliveryEnvelope, partitions: number = NOTIFY_PARTITIONS): number {
  const { message } = envelope;
  if (message.grouped) return partitionOf(`${message.receiverId}|policy:${message.policyId}`, partitions);
  const first = message.events[0];
  return partitionOf(`${message.receiverId}|${first ? orderKeyOf(first) : ''}`, partitions);
}

/** Where the envelope goes on the stream. */
export const subjectOf = (envelope: Envelope): string => (envelope.type === 'event' ? NOTIFICATIONS_ROUTE_SUBJECT : notificationsSubject(partitionOfDelivery(envelope)));

export function msgIdOf(envelope: Envelope): string {
  if (envelope.type === 'event') return envelope.event.id;
  return envelope.replayId === undefined ? envelope.message.deliveryId : `${envelope.message.deliveryId}:replay:${envelope.replayId}`;
}

export const encodeEnvelope = (envelope: Envelope): Uint8Array => Buffer.from(JSON.stringify(envelope));

export function decodeEnvelope(data: Uint8Array): Envelope {
  const parsed = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as Partial<Envelope> & { type?: unknown };
  if (parsed.type === 'event' && parsed.event && typeof parsed.event.id === 'string') return parsed as Envelope;
  if (parsed.type === 'delivery' && parsed.message && typeof parsed.message.deliveryId === 'string' && typeof parsed.firstAt === 'number') return parsed as Envelope;
  throw new Error('not a notification envelope');
}

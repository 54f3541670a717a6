/**
 * The delivery log of a receiver (issue #31), read from ClickHouse's `notification_deliveries`
 * (0008_notification_deliveries.sql): newest first by keyset — each page holds what sorts after
 * the cursor by (at, id) — so deliveries written meanwhile neither shift a page nor repeat an
 * item. Ids are compared as text, in the statement and its ORDER BY alike (event-reads.ts). The
 * dispatcher writes the rows; until it exists the log is empty.
 */
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import type { DeliveryModel, DeliveryPageModel } from '../../../schemas/notifications.schema.js';
import { DELIVERY_READ_LIST, NOTIFICATION_DELIVERIES } from '../../../schemas/tables/notification-deliveries.table.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';
import { encodeCursor, type ReadCursor } from '../streams/read-cursor.js';

interface DeliveryRow {
  item_id: string;
  at_ms: string;
  receiver_id: string;
  policy_id: string;
  delivery_id: string;
  event_kinds: string[];
  attempt: number;
  status: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number | null;
}

const itemOf = (row: DeliveryRow): DeliveryModel => ({
  id: row.item_id,
  receiverId: Number(row.receiver_id),
  policyId: Number(row.policy_id),
  deliveryId: row.delivery_id,
  eventKinds: row.event_kinds as DeliveryModel['eventKinds'],
  attempt: Number(row.attempt),
  status: row.status as DeliveryModel['status'],
  statusCode: row.status_code === null ? null : Number(row.status_code),
  error: row.error,
  latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
  at: new Date(Number(row.at_ms)).toISOString(),
});

/** A page of the receiver's deliveries, newest first. */
export async function readDeliveries(analytics: AnalyticsStore, receiverId: number, limit: number, cursor: ReadCursor | undefined): Promise<DeliveryPageModel> {
  const after = cursor ? 'AND at <= {after:DateTime64(3)} AND (at, toString(id)) < ({after:DateTime64(3)}, {afterId:String})' : '';
  const rows = await analytics.query<DeliveryRow>(
    `SELECT ${DELIVERY_READ_LIST}
     FROM ${NOTIFICATION_DELIVERIES.name} FINAL
     WHERE receiver_id = {receiver:UInt64} ${after}
     ORDER BY at DESC, item_id DESC
     LIMIT {take:UInt32}`,
    { receiver: receiverId, take: limit + 1, ...(cursor ? { after: clickhouseDateTime(cursor.ms), afterId: cursor.id } : {}) },
  );
  const items = rows.slice(0, limit).map(itemOf);
  const last = items.at(-1);
  return { items, nextCursor: last && rows.length > limit ? encodeCursor({ ms: Date.parse(last.at), id: last.id }) : null };
}

/** The newest attempt of one message to the receiver, or undefined when the log has none. */
export async function findDelivery(analytics: AnalyticsStore, receiverId: number, deliveryId: string): Promise<DeliveryModel | undefined> {
  const [row] = await analytics.query<DeliveryRow>(
    `SELECT ${DELIVERY_READ_LIST}
     FROM ${NOTIFICATION_DELIVERIES.name} FINAL
     WHERE receiver_id = {receiver:UInt64} AND delivery_id = {delivery:String}
     ORDER BY at DESC, item_id DESC
     LIMIT 1`,
    { receiver: receiverId, delivery: deliveryId },
  );
  return row ? itemOf(row) : undefined;
}

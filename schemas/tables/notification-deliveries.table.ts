/**
 * The `notification_deliveries` table (0008_notification_deliveries.sql,
 * 0009_notification_messages.sql): one row per attempt to send one message to one receiver,
 * written by the dispatcher's delivery log (services/notifications/delivery-log.ts) and read per
 * receiver by the admin API (services/api/admin/delivery-reads.ts).
 */
import { type ColumnOf, epochMs, type RowOf, selectList, table } from './table.js';

export const NOTIFICATION_DELIVERIES = table('notification_deliveries', {
  /** The attempt. */
  id: 'UUID',
  receiver_id: 'UInt64',
  policy_id: 'UInt64',
  /** The message (the Standard Webhooks webhook-id, the same on every attempt). */
  delivery_id: 'String',
  event_kinds: 'Array(LowCardinality(String))',
  attempt: 'UInt16',
  status: 'LowCardinality(String)',
  status_code: 'Nullable(UInt16)',
  error: 'Nullable(String)',
  latency_ms: 'Nullable(UInt32)',
  at: "DateTime64(3, 'UTC')",
  /** The events the message carried, as JSON, for a replay ('' in rows older than the column). */
  message: 'String',
});

export type DeliveryTableRow = RowOf<typeof NOTIFICATION_DELIVERIES>;

/** An attempt as the admin API lists it: every column but the message; the id as `item_id`, the instant as `at_ms`. */
export const DELIVERY_READ_LIST = selectList<ColumnOf<typeof NOTIFICATION_DELIVERIES>>(
  ['id', 'at', 'receiver_id', 'policy_id', 'delivery_id', 'event_kinds', 'attempt', 'status', 'status_code', 'error', 'latency_ms'],
  { id: 'toString(id) AS item_id', at: `${epochMs('at')} AS at_ms` },
);

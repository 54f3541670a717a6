/**
 * The delivery log (issue #31): one row of `notification_deliveries` per attempt (time, message,
 * attempt, status code, error, latency), read by the admin API per receiver. The row's id is
 * derived from (deliveryId, attempt), so an attempt logged twice (a redelivery after a crash)
 * collapses in the table (ReplacingMergeTree, read with FINAL). Each row carries the message's
 * events, which a replay sends again. Rows are inserted in batches (every 250 ms, or 500 rows),
 * so the engine takes a few inserts a second however many messages go out; a stop writes what
 * is queued, a crash loses at most that quarter second of the log. The log is written when the
 * table exists (its migration comes with the admin model); a failed write is logged, never a
 * reason to send a message again.
 */
import { createHash } from 'node:crypto';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';
import type { RoutedMessage } from '../../pipelines/notifications/grouping.js';
import { type DeliveryTableRow, NOTIFICATION_DELIVERIES } from '../../schemas/tables/notification-deliveries.table.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';
import type { Logger } from '../runtime/logger.js';

export type DeliveryStatus = 'delivered' | 'failed' | 'retrying' | 'dropped';

export interface AttemptEntry {
  message: RoutedMessage;
  attempt: number;
  status: DeliveryStatus;
  statusCode: number | null;
  error: string | null;
  latencyMs: number | null;
  at: number;
}

const uuidOf = (hex: string): string => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

/** The attempt's row; `event_ids` goes in when the table has that column (write keeps the columns the table has). */
export function deliveryRow(entry: AttemptEntry): DeliveryTableRow & { event_ids: string[] } {
  const id = uuidOf(createHash('sha256').update(`${entry.message.deliveryId}\n${entry.attempt}`).digest('hex'));
  return {
    id,
    receiver_id: entry.message.receiverId,
    policy_id: entry.message.policyId,
    delivery_id: entry.message.deliveryId,
    event_kinds: [...new Set(entry.message.events.map((e) => e.kind))],
    event_ids: entry.message.events.map((e) => e.id),
    // What a replay sends again (0009_notification_messages.sql).
    message: JSON.stringify(entry.message.events),
    attempt: entry.attempt,
    status: entry.status,
    status_code: entry.statusCode,
    error: entry.error,
    latency_ms: entry.latencyMs,
    at: clickhouseDateTime(entry.at),
  };
}

/** Rows are written in batches: at most this long after the first of a batch… */
const FLUSH_MS = 250;
/** …or as soon as this many wait. */
const FLUSH_ROWS = 500;

export interface DeliveryLog {
  /** Queues the attempt's row; written with the others of its batch (never waited for by a send). */
  write(entry: AttemptEntry): void;
  /** Writes what is queued. */
  close(): Promise<void>;
  /** The message of a delivery as it was sent, for a replay; undefined when the log has no copy of it. */
  message(receiverId: number, policyId: number, deliveryId: string): Promise<RoutedMessage | undefined>;
}

export async function createDeliveryLog(analytics: AnalyticsStore, logger: Logger): Promise<DeliveryLog> {
  const log = logger.child({ component: 'notify-log' });
  let columns: Set<string> | undefined;
  try {
    const rows = await analytics.query<{ name: string }>('SELECT name FROM system.columns WHERE database = currentDatabase() AND table = {table:String}', {
      table: NOTIFICATION_DELIVERIES.name,
    });
    if (rows.length > 0) columns = new Set(rows.map((r) => r.name));
  } catch (err) {
    log.warn({ err }, 'could not read whether the delivery log table exists; not logging deliveries');
  }
  if (!columns) log.info(`no ${NOTIFICATION_DELIVERIES.name} table: deliveries are not logged`);
  let queue: Array<{ id: string; row: Record<string, unknown> }> = [];
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    // One token per batch, from its rows' ids: the same batch inserted again is stored once.
    const token = createHash('sha256')
      .update(batch.map((b) => b.id).join('\n'))
      .digest('hex');
    flushing = flushing.then(async () => {
      try {
        await analytics.insert(
          NOTIFICATION_DELIVERIES.name,
          batch.map((b) => b.row),
          { deduplicationToken: token },
        );
      } catch (err) {
        log.warn({ err, rows: batch.length }, 'delivery attempts could not be logged');
      }
    });
  }
  return {
    write(entry) {
      if (!columns) return;
      const full = deliveryRow(entry);
      // Only the columns the table has: the log's schema may grow without the dispatcher.
      queue.push({ id: full.id, row: Object.fromEntries(Object.entries(full).filter(([name]) => columns!.has(name))) });
      if (queue.length >= FLUSH_ROWS) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
    },
    async close() {
      flush();
      await flushing;
    },
    async message(receiverId, policyId, deliveryId) {
      if (!columns?.has('message')) return undefined;
      const rows = await analytics.query<{ message: string }>(
        `SELECT message FROM ${NOTIFICATION_DELIVERIES.name}
         WHERE receiver_id = {receiver:UInt64} AND delivery_id = {delivery:String} AND message != ''
         ORDER BY attempt LIMIT 1`,
        { receiver: receiverId, delivery: deliveryId },
      );
      const text = rows[0]?.message;
      if (text === undefined) return undefined;
      return { deliveryId, policyId, receiverId, events: JSON.parse(text) as RoutedMessage['events'] };
    },
  };
}

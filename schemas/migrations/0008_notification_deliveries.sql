-- The delivery log of notification receivers (issue #31): one row per attempt to send one message
-- to one receiver, written by the dispatcher, read newest first per receiver by
-- GET /api/admin/v1/notifications/receivers/{id}/deliveries (keyset on at, id). `delivery_id` is
-- the message (the Standard Webhooks webhook-id, the same on every attempt); `id` the attempt, so
-- a retried insert of the same attempt collapses at merges and in FINAL reads. Kept 30 days from
-- the attempt.
CREATE TABLE IF NOT EXISTS notification_deliveries
(
    id UUID,
    receiver_id UInt64,
    policy_id UInt64,
    delivery_id String,
    event_kinds Array(LowCardinality(String)),
    attempt UInt16,
    status LowCardinality(String),
    status_code Nullable(UInt16),
    error Nullable(String),
    latency_ms Nullable(UInt32),
    at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (receiver_id, at, id)
TTL toDateTime(at) + INTERVAL 30 DAY;

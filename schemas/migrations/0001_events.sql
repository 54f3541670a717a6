-- Event rows and dead letters (DESIGN §6). Both are read per stream and time range, hence the
-- sort key, and grow without bound, hence monthly partitions that can be dropped whole.
-- Exactly one row per accepted record, two ways: an event worker inserts the records of several
-- bus messages at once with a token naming them (non_replicated_deduplication_window makes a
-- single server, or chDB, honour insert_deduplication_token), so the same group retried adds
-- nothing; a redelivery that groups the messages differently is caught by the Replacing engine,
-- since a record's row (id from its batch id and position, its date, its stream) is the same
-- every time: duplicates collapse at merge, and `FINAL` reads see one row per record at once.
CREATE TABLE IF NOT EXISTS events
(
    id UUID,
    stream_id UInt64,
    ts DateTime64(3, 'UTC'),
    received_at DateTime64(3, 'UTC'),
    route LowCardinality(String),
    labels Map(String, String),
    payload String
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (stream_id, ts, id)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE TABLE IF NOT EXISTS dead_letters
(
    id UUID,
    stream_id UInt64,
    received_at DateTime64(3, 'UTC'),
    reason String,
    payload String
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(received_at)
ORDER BY (stream_id, received_at, id)
SETTINGS non_replicated_deduplication_window = 10000;

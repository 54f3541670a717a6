-- Event rows and dead letters (DESIGN §6). Both are read per stream and time range, hence the
-- sort key, and grow without bound, hence monthly partitions that can be dropped whole.
-- non_replicated_deduplication_window: without it a single server (or chDB) ignores
-- insert_deduplication_token, and a batch retried after a lost acknowledgement would be stored
-- twice. It also drops a repeated block of identical rows sent without a token, which event rows
-- (each with its own id) never are.
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
ENGINE = MergeTree
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
ENGINE = MergeTree
PARTITION BY toYYYYMM(received_at)
ORDER BY (stream_id, received_at, id)
SETTINGS non_replicated_deduplication_window = 10000;

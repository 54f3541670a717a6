-- Problems (DESIGN §7): one row per problem id, written again at every change with a higher
-- version (the version of its (trigger, CI) key in the keyed store, DESIGN §7a), so `FINAL` reads see the last state. A problem
-- that a late record shows never existed (its opening record was re-ordered into another
-- problem) gets a row with is_deleted = 1, which FINAL leaves out. The SLA reads them per CI
-- and time range; the id is derived from (trigger, CI, opening record), so ci_id never changes
-- for an id and may lead the key.
CREATE TABLE IF NOT EXISTS problems
(
    id UUID,
    trigger_id UInt64,
    trigger_name String,
    ci_id UInt64,
    date_start DateTime64(3, 'UTC'),
    date_end Nullable(DateTime64(3, 'UTC')),
    last_event_at DateTime64(3, 'UTC'),
    priority UInt8,
    tags String,
    incidents String,
    influence_value Float64,
    influence_max UInt8,
    with_maintenance UInt8,
    version UInt64,
    is_deleted UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (ci_id, id);

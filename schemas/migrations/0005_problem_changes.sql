-- The problems' availability facts as they change (issue #18): every row written to `problems`
-- (an opening, a close, a late record reshaping the past, a delete) is copied here with the time
-- it was written, by the materialized view below. An API process keeps the live SLA figures of
-- every CI in memory: it reads the problems of the last 31 days once at start, then only these
-- rows, by the sort key, since the last read. Nothing reads them after a day.
CREATE TABLE IF NOT EXISTS problem_changes
(
    written_at DateTime64(3, 'UTC'),
    id UUID,
    ci_id UInt64,
    date_start DateTime64(3, 'UTC'),
    date_end Nullable(DateTime64(3, 'UTC')),
    priority UInt8,
    influence_value Float64,
    influence_max UInt8,
    version UInt64,
    is_deleted UInt8
)
ENGINE = MergeTree
ORDER BY written_at
TTL toDateTime(written_at) + INTERVAL 1 DAY;

CREATE MATERIALIZED VIEW IF NOT EXISTS problem_changes_mv TO problem_changes AS
SELECT now64(3, 'UTC') AS written_at, id, ci_id, date_start, date_end, priority, influence_value, influence_max, version, is_deleted
FROM problems;

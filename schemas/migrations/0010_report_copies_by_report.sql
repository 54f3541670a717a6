-- A report's copy of the problems it counted, and the rows its export shows, each in a partition
-- of their own per report (issue #35). Both are written once, read by report, and dropped whole, so
-- merging their parts buys nothing: it only rewrote each copy again (10 000 000 problems for
-- 100 000 CIs) while the next report ran, which made it 2–4 s slower. Merges are off
-- (max_bytes_to_merge_* of 1 byte), a copy stays the parts its insert wrote (a few per report),
-- a retried or expired report's rows go with DROP PARTITION (no mutation), and the TTL drops a
-- report's parts whole (ttl_only_drop_parts) once its day is over. The report id is the same on
-- every row of a partition: LowCardinality keeps it once instead of 36 bytes a row. It stays first
-- in the sorting key all the same: FINAL collapses rows of equal sorting keys across partitions.
--
-- Earlier reports are copied over; the old tables are not written again and empty themselves by
-- their TTL within a day. They are not dropped here: a second process applying this migration
-- at once would find nothing to copy from.
CREATE TABLE IF NOT EXISTS sla_report_problem_copies
(
    report_id LowCardinality(String),
    id UUID,
    trigger_id UInt64,
    trigger_name String,
    ci_id UInt64,
    date_start DateTime64(3, 'UTC'),
    date_end Nullable(DateTime64(3, 'UTC')),
    priority UInt8,
    tags String,
    incidents String,
    influence_value Float64,
    influence_max UInt8,
    with_maintenance UInt8,
    created_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
PARTITION BY report_id
ORDER BY (report_id, date_start, id)
TTL toDateTime(created_at) + INTERVAL 1 DAY
SETTINGS ttl_only_drop_parts = 1, max_bytes_to_merge_at_max_space_in_pool = 1, max_bytes_to_merge_at_min_space_in_pool = 1;

CREATE TABLE IF NOT EXISTS sla_report_result_rows
(
    report_id LowCardinality(String),
    kind LowCardinality(String),
    seq UInt32,
    row String,
    created_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
PARTITION BY report_id
ORDER BY (report_id, kind, seq)
TTL toDateTime(created_at) + INTERVAL 1 DAY
SETTINGS ttl_only_drop_parts = 1, max_bytes_to_merge_at_max_space_in_pool = 1, max_bytes_to_merge_at_min_space_in_pool = 1;

INSERT INTO sla_report_problem_copies SELECT * FROM sla_report_problems SETTINGS max_partitions_per_insert_block = 0;

INSERT INTO sla_report_result_rows SELECT * FROM sla_report_rows SETTINGS max_partitions_per_insert_block = 0;

-- Results of custom SLA reports (DESIGN §9), kept one day: TTL drops them at merges, and the SLA
-- worker deletes what is past the day at once (the export answers 410 from then on).
-- sla_report_rows: the CI rows (spec 2.14) or template rows (2.16) of a report, as JSON, in
-- export order. sla_report_problems: the problems a report counted, copied inside ClickHouse
-- when it was calculated, so the event export (2.13) shows what the figures were made of.
CREATE TABLE IF NOT EXISTS sla_report_rows
(
    report_id String,
    kind LowCardinality(String),
    seq UInt32,
    row String,
    created_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (report_id, kind, seq)
TTL toDateTime(created_at) + INTERVAL 1 DAY;

CREATE TABLE IF NOT EXISTS sla_report_problems
(
    report_id String,
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
ORDER BY (report_id, date_start, id)
TTL toDateTime(created_at) + INTERVAL 1 DAY;

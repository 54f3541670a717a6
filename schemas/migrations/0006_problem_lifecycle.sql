-- What operators do with problems (issue #30): acknowledge, comment, resolve by hand. The keyed
-- problem stage is the only writer of a problem's rows, so these go to the key's owner as
-- messages, like hits, and it rewrites the problem's row with what it now carries: the
-- acknowledgement (JSON {by, byName, at, comment}, '' when none) and the number of comments.
ALTER TABLE problems ADD COLUMN IF NOT EXISTS acknowledged String DEFAULT '';

ALTER TABLE problems ADD COLUMN IF NOT EXISTS comments_count UInt32 DEFAULT 0;

-- History reads filter by start date across every CI: the sort key (ci_id, id) cannot help there,
-- a min-max index per granule skips the parts and granules of other weeks.
ALTER TABLE problems ADD INDEX IF NOT EXISTS date_start_minmax date_start TYPE minmax GRANULARITY 1;

-- The id alone finds a problem (GET /problems/{id}, lifecycle actions): a bloom filter skips the
-- granules that cannot hold it.
ALTER TABLE problems ADD INDEX IF NOT EXISTS id_bloom id TYPE bloom_filter(0.01) GRANULARITY 1;

-- Every lifecycle action, once (its id comes from the request, so a redelivered message adds no
-- second row): a problem's comments and the history of who did what, when.
CREATE TABLE IF NOT EXISTS problem_actions
(
    problem_id UUID,
    at DateTime64(3, 'UTC'),
    action_id UUID,
    kind LowCardinality(String),
    ci_id UInt64,
    by_id UInt64,
    by_name String,
    text String
)
ENGINE = ReplacingMergeTree
ORDER BY (problem_id, at, action_id);

-- The trigger hits of each (trigger, CI) key as the problem stage placed them: a problem's hits are
-- its key's hits between its start and its end, whatever late records did to its bounds since.
-- The event id is the record's, so a redelivered hit collapses onto its first row.
CREATE TABLE IF NOT EXISTS trigger_hits
(
    trigger_id UInt64,
    ci_id UInt64,
    ts DateTime64(3, 'UTC'),
    event_id String,
    resolve UInt8
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (trigger_id, ci_id, ts, event_id);

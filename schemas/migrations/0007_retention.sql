-- Retention (issue #34): every table that grows with the traffic says in its DDL how long it keeps
-- its rows. ClickHouse deletes expired rows as it merges parts; OPTIMIZE TABLE … FINAL applies
-- the TTL at once. The days below are the defaults; a start brings the events' default, the dead
-- letters' and the problems' days to OPS_EVENTS_RETENTION_DAYS, OPS_DEAD_LETTERS_RETENTION_DAYS and
-- OPS_PROBLEMS_RETENTION_DAYS (services/runtime/adapters/analytics/retention.ts).

-- Events: each row carries its own days, so each stream can keep its records longer or shorter
-- (its config's retentionDays). Rows without it (every stream that says nothing, and the rows stored
-- before this migration) take the column's default, the installation's OPS_EVENTS_RETENTION_DAYS.
-- Counted from receipt, not from the record's own date: that one is the sender's clock, and a
-- clock years ahead would keep its rows for years (the disk is bounded only by what arrives per
-- day), one years behind would lose them at once (a backfill of old records is kept as long).
ALTER TABLE events ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT 30;

ALTER TABLE events MODIFY TTL toDateTime(received_at) + toIntervalDay(retention_days);

-- Dead letters are kept a week from their receipt (OPS_DEAD_LETTERS_RETENTION_DAYS): long enough
-- to look at and send again.
ALTER TABLE dead_letters MODIFY TTL toDateTime(received_at) + toIntervalDay(7);

-- Problems are kept for PreviousYear SLA reports: 400 days from their end covers a report on the
-- previous calendar year ordered up to 35 days into the new one (731 covers one ordered any day).
-- A row of an open problem (no end) is kept, however old, and so is the row that hides a problem a
-- late record showed never existed (is_deleted = 1, its dates the epoch): expired at once, it
-- would bring the hidden problem back into FINAL reads. A problem's earlier rows (its versions
-- before it closed) are folded into its newest by the Replacing merges within hours of being
-- written, long before the newest expires.
ALTER TABLE problems MODIFY TTL if(date_end IS NULL OR is_deleted = 1, toDateTime('2106-01-01 00:00:00', 'UTC'), toDateTime(assumeNotNull(date_end)) + toIntervalDay(400));

-- A problem's hits and the actions taken on it are kept as long, from their own dates.
ALTER TABLE trigger_hits MODIFY TTL toDateTime(ts) + toIntervalDay(400);

ALTER TABLE problem_actions MODIFY TTL toDateTime(at) + toIntervalDay(400);

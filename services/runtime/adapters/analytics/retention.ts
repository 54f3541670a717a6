/**
 * How long the analytics tables keep their rows (issue #34): TTLs in the tables' DDL, set by
 * 0007_retention.sql with the defaults and brought to the configuration at every start, so the
 * DDL always says what is in force (`SHOW CREATE TABLE`). Expired rows go at the next merge
 * (ClickHouse applies TTLs when it merges parts, and merges a part with expired rows by itself,
 * at most every 4 hours per partition); `OPTIMIZE TABLE … FINAL` applies them at once.
 *
 * - `events`: `TTL toDateTime(received_at) + toIntervalDay(retention_days)`, from receipt (a
 *   sender's clock does not decide how long its rows stay) and by a column of each row, so each
 *   stream may keep its records longer or shorter (its config's `retentionDays`, written by the
 *   event pipeline). A row without it takes the column's default, which is set here to
 *   OPS_EVENTS_RETENTION_DAYS: a change applies to the records stored after it.
 * - `dead_letters`: OPS_DEAD_LETTERS_RETENTION_DAYS (7) from receipt.
 * - `problems`: OPS_PROBLEMS_RETENTION_DAYS from the problem's end; an open problem is kept, however
 *   old. `trigger_hits` and `problem_actions` the same time from their own date. A change of
 *   the days rewrites the TTL, which ClickHouse then recomputes for the stored parts in the
 *   background (a mutation).
 *
 * Processes sharing one database should be given the same days: the last to start sets them.
 */
import type { Logger } from '../../logger.js';
import type { AnalyticsStore } from './analytics.port.js';

export interface RetentionConfig {
  /** Days an event is kept after it was received, unless its stream says otherwise. */
  eventsDays: number;
  /** Days a problem is kept after its end, and its hits and actions after theirs. */
  problemsDays: number;
  /** Days a dead letter is kept after it was received. */
  deadLettersDays: number;
}

/** The longest retention the DDL may carry: DateTime arithmetic past 2106 would wrap around. */
export const MAX_RETENTION_DAYS = 3650;

/** The TTL expression of each table whose TTL the configuration sets, for `days`. */
export const TABLE_TTL: Readonly<Record<'dead_letters' | 'problems' | 'trigger_hits' | 'problem_actions', (days: number) => string>> = {
  dead_letters: (days) => `toDateTime(received_at) + toIntervalDay(${days})`,
  problems: (days) => `if(date_end IS NULL OR is_deleted = 1, toDateTime('2106-01-01 00:00:00', 'UTC'), toDateTime(assumeNotNull(date_end)) + toIntervalDay(${days}))`,
  trigger_hits: (days) => `toDateTime(ts) + toIntervalDay(${days})`,
  problem_actions: (days) => `toDateTime(at) + toIntervalDay(${days})`,
};

function checkedDays(days: number, name: string): number {
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS) throw new Error(`${name} must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, not ${days}`);
  return days;
}

/** Sets the tables' retention to `config` where it differs; returns the tables changed. */
export async function applyRetention(store: AnalyticsStore, config: RetentionConfig, deps: { logger: Logger }): Promise<string[]> {
  const eventsDays = checkedDays(config.eventsDays, 'the events retention');
  const problemsDays = checkedDays(config.problemsDays, 'the problems retention');
  const deadLettersDays = checkedDays(config.deadLettersDays, 'the dead letters retention');
  const daysOf = (table: keyof typeof TABLE_TTL): number => (table === 'dead_letters' ? deadLettersDays : problemsDays);
  const changed: string[] = [];

  const [column] = await store.query<{ default_expression: string }>(
    "SELECT default_expression FROM system.columns WHERE database = currentDatabase() AND table = 'events' AND name = 'retention_days'",
  );
  if (column && column.default_expression !== String(eventsDays)) {
    // Only the default changes (metadata): rows stored keep the days they were stored with.
    await store.command(`ALTER TABLE events MODIFY COLUMN retention_days UInt16 DEFAULT ${eventsDays}`);
    changed.push('events');
  }

  const tables = await store.query<{ name: keyof typeof TABLE_TTL; engine_full: string }>(
    "SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN ('dead_letters', 'problems', 'trigger_hits', 'problem_actions')",
  );
  for (const { name, engine_full } of tables) {
    const days = daysOf(name);
    const current = / TTL .*toIntervalDay\((\d+)\)/.exec(engine_full)?.[1];
    if (current === String(days)) continue;
    await store.command(`ALTER TABLE ${name} MODIFY TTL ${TABLE_TTL[name](days)}`);
    changed.push(name);
  }
  if (changed.length > 0) deps.logger.info({ tables: changed, eventsDays, problemsDays, deadLettersDays }, 'analytics retention set');
  return changed;
}

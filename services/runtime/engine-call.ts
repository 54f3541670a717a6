/**
 * Tells a consumer whether an engine's failure is the engine's (retry it: it will pass once the
 * engine is back) or the message's (retrying changes nothing; the consumer edge dead-letters it
 * after its deliveries), by the error catalogue's kinds rather than by driver error names:
 *
 * - a full store: `storage.full` (unavailable);
 * - ClickHouse refusing the statement or its data (a parse error, a type mismatch, a value out
 *   of range: the codes below, as chDB and the server both quote them): `engine.rejected`
 *   (unprocessable);
 * - anything else (refused connections, timeouts, a restart, a driver's own error):
 *   `engine.unavailable` (unavailable).
 */
import type { AnalyticsStore } from './adapters/analytics/analytics.port.js';
import { BusUnavailableError } from './adapters/bus/bus.port.js';
import { type AppError, fail, isAppError } from '../../schemas/errors.js';
import { storageFull, storageFullReason } from './storage-full.js';

/**
 * ClickHouse error codes that blame the input, so that the same statement with the same data
 * fails again on every engine: CANNOT_PARSE_TEXT 6, NO_SUCH_COLUMN_IN_TABLE 16,
 * CANNOT_PARSE_QUOTED_STRING 26, CANNOT_PARSE_INPUT_ASSERTION_FAILED 27, CANNOT_READ_ALL_DATA 33,
 * BAD_ARGUMENTS 36, CANNOT_PARSE_DATE 38, CANNOT_PARSE_DATETIME 41, ILLEGAL_TYPE_OF_ARGUMENT 43,
 * ILLEGAL_COLUMN 44, UNKNOWN_IDENTIFIER 47, TYPE_MISMATCH 53, SYNTAX_ERROR 62,
 * ARGUMENT_OUT_OF_BOUND 69, CANNOT_CONVERT_TYPE 70, CANNOT_PARSE_NUMBER 72, INCORRECT_DATA 117,
 * CANNOT_READ_ARRAY_FROM_TEXT 130, TOO_LARGE_STRING_SIZE 131, SIZES_OF_ARRAYS_DONT_MATCH 190,
 * VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE 321, CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN 349,
 * UNKNOWN_QUERY_PARAMETER 456, BAD_QUERY_PARAMETER 457.
 */
const INPUT_AT_FAULT = new Set([6, 16, 26, 27, 33, 36, 38, 41, 43, 44, 47, 53, 62, 69, 70, 72, 117, 130, 131, 190, 321, 349, 456, 457]);

/** The ClickHouse error code of a chDB error ("Code: 27. DB::Exception: …") or a server's (its `code`). */
export function clickhouseCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code);
  const quoted = typeof message === 'string' ? /^Code: (\d+)\./.exec(message) : null;
  return quoted ? Number(quoted[1]) : undefined;
}

/** The catalogue error that says what `error`, raised by `engine`, means to a consumer. */
export function engineFailure(engine: string, error: unknown): AppError {
  if (isAppError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const full = storageFullReason(error);
  const code = clickhouseCode(error);
  const told =
    full !== undefined
      ? storageFull(engine, full)
      : code !== undefined && INPUT_AT_FAULT.has(code)
        ? fail('engine.rejected', { engine, reason })
        : fail('engine.unavailable', { engine, reason });
  told.cause = error;
  return told;
}

/** Runs an engine call, its failure told as a catalogue error (engineFailure). */
export async function engineCall<T>(engine: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof BusUnavailableError ? error : engineFailure(engine, error);
  }
}

/** The store, each call's failure told as a catalogue error (for consumers' steps). */
export function analyticsThroughEngineCalls(store: AnalyticsStore, engine = 'analytics store'): AnalyticsStore {
  return {
    kind: store.kind,
    command: (sql, params) => engineCall(engine, () => store.command(sql, params)),
    query: (sql, params) => engineCall(engine, () => store.query(sql, params)),
    queryFloat64: (sql, params) => engineCall(engine, () => store.queryFloat64(sql, params)),
    insert: (table, rows, options) => engineCall(engine, () => store.insert(table, rows, options)),
    ping: () => engineCall(engine, () => store.ping()),
    close: () => store.close(),
  };
}

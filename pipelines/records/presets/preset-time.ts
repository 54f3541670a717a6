/**
 * The dates agents write, as the record's `@timestamp` (which sets the event date, preprocess.step.ts):
 * an ISO 8601 date-time in UTC, or why the agent's date cannot be one. The rule and its message
 * are the ones every receiver gives (timestamps.ts dateTimeFault), prefixed with what the agent
 * wrote. Epoch times are read exactly, in nanoseconds: the digits an agent sends below the
 * millisecond are kept in `@timestamp` (the event date itself has milliseconds).
 */
import { deadLetter, type Outcome, ok } from '../outcome.js';
import { dateTimeFault, STORABLE_YEARS } from '../timestamps.js';

const NS_PER_MS = 1_000_000n;
/** The largest distance from the epoch a JavaScript Date holds. */
const MAX_DATE_MS = 8_640_000_000_000_000n;

/** `@timestamp` of an instant given in nanoseconds since the epoch; `what` names the agent's text in a refusal. */
export function timestampOfNs(ns: bigint, what: string): Outcome<string> {
  let ms = ns / NS_PER_MS;
  let below = ns % NS_PER_MS;
  if (below < 0n) {
    ms -= 1n;
    below += NS_PER_MS;
  }
  if (ms > MAX_DATE_MS || ms < -MAX_DATE_MS) return deadLetter(`${what} is not a date between ${STORABLE_YEARS.first} and ${STORABLE_YEARS.last}`);
  let iso = new Date(Number(ms)).toISOString();
  if (below !== 0n) iso = `${iso.slice(0, -1)}${below.toString().padStart(6, '0')}Z`;
  return checked(iso, what);
}

/** `@timestamp` of an ISO 8601 date-time an agent wrote with its offset (RFC 5424, RFC 3339). */
export function checked(iso: string, what: string): Outcome<string> {
  const fault = dateTimeFault(iso);
  return fault === undefined ? ok(iso) : deadLetter(`${what}: ${fault}`);
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/**
 * Nanoseconds of a decimal text in `unit`s (1e9 for seconds), read exactly (no float rounding):
 * `1795613691.990` seconds is 1795613691990000000. Undefined when the text is not a plain
 * decimal number; digits below the nanosecond are cut.
 */
export function decimalToNs(text: string, nsPerUnit: bigint): bigint | undefined {
  const m = DECIMAL.exec(text);
  // Past 30 digits no number of units is a date: refused before BigInt reads a text of any length.
  if (!m || m[2]!.length > 30) return undefined;
  const digits = nsPerUnit.toString().length - 1;
  const fraction = (m[3] ?? '').slice(0, digits).padEnd(digits, '0');
  const ns = BigInt(m[2]!) * nsPerUnit + (digits > 0 ? BigInt(fraction) : 0n);
  return m[1] === '-' ? -ns : ns;
}

export const NS_PER_SECOND = 1_000_000_000n;

/** Nanoseconds of a JSON number of seconds (collectd's JSON `time`), to the microsecond. */
export function secondsToNs(seconds: number): bigint | undefined {
  if (!Number.isFinite(seconds) || Math.abs(seconds) >= 1e21) return undefined;
  return decimalToNs(seconds.toFixed(6), NS_PER_SECOND);
}

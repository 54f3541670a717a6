/**
 * What one attempt to deliver a notification message means (issue #31, "Delivery"), pure:
 *
 * | the answer                                  | verdict                                                       |
 * | ------------------------------------------- | ------------------------------------------------------------- |
 * | 2xx                                         | `delivered`                                                   |
 * | 410 Gone                                    | `gone`: the receiver is disabled, the message dropped         |
 * | 429, 503 with `Retry-After` (s or a date)   | `retry` after it (at most MAX_RETRY_AFTER_MS)                 |
 * | 408, 429, 5xx, a timeout, no connection     | `retry` after the backoff: 1 s, 2 s, 4 s … capped at 5 min    |
 * | any other 4xx (and 3xx left after redirects) | `refused`: the receiver will not take it (dead-lettered)      |
 * | the outbound guard refused the address/URL  | `refused`                                                     |
 *
 * A `retry` whose next attempt would come after the message's maximum age (`maxAgeMs` from
 * `firstAt`, 24 h by default, the Standard Webhooks schedule) is `expired` instead.
 * The jitter is the consumer edge's (it spreads every retry over a quarter more).
 */

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 5 * 60_000;
export const MAX_RETRY_AFTER_MS = 60 * 60_000;
export const DEFAULT_MAX_AGE_MS = 24 * 3600_000;

export type AttemptResult =
  | { kind: 'answer'; status: number; retryAfter: string | undefined }
  /** `transient`: a timeout, a connection or DNS failure; otherwise the guard refused it. */
  | { kind: 'failure'; transient: boolean; reason: string };

export type DeliveryVerdict =
  | { kind: 'delivered' }
  | { kind: 'gone'; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'retry'; delayMs: number; reason: string }
  | { kind: 'expired'; reason: string };

export interface AttemptContext {
  /** 1 for the first attempt. */
  attempt: number;
  /** When the message was made (ms). */
  firstAt: number;
  now: number;
  maxAgeMs: number;
  /** The first backoff delay (tests shorten it). */
  backoffBaseMs?: number;
}

/** The exponential backoff before attempt `attempt + 1`. */
export const backoffMs = (attempt: number, baseMs: number = BACKOFF_BASE_MS): number => Math.min(BACKOFF_CAP_MS, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));

/** `Retry-After` in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}

export function judgeAttempt(result: AttemptResult, ctx: AttemptContext): DeliveryVerdict {
  let retryIn: number;
  let reason: string;
  if (result.kind === 'failure') {
    if (!result.transient) return { kind: 'refused', reason: result.reason };
    retryIn = backoffMs(ctx.attempt, ctx.backoffBaseMs);
    reason = result.reason;
  } else {
    const { status } = result;
    if (status >= 200 && status < 300) return { kind: 'delivered' };
    if (status === 410) return { kind: 'gone', reason: 'gone (410)' };
    const transient = status === 408 || status === 429 || status >= 500;
    if (!transient) return { kind: 'refused', reason: `refused (${status})` };
    const after = status === 429 || status === 503 ? retryAfterMs(result.retryAfter, ctx.now) : undefined;
    retryIn = after ?? backoffMs(ctx.attempt, ctx.backoffBaseMs);
    reason = `failed (${status})`;
  }
  if (ctx.now + retryIn - ctx.firstAt > ctx.maxAgeMs) return { kind: 'expired', reason: `${reason}; older than ${Math.round(ctx.maxAgeMs / 3600_000)} h, not retried` };
  return { kind: 'retry', delayMs: retryIn, reason };
}

/**
 * What a channel format hands the dispatcher (issue #31): the request to make, fully built, so the
 * dispatcher only sends it through the outbound client (SSRF guard, timeout, retries) and never
 * looks inside. Formats are pure: no clock (`now` comes in), no I/O, no randomness, so the same
 * input gives byte-for-byte the same request, and a retry of one delivery repeats it (apart from
 * the Standard Webhooks timestamp and signature, which are made per attempt from `now`).
 *
 * Secrets stay out of bodies and logs: they travel only in an `authorization` header or as a
 * signature, except where the service puts them elsewhere by design (the PagerDuty routing key
 * in the body, the Slack and Teams webhook URL itself). The dispatcher must log `url` only through
 * its own redaction.
 */

export interface OutboundRequest {
  url: string;
  method: 'POST';
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** What every format may need besides the message and the receiver's settings. */
export interface FormatContext {
  /** The console's base URL, e.g. `https://ops.example.com`; links go to `/problems/{id}` and `/cmdb/ci/{id}` under it. */
  consoleUrl: string;
  /** Epoch milliseconds of this attempt (the signature's timestamp, Alertmanager's endsAt). */
  now: number;
}

export const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * A URL's user-info (`https://user:pass@host/…`) moved into a Basic `authorization` header:
 * fetch refuses URLs with credentials, and the header is the one place secrets may travel.
 * Percent-escapes in user-info are decoded first, as a browser would.
 */
export function splitCredentials(rawUrl: string): { url: string; authorization: string | null } {
  const url = new URL(rawUrl);
  if (url.username === '' && url.password === '') return { url: url.href, authorization: null };
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return { url: url.href, authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` };
}

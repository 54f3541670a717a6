/**
 * The one way the platform calls out to a URL someone configured (issue #31: webhook, Slack,
 * Teams, PagerDuty and Alertmanager receivers), with the SSRF guard of address-policy.ts:
 *
 * - only http: and https:;
 * - the name is resolved here (every address), and the request is refused when ANY address is
 *   refused by a rule that OPS_NOTIFY_ALLOW_NETWORKS does not lift;
 * - the connection goes to the addresses checked, and only to them: http.request's `lookup`
 *   answers with them, so a DNS answer that changes between the check and the connect (DNS
 *   rebinding) is never asked for; the Host header and TLS SNI stay the name, so certificates are
 *   verified against it;
 * - redirects (301, 302, 303, 307, 308) are followed here, at most `maxRedirects` times, each hop
 *   checked again the same way; a 303, and a 301/302 of a POST, go on as GET without the body;
 *   credentials (URL user info, Authorization, Cookie) do not follow to another origin;
 * - one timeout for the whole exchange (DNS, connects, redirects, body), 15 s by default;
 * - the body read is bounded (64 KiB by default; the rest is not read, `bodyTruncated` says so).
 *
 * Failures are catalogue errors of the `notify.` codes: a refused address, a bad URL or a redirect
 * loop are `bad-request` (the receiver's configuration is wrong: saving it is a 400 naming the
 * rule), a timeout, a connection or a DNS failure are `unavailable` (transient: retry). An HTTP
 * error status is not a failure here: it is returned, for the caller to judge. Messages name the
 * scheme, host and port only, never the path, query or user info, which may hold a secret (a
 * Slack webhook's path, a Teams workflow's `sig`, basic-auth credentials).
 */
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type AppError, fail, isAppError } from '../../../schemas/errors.js';
import { type AddressPolicy, checkAddress } from './address-policy.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 3;
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export interface OutboundRequest {
  readonly url: string;
  /** GET without a body, POST with one, when not given. */
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

/** Every address of a name (dns.lookup with `all`); injectable for tests. */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

export interface SendOptions {
  /** What may be reached: createAddressPolicy(config.notifyAllowNetworks). */
  readonly policy: AddressPolicy;
  /** For the whole exchange, redirects and body included. */
  readonly timeoutMs?: number;
  readonly maxRedirects?: number;
  readonly maxBodyBytes?: number;
  /** The caller's own cancellation (shutdown): its reason is thrown as it is. */
  readonly signal?: AbortSignal;
  readonly resolveHost?: ResolveHost;
  /** Connection pools to reuse; by default each request has a connection of its own. */
  readonly agents?: { readonly http?: http.Agent; readonly https?: https.Agent };
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** At most maxBodyBytes of the body. */
  readonly body: Buffer;
  readonly bodyTruncated: boolean;
  /** From the call to the end of the body read, redirects and DNS included. */
  readonly latencyMs: number;
  /** Redirects followed. */
  readonly redirects: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'transfer-encoding'];
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const defaultResolveHost: ResolveHost = (hostname) => dnsLookup(hostname, { all: true });

/** Sends one request under the SSRF guard; resolves with any HTTP status, throws AppErrors. */
export async function send(request: OutboundRequest, options: SendOptions): Promise<OutboundResponse> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const resolveHost = options.resolveHost ?? defaultResolveHost;
  const firstMethod = (request.method ?? (request.body === undefined ? 'GET' : 'POST')).toUpperCase();

  let url = target(request.url, 'receiver URL');
  let hop: Hop = { method: firstMethod, headers: { ...request.headers }, body: request.body, auth: credentialsOf(url) };
  let from: string | undefined;
  for (let redirects = 0; ; redirects += 1) {
    try {
      const addresses = await resolveAndCheck(url, options.policy, resolveHost, signal, { saving: false, from });
      const response = await exchange(url, hop, addresses, signal, options.agents);
      const status = response.statusCode ?? 0;
      const location = REDIRECT_STATUSES.has(status) ? response.headers.location : undefined;
      if (location === undefined) {
        const { body, truncated } = await readBounded(response, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
        return { status, headers: response.headers, body, bodyTruncated: truncated, latencyMs: Math.round(performance.now() - started), redirects };
      }
      response.destroy();
      if (redirects >= maxRedirects) throw fail('notify.too_many_redirects', { method: firstMethod, origin: originOf(request.url), limit: maxRedirects });
      const next = target(location, `Location of the redirect from ${url.origin}`, url);
      hop = redirected(hop, status, url, next);
      from = url.origin;
      url = next;
    } catch (error) {
      if (isAppError(error)) throw error;
      if (timeout.aborted) throw fail('notify.timeout', { method: hop.method, origin: url.origin, ms: timeoutMs });
      if (options.signal?.aborted) throw options.signal.reason;
      throw fail('notify.connection_failed', { method: hop.method, origin: url.origin, reason: reasonOf(error) });
    }
  }
}

/**
 * The check made when a receiver is saved: the scheme, the name's resolution and every address
 * against the rules. Undefined when the URL may be used, else the catalogue error (a 400 naming
 * the rule; a 503 when DNS cannot answer now).
 */
export async function checkUrl(url: string, policy: AddressPolicy, options: { resolveHost?: ResolveHost; timeoutMs?: number } = {}): Promise<AppError | undefined> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    await resolveAndCheck(target(url, 'receiver URL'), policy, options.resolveHost ?? defaultResolveHost, signal, { saving: true });
    return undefined;
  } catch (error) {
    if (isAppError(error)) return error;
    const host = hostOf(url);
    if (signal.aborted) return fail('notify.host_unresolved', { host, reason: `no answer within ${timeoutMs} ms`, hop: '' });
    return fail('notify.host_unresolved', { host, reason: reasonOf(error), hop: '' });
  }
}

/**
 * Where a send that is not HTTP (SMTP) may connect: the host's addresses, each allowed by the
 * policy, resolved now as for a request (a name that does not resolve is `host_unresolved`, tried
 * again later). The caller connects to these addresses only, not to the name again.
 */
export async function resolveForSend(
  host: string,
  policy: AddressPolicy,
  options: { resolveHost?: ResolveHost; timeoutMs?: number; what?: string } = {},
): Promise<readonly LookupAddress[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const url = target(`http://${isIP(host) === 6 ? `[${host}]` : host}/`, options.what ?? 'host');
  try {
    return await resolveAndCheck(url, policy, options.resolveHost ?? defaultResolveHost, signal, { saving: false });
  } catch (error) {
    if (isAppError(error)) throw error;
    throw fail('notify.host_unresolved', { host, reason: signal.aborted ? `no answer within ${timeoutMs} ms` : reasonOf(error), hop: '' });
  }
}

interface Hop {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** `user:password` for basic authentication, from the URL. */
  auth: string | undefined;
}

/** A URL the client may request: absolute, http: or https:. */
function target(text: string, what: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw fail('notify.url_invalid', { what });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail('notify.scheme_refused', { what, scheme: url.protocol });
  return url;
}

/** Resolves the URL's host (an IP literal stands for itself) and checks every address. */
async function resolveAndCheck(
  url: URL,
  policy: AddressPolicy,
  resolveHost: ResolveHost,
  signal: AbortSignal,
  how: { saving: boolean; from?: string | undefined },
): Promise<readonly LookupAddress[]> {
  const host = bare(url.hostname);
  const hop = how.from === undefined ? '' : `, reached by a redirect from ${how.from}`;
  let addresses: readonly LookupAddress[];
  const literal = isIP(host);
  if (literal !== 0) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await untilAborted(resolveHost(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (how.saving && (code === 'ENOTFOUND' || code === 'ENODATA')) throw fail('notify.host_not_found', { host, reason: code });
      throw fail('notify.host_unresolved', { host, reason: reasonOf(error), hop });
    }
    if (addresses.length === 0) {
      if (how.saving) throw fail('notify.host_not_found', { host, reason: 'no address' });
      throw fail('notify.host_unresolved', { host, reason: 'no address', hop });
    }
  }
  for (const { address } of addresses) {
    const verdict = checkAddress(address, policy);
    if (!verdict.allowed) throw fail('notify.address_refused', { address: verdict.address, host, rule: verdict.rule, network: verdict.network, hop });
  }
  return addresses;
}

/** One request and its response head, connected only to `addresses`. */
function exchange(url: URL, hop: Hop, addresses: readonly LookupAddress[], signal: AbortSignal, agents: SendOptions['agents']): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  const headers: Record<string, string> = { ...hop.headers };
  if (hop.body !== undefined && !hasHeader(headers, 'content-length')) headers['content-length'] = String(Buffer.byteLength(hop.body));
  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname: bare(url.hostname),
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: hop.method,
    headers,
    auth: hop.auth,
    signal,
    lookup: pinnedLookup(addresses),
    agent: (secure ? agents?.https : agents?.http) ?? false,
  };
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(options, resolve);
    request.on('error', reject);
    request.end(hop.body);
  });
}

/** A `lookup` for net.connect that answers with the checked addresses and asks no DNS. */
function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
    const first = usable[0];
    if (!first) callback(Object.assign(new Error(`no checked IPv${wanted} address`), { code: 'ENOTFOUND' }), '');
    else if (options.all) callback(null, [...usable]);
    else callback(null, first.address, first.family);
  };
}

/** The request as the next hop makes it. */
function redirected(hop: Hop, status: number, from: URL, to: URL): Hop {
  let { method, headers, body } = hop;
  if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET';
    body = undefined;
    headers = without(headers, BODY_HEADERS);
  }
  const sameOrigin = from.origin === to.origin;
  if (!sameOrigin) headers = without(headers, CREDENTIAL_HEADERS);
  return { method, headers, body, auth: credentialsOf(to) ?? (sameOrigin ? hop.auth : undefined) };
}

async function readBounded(response: IncomingMessage, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    const room = limit - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = limit;
      truncated = true;
      break; // destroys the response: the rest is never read
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** Settles as `promise` does, or rejects with the signal's reason once it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function credentialsOf(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return `${decode(url.username)}:${decode(url.password)}`;
}

const bare = (hostname: string): string => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);
const hasHeader = (headers: Record<string, string>, name: string): boolean => Object.keys(headers).some((h) => h.toLowerCase() === name);
const without = (headers: Record<string, string>, names: readonly string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([h]) => !names.includes(h.toLowerCase())));

/** Scheme, host and port of a URL that parsed before; never its user info, path or query. */
function originOf(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    return 'the receiver URL';
  }
}

function hostOf(text: string): string {
  try {
    return bare(new URL(text).hostname);
  } catch {
    return 'the receiver host';
  }
}

/** An error code (ECONNREFUSED, CERT_HAS_EXPIRED) rather than a message that might quote input. */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && code !== '') return code;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/[a-z][a-z0-9+.-]*:\/\/\S*/gi, '<url>').slice(0, 200);
}

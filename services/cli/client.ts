/**
 * The platform's API over fetch (the admin API unless a request names another prefix): one
 * request in, a value out, either the parsed JSON answer or a failure (the RFC 9457 problem the
 * API answered, or why no answer came). Never throws, and never puts the token into anything it
 * returns.
 */
import type { Problem } from '../../schemas/problem.schema.js';
import { printable } from './table.js';

/** Same as services/api/api-deps.ts ADMIN_PREFIX; not imported, to keep the server out of the CLI. */
export const ADMIN_PREFIX = '/api/admin/v1';
const TIMEOUT_MS = 30_000;

/** A problem as any server may send it: the platform's carry a `code`, a proxy's may not. */
export type ReceivedProblem = Omit<Problem, 'code'> & { code?: string };

/** One request of a command: what `prepare` builds and the client sends. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the prefix, e.g. `/users/3`. */
  path: string;
  /** The API's path prefix, e.g. `/api/public/sm/v1`; the admin API's when absent. */
  prefix?: string;
  body?: unknown;
  /** A body sent as it is (an icon's PNG) instead of JSON `body`. */
  raw?: { contentType: string; bytes: Uint8Array };
}

export type Failure = { kind: 'problem'; problem: ReceivedProblem } | { kind: 'network'; message: string };
export type ApiResult = { ok: true; status: number; data: unknown } | { ok: false; failure: Failure };
/** An answer that does not end by itself (text/event-stream), once its head came. */
export type Opened = { ok: true; response: Response } | { ok: false; failure: Failure };

export interface ClientConfig {
  baseUrl: string;
  token: string;
}

export interface Client {
  send(request: ApiRequest): Promise<ApiResult>;
  /**
   * Opens a text/event-stream answer: the response once its head came (the timeout covers only
   * the head), or a failure. Aborting `signal` ends it, reading its body included.
   */
  open(request: ApiRequest, signal: AbortSignal): Promise<Opened>;
}

/** Why a base URL cannot be used, or undefined when it can. */
export function baseUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an http:// or https:// URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (parsed.username || parsed.password) return 'must not contain credentials (the token comes from OPS_TOKEN)';
  if (parsed.search || parsed.hash) return 'must not have a query or fragment';
  return undefined;
}

/** The characters the API accepts in a bearer token (services/api/auth.ts). */
export const isTokenShaped = (token: string): boolean => /^[A-Za-z0-9._~+/=-]+$/.test(token);

export const endpoint = (baseUrl: string, path: string, prefix = ADMIN_PREFIX): string => `${baseUrl.replace(/\/+$/, '')}${prefix}${path}`;

export function createClient(config: ClientConfig, fetchFn: typeof fetch = fetch): Client {
  const headersOf = (request: ApiRequest, accept: string): Record<string, string> => ({
    accept,
    authorization: `Bearer ${config.token}`,
    'user-agent': 'ops-cli',
    ...(request.raw ? { 'content-type': request.raw.contentType } : request.body !== undefined ? { 'content-type': 'application/json' } : {}),
  });
  const bodyOf = (request: ApiRequest): { body?: string | Uint8Array } =>
    request.raw ? { body: request.raw.bytes } : request.body !== undefined ? { body: JSON.stringify(request.body) } : {};
  return {
    async send(request) {
      const url = endpoint(config.baseUrl, request.path, request.prefix);
      const headers = headersOf(request, 'application/json, application/problem+json');
      let response: Response;
      try {
        response = await fetchFn(url, {
          method: request.method,
          headers,
          ...bodyOf(request),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, failure: { kind: 'network', message: `cannot reach ${url}: ${reason(error)}` } };
      }
      return readResponse(response);
    },
    async open(request, signal) {
      const url = endpoint(config.baseUrl, request.path, request.prefix);
      const head = new AbortController();
      const timer = setTimeout(() => head.abort(new DOMException('no head in time', 'TimeoutError')), TIMEOUT_MS);
      let response: Response;
      try {
        response = await fetchFn(url, {
          method: request.method,
          headers: headersOf(request, 'text/event-stream, application/problem+json'),
          ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
          signal: AbortSignal.any([signal, head.signal]),
        });
      } catch (error) {
        return { ok: false, failure: { kind: 'network', message: `cannot reach ${url}: ${reason(error)}` } };
      } finally {
        clearTimeout(timer);
      }
      if (!response.ok) {
        const read = await readResponse(response);
        return read.ok ? { ok: false, failure: { kind: 'network', message: `unexpected answer ${response.status}` } } : read;
      }
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        await response.body?.cancel();
        return { ok: false, failure: { kind: 'network', message: `the answer (${response.status}) is not an event stream; is the URL the platform's?` } };
      }
      return { ok: true, response };
    },
  };
}

function reason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A fetch Response as a result: JSON on 2xx (nothing on 204), a problem otherwise. */
export async function readResponse(response: Response): Promise<ApiResult> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return { ok: false, failure: { kind: 'network', message: `the answer broke off: ${reason(error)}` } };
  }
  let body: unknown;
  let parsed = text.length > 0;
  if (parsed) {
    try {
      body = JSON.parse(text);
    } catch {
      parsed = false;
    }
  }
  if (response.ok) {
    if (text.length > 0 && !parsed) return { ok: false, failure: { kind: 'network', message: `the answer (${response.status}) is not JSON; is the URL the platform's?` } };
    return { ok: true, status: response.status, data: body };
  }
  if (parsed && isProblem(body)) return { ok: false, failure: { kind: 'problem', problem: body } };
  const detail = text.trim().slice(0, 200);
  return { ok: false, failure: { kind: 'problem', problem: { type: 'about:blank', title: response.statusText || 'Error', status: response.status, detail } } };
}

function isProblem(body: unknown): body is ReceivedProblem {
  return typeof body === 'object' && body !== null && 'status' in body && typeof body.status === 'number' && 'title' in body && typeof body.title === 'string';
}

/** The stderr text for a failure: `error: <status> <title>: <detail>` and one line per field error. */
export function formatFailure(failure: Failure): string {
  if (failure.kind === 'network') return `error: ${printable(failure.message)}\n`;
  const p = failure.problem;
  const detail = typeof p.detail === 'string' && p.detail.length > 0 ? `: ${printable(p.detail)}` : '';
  const code = typeof p.code === 'string' && p.code.length > 0 ? ` [${printable(p.code)}]` : '';
  const lines = [`error: ${p.status} ${printable(p.title)}${detail}${code}`];
  for (const e of Array.isArray(p.errors) ? p.errors : []) lines.push(`  ${printable(String(e?.path ?? ''))}: ${printable(String(e?.message ?? ''))}`);
  return `${lines.join('\n')}\n`;
}

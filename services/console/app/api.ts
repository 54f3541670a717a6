/**
 * The console's one way to the platform: the public API through openapi-fetch, typed by
 * api-schema.d.ts (generated from the OpenAPI document). Requests carry the session cookie
 * (same origin) and, when they change something, the session's CSRF proof in `X-CSRF-Token`.
 * A 401 ends the session in the console (back to sign-in).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './api-schema.js';
import { csrfToken, sessionEnded } from './session.js';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const session: Middleware = {
  onRequest({ request }) {
    const proof = csrfToken();
    if (CHANGES.has(request.method) && proof) request.headers.set('X-CSRF-Token', proof);
    return request;
  },
  onResponse({ response, request }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/api/console/')) sessionEnded();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(session);

/** An RFC 9457 problem as the API answers it. */
export interface ApiProblem {
  status: number;
  code?: string;
  title?: string;
  detail?: string;
  errors?: Array<{ path: string; message: string }>;
}

/** The problem of a failed call, or a generic one when the body was not problem+json. */
export function problemOf(error: unknown, status: number): ApiProblem {
  if (error && typeof error === 'object' && 'status' in error) return error as ApiProblem;
  return { status, title: 'Request failed', detail: typeof error === 'string' ? error : `The server answered ${status}` };
}

/** The message to show at a form field: the API's field error whose path is `/field` (or starts with it). */
export function fieldError(problem: ApiProblem | undefined, field: string): string | undefined {
  return problem?.errors?.find((e) => e.path === `/${field}` || e.path.startsWith(`/${field}/`))?.message;
}

/**
 * Helpers of the console tests: signing in through the session endpoint and calling the API with
 * the session cookie, as the console's browser code does (services/console/app/session.ts, api.ts).
 */
import type { Test } from 'tap';
import type { Answer } from '../../support/http.js';
import type { TestPlatform } from '../../support/platform.js';

export const SESSION = '/api/console/v1/session';
export const CIS = '/api/public/sm/v2/rsm/config-items';

/** The session secret a Set-Cookie header sets, or undefined. */
export function cookieSecret(answer: Answer): string | undefined {
  return /^ops_session=([^;]*);/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
}

export interface SignedIn {
  secret: string;
  csrf: string;
  answer: Answer;
}

/** Signs in with `token`; fails the test's expectations loudly when that does not give a session. */
export async function signIn(p: TestPlatform, token: string, headers: Record<string, string> = {}): Promise<SignedIn> {
  const answer = await p.api('POST', SESSION, { token: null, json: { token }, headers });
  const secret = cookieSecret(answer);
  if (answer.status !== 201 || !secret) throw new Error(`sign-in answered ${answer.status}: ${answer.text}`);
  return { secret, csrf: answer.body.csrfToken, answer };
}

/** A request with the session cookie and no Authorization header; `csrf` goes into X-CSRF-Token. */
export function withCookie(
  p: TestPlatform,
  secret: string,
  method: string,
  path: string,
  options: { json?: unknown; csrf?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { cookie: `theme=dark; ops_session=${secret}`, ...options.headers };
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  return p.api(method, path, { token: null, headers, ...(options.json === undefined ? {} : { json: options.json }) });
}

/** A user with a personal token, as the admin makes them. */
export async function userWithToken(
  p: TestPlatform,
  name: string,
  options: { roles?: string[]; workGroupIds?: number[]; expiresAt?: string } = {},
): Promise<{ id: number; token: string; tokenId: number }> {
  const user = await p.api('POST', '/api/admin/v1/users', { json: { name, roles: options.roles ?? [], workGroupIds: options.workGroupIds ?? [] } });
  if (user.status !== 201) throw new Error(`user ${name}: ${user.status} ${user.text}`);
  const issued = await p.api('POST', `/api/admin/v1/users/${user.body.id}/tokens`, { json: { name: 'browser', ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}) } });
  if (issued.status !== 201) throw new Error(`token of ${name}: ${issued.status} ${issued.text}`);
  return { id: user.body.id, token: issued.body.token, tokenId: issued.body.id };
}

/** The answer is the problem `code` with `status` (support/http.ts checks the code against the catalogue). */
export function refused(t: Test, answer: Answer, status: number, code: string, what = code): void {
  t.equal(answer.status, status, `${what}: status ${status}`);
  t.equal(answer.body?.code, code, `${what}: code ${code}`);
}

/**
 * `/api/console/v1/session`: the console signs in by exchanging a personal token for a session
 * cookie (POST), reads its session at load (GET) and signs out (DELETE). The token is read from
 * the body once and never kept by the console; the answer carries the user, their platform rights
 * and the CSRF proof the console sends back with every change. Every other route takes the cookie
 * through auth.ts; this endpoint adds nothing they could not do with the token itself.
 */
import Type from 'typebox';
import { ConsoleSession, consoleSessionExample, SessionCreate, sessionCreateExample } from '../../../schemas/console-session.schema.js';
import type { StoredSession } from '../../runtime/adapters/sessions/session-store.port.js';
import { isAppError } from '../../../schemas/errors.js';
import { defineRoute, json, type Request, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { type Principal, principal } from '../auth.js';
import { clearedCookie, cookieIsSecure, SESSION_COOKIE, sessionCookie } from '../sessions.js';

export const SESSION_PATH = '/api/console/v1/session';

/** The answer holds the CSRF proof: no cache keeps it. */
const NO_STORE = { 'cache-control': 'no-store' };

const SECURE_WHEN = 'with `; Secure` when OPS_COOKIE_SECURE says so (by default when the request came over HTTPS, as X-Forwarded-Proto tells)';
const setCookie = (value: string) => ({ 'Set-Cookie': { description: `\`${value}\`, ${SECURE_WHEN}`, schema: Type.String() } });

const sessionView = (caller: Principal, session: StoredSession) => ({
  user: { id: caller.user.id, name: caller.user.name },
  rights: [...caller.rights].sort(),
  csrfToken: session.csrfToken,
  idleExpiresAt: new Date(session.idleExpiresAt).toISOString(),
  expiresAt: new Date(session.expiresAt).toISOString(),
});

export function sessionRoutes(deps: ApiDeps): Route[] {
  const { sessions } = deps;
  const secure = (request: Request): boolean => cookieIsSecure(sessions.settings.cookieSecure, request.headers);
  /** The caller a token stands for; a token issued through another replica a moment ago is looked for once more after catching up. */
  const callerOf = async (token: string): Promise<Principal> => {
    try {
      return deps.auth.principalOf(token);
    } catch (error) {
      if (!isAppError(error) || error.kind !== 'unauthorized') throw error;
      await deps.controlPlane.catchUp();
      return deps.auth.principalOf(token);
    }
  };
  const base = { tags: ['console'] };
  const own = { ...base, security: 'session' as const, authenticate: deps.auth.authenticateSession };
  return [
    defineRoute({
      ...base,
      method: 'POST',
      path: SESSION_PATH,
      name: 'console.createSession',
      summary: 'Sign in to the console: exchange a personal token for a session cookie',
      schema: {
        body: SessionCreate,
        bodyExample: sessionCreateExample,
        responses: {
          201: {
            description: 'Signed in; the session cookie is set',
            schema: ConsoleSession,
            example: consoleSessionExample,
            headers: setCookie(`${SESSION_COOKIE}=<session secret>; HttpOnly; SameSite=Strict; Path=/`),
          },
          400: { description: 'Invalid request (problem+json, with the offending fields)' },
          401: { description: 'The token is unknown, revoked or expired, or its user is disabled' },
          415: { description: 'Unsupported content type' },
        },
      },
      handler: async (req) => {
        const caller = await callerOf(req.body.token);
        const { secret, session } = await sessions.open({ userId: caller.user.id, tokenId: caller.token.id, tokenExpiresAt: caller.token.expiresAt });
        return json(201, sessionView(caller, session), { ...NO_STORE, 'set-cookie': sessionCookie(secret, secure(req)) });
      },
    }),
    defineRoute({
      ...own,
      method: 'GET',
      path: SESSION_PATH,
      name: 'console.getSession',
      summary: 'The session the cookie stands for: its user, rights, CSRF proof and deadlines',
      schema: {
        responses: {
          200: { description: 'The session', schema: ConsoleSession, example: consoleSessionExample },
          401: { description: 'No session cookie, or its session ended (signed out, unused too long, past its end), or its token or user no longer valid' },
        },
      },
      handler: (req) => {
        const caller = principal(req);
        return json(200, sessionView(caller, caller.session!.session), NO_STORE);
      },
    }),
    defineRoute({
      ...own,
      method: 'DELETE',
      path: SESSION_PATH,
      name: 'console.deleteSession',
      summary: 'Sign out: end the session on every replica and clear the cookie',
      schema: {
        responses: {
          204: { description: 'Signed out; the cookie is cleared', headers: setCookie(`${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`) },
          401: { description: 'No session cookie, or its session ended' },
          403: { description: 'The X-CSRF-Token header is missing or does not match the session' },
        },
      },
      handler: async (req) => {
        await sessions.end(principal(req).session!.id);
        return { status: 204, headers: { ...NO_STORE, 'set-cookie': clearedCookie(secure(req)) } };
      },
    }),
  ];
}

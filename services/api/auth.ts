/**
 * Authentication (spec 5, DESIGN §4, §11): every public and admin route runs it on the headers
 * before the body is read. A caller proves who it is with a personal token in
 * `Authorization: Bearer`, or, when it sends no Authorization header, with the console's session
 * cookie (sessions.ts); a Bearer header always wins.
 *
 * The presented token secret is hashed and looked up by its digest, so no comparison ever runs
 * over the secret itself; the digest match is confirmed in constant time. The Bearer check is
 * synchronous (no promise per request on the hot path); the cookie's needs the session store.
 * A session stands for the token it was made from: the token's and its user's state are checked
 * on every request as for the Bearer header. With the cookie, a change (POST, PUT, PATCH,
 * DELETE) also needs the session's CSRF proof in `X-CSRF-Token`.
 */

import type { IdentitySlice } from '../control-plane/identity/identity.slice.js';
import type { TokenRecord, UserRecord } from '../control-plane/identity/identity.types.js';
import { sha256Hex } from '../control-plane/identity/tokens.js';
import type { Subject } from '../control-plane/rights/ci-rights.js';
import type { PlatformModel } from '../control-plane/model.js';
import { type AppError, fail } from '../../schemas/errors.js';
import type { Authenticate, Method, Request } from '../runtime/http/route.js';
import { csrfMatches, type FoundSession, type Sessions, sessionSecretOf } from './sessions.js';

export interface Principal {
  user: UserRecord;
  token: TokenRecord;
  rights: ReadonlySet<string>;
  /** For CI rights (ci-rights.ts). */
  subject: Subject;
  /** The console session the caller came with (absent with a Bearer header). */
  session?: FoundSession;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)[ ]*$/i;
/** The methods that change something: with the session cookie they need the CSRF proof. */
const CHANGES: ReadonlySet<Method> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Synchronous with a Bearer header, a promise with the session cookie. */
export type AuthenticatePrincipal = Authenticate<Principal>;

/** A request whose route authenticates its caller as a Principal (for helpers shared by handlers). */
export type PrincipalRequest = Request<unknown, Readonly<Record<string, unknown>>, Record<string, string>, Principal>;

export interface Authenticator {
  /** The caller's Principal (which the exchange keeps in `request.auth`), or throws (rejects) 401; 403 for a change without the CSRF proof. */
  authenticate: AuthenticatePrincipal;
  /** Authenticates, then requires a platform right, or one of `alternatives` (403 without: rightMissing). */
  requireRight(right: string, alternatives?: readonly string[]): AuthenticatePrincipal;
  /** As `authenticate`, by the session cookie only (the session endpoint). */
  authenticateSession(request: Request): Promise<Principal>;
  /** The Principal a personal token stands for (signing in), or 401 with the reason. */
  principalOf(secret: string): Principal;
}

/** Runs `next` on what `first` gave once it is done: synchronously when `first` was (the Bearer path). */
export function afterAuthentication<T, U>(first: T | Promise<T>, next: (value: T) => U): U | Promise<U> {
  return first instanceof Promise ? first.then(next) : next(first);
}

export function createAuthenticator(deps: { model: PlatformModel; now: () => number; noteUse: (tokenId: number) => void; sessions: Sessions }): Authenticator {
  /** The caller a valid token stands for; 401 when it is revoked, expired, or its user disabled. */
  const principalOfToken = (token: TokenRecord): Principal => {
    if (token.revokedAt !== null) throw fail('auth.token_revoked');
    if (token.expiresAt !== null && Date.parse(token.expiresAt) <= deps.now()) throw fail('auth.token_expired');
    const identity = deps.model.slices.identity;
    const user = identity.users.get(token.userId);
    if (!user || user.disabled) throw fail('auth.user_disabled');
    const rights = identity.rightsOf(user);
    return { user, token, rights, subject: { workGroupIds: identity.workGroupsOf(user.id), admin: rights.has('base-system.admin') } };
  };

  const principalOf = (secret: string): Principal => {
    // Found by its digest, the token's own digest is this one: comparing them again in constant
    // time would guard nothing (a caller cannot choose a digest's bytes) and cost two Buffers.
    const token = deps.model.slices.identity.tokenByHash(sha256Hex(secret));
    if (!token) throw fail('auth.token_unknown');
    return principalOfToken(token);
  };

  const bySession = async (request: Request, secret: string): Promise<Principal> => {
    const found = await deps.sessions.find(secret);
    const token = deps.model.slices.identity.tokens.get(found.session.tokenId);
    // A deleted user's tokens are deleted with it.
    if (!token || token.userId !== found.session.userId) throw fail('auth.user_disabled');
    const caller = principalOfToken(token);
    if (CHANGES.has(request.method)) {
      const proof = request.headers['x-csrf-token'];
      if (!proof) throw fail('session.csrf_missing');
      if (!csrfMatches(proof, found.session.csrfToken)) throw fail('session.csrf_mismatch');
    }
    const session = await deps.sessions.use(found);
    deps.noteUse(token.id);
    return { ...caller, session: { id: found.id, session } };
  };

  const authenticate: AuthenticatePrincipal = (request) => {
    const header = request.headers['authorization'];
    if (!header) {
      const secret = sessionSecretOf(request.headers['cookie']);
      if (secret !== undefined) return bySession(request, secret);
      throw fail('auth.header_missing');
    }
    const match = BEARER.exec(header);
    if (!match) throw fail('auth.header_malformed');
    const caller = principalOf(match[1]!);
    deps.noteUse(caller.token.id);
    return caller;
  };

  return {
    authenticate,
    requireRight:
      (right, alternatives = []) =>
      (request) =>
        afterAuthentication(authenticate(request), (caller) => {
          const { rights } = caller;
          if (!rights.has(right) && !alternatives.some((a) => rights.has(a))) throw rightMissing(deps.model.slices.identity, right, alternatives);
          return caller;
        }),
    authenticateSession: async (request) => {
      const secret = sessionSecretOf(request.headers['cookie']);
      if (secret === undefined) throw fail('session.none');
      return bySession(request, secret);
    },
    principalOf,
  };
}

/** The caller of a route that authenticates a Principal (what its `authenticate` returned). */
export const principal = (request: { readonly auth: Principal }): Principal => request.auth;

/**
 * The 403 of a caller without `right` (issue #37): it names the roles that grant it (or one of
 * `alternatives`, such as base-system.admin where that also lets the request through), narrowest
 * first, in the message and as the `right` and `roles` members, so the caller knows what to ask for.
 */
export function rightMissing(identity: IdentitySlice, right: string, alternatives: readonly string[] = []): AppError {
  const roles = identity.rolesGranting([right, ...alternatives]);
  const named = roles.length === 0 ? '(none yet: an administrator must create one)' : roles.length === 1 ? roles[0]! : `${roles.slice(0, -1).join(', ')} or ${roles.at(-1)!}`;
  return fail('auth.right_missing', { right, roles: named }).withMembers({ right, roles });
}

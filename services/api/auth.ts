/**
 * Bearer-token authentication (spec 5, DESIGN §4): every public and admin route runs it on the
 * headers before the body is read. The presented secret is hashed and looked up by its digest,
 * so no comparison ever runs over the secret itself; the digest match is confirmed in constant
 * time.
 */

import type { TokenRecord, UserRecord } from '../control-plane/identity/identity.types.js';
import { sameDigest, sha256Hex } from '../control-plane/identity/tokens.js';
import type { Subject } from '../control-plane/rights/ci-rights.js';
import type { PlatformModel } from '../control-plane/slices.js';
import { fail } from '../runtime/errors.js';
import type { Request } from '../runtime/http/route.js';

export interface Principal {
  user: UserRecord;
  token: TokenRecord;
  rights: ReadonlySet<string>;
  /** For CI rights (ci-rights.ts). */
  subject: Subject;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)[ ]*$/i;

export interface Authenticator {
  /** Sets `request.auth` to the Principal or throws 401. */
  authenticate(request: Request): void;
  /** Authenticates, then requires a platform right (403 without it). */
  requireRight(right: string): (request: Request) => void;
}

export function createAuthenticator(deps: { model: PlatformModel; now: () => number; noteUse: (tokenId: number) => void }): Authenticator {
  const authenticate = (request: Request): void => {
    const header = request.headers['authorization'];
    if (!header) throw fail('auth.header_missing');
    const match = BEARER.exec(header);
    if (!match) throw fail('auth.header_malformed');
    const digest = sha256Hex(match[1]!);
    const identity = deps.model.slices.identity;
    const token = identity.tokenByHash(digest);
    if (!token || !sameDigest(token.sha256, digest)) throw fail('auth.token_unknown');
    if (token.revokedAt !== null) throw fail('auth.token_revoked');
    if (token.expiresAt !== null && Date.parse(token.expiresAt) <= deps.now()) throw fail('auth.token_expired');
    const user = identity.users.get(token.userId);
    if (!user || user.disabled) throw fail('auth.user_disabled');
    const rights = identity.rightsOf(user);
    deps.noteUse(token.id);
    request.auth = { user, token, rights, subject: { workGroupIds: identity.workGroupsOf(user.id), admin: rights.has('base-system.admin') } } satisfies Principal;
  };
  return {
    authenticate,
    requireRight: (right) => (request) => {
      authenticate(request);
      if (!principal(request).rights.has(right)) throw fail('auth.right_missing', { right });
    },
  };
}

export const principal = (request: Request): Principal => request.auth as Principal;

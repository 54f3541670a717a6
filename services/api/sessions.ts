/**
 * The console's sessions (DESIGN §11: "a session endpoint that turns a personal token into a
 * cookie"). Signing in with a personal token makes a session: a random secret, sent once as the
 * HttpOnly cookie `ops_session` and stored only as its SHA-256 (the session store's id), with a
 * CSRF proof the console sends back in `X-CSRF-Token` on every change.
 *
 * A session lasts `idleMs` without use and `maxMs` at most (never past its token's expiry). A use
 * moves the idle deadline, but writes it only when the last move is TOUCH_EVERY_MS old, so reads
 * stay reads; the deadline is therefore honoured to within that minute. Whether a session still
 * lasts is judged here, by the injected clock; the store only keeps it (session-store.port.ts).
 * The session stands for its token: revoking the token, or disabling its user, ends it at once
 * (auth.ts checks both on every request).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../control-plane/identity/tokens.js';
import type { SessionStore, StoredSession } from '../runtime/adapters/sessions/session-store.port.js';
import { engineCall } from '../runtime/engine-call.js';
import { fail } from '../../schemas/errors.js';
import type { Logger } from '../runtime/logger.js';

export const SESSION_COOKIE = 'ops_session';
/** A use writes the idle deadline only when it last moved this long ago. */
export const TOUCH_EVERY_MS = 60_000;
/** How often the store is swept of sessions past being kept (LMDB; Redis expires them itself). */
const SWEEP_EVERY_MS = 3_600_000;
/** 32 random bytes, base64url: what a cookie set here holds. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const ENGINE = 'session store';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
  /** When the cookie is marked Secure; `auto`: when the request came over HTTPS (X-Forwarded-Proto). */
  cookieSecure: 'auto' | 'always' | 'never';
}

/** A session found by its cookie: its id in the store and what the store holds. */
export interface FoundSession {
  id: string;
  session: StoredSession;
}

export interface Sessions {
  readonly settings: SessionSettings;
  /** A new session for the holder of a token; answers the secret for the cookie (never stored). */
  open(holder: { userId: number; tokenId: number; tokenExpiresAt: string | null }): Promise<{ secret: string; session: StoredSession }>;
  /** The session the cookie's secret names, while it lasts; 401 (`session.*`) otherwise. */
  find(secret: string): Promise<FoundSession>;
  /** Notes a use; answers the session with its idle deadline as it now stands (401 when it was ended meanwhile). */
  use(found: FoundSession): Promise<StoredSession>;
  /** Ends the session (sign-out): every replica answers 401 to its cookie from now on. */
  end(id: string): Promise<void>;
  stop(): void;
}

export function createSessions(settings: SessionSettings, deps: { store: SessionStore; now: () => number; logger: Logger }): Sessions {
  const { store, now } = deps;
  const sweep = (): void =>
    void store.sweep().then(
      (removed) => removed > 0 && deps.logger.info({ removed }, 'ended console sessions removed'),
      (err: unknown) => deps.logger.warn({ err }, 'sweeping the console sessions failed'),
    );
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  sweep();
  return {
    settings,

    async open(holder) {
      const at = now();
      const tokenEnd = holder.tokenExpiresAt === null ? Infinity : Date.parse(holder.tokenExpiresAt);
      const expiresAt = Math.min(at + settings.maxMs, tokenEnd);
      const session: StoredSession = {
        userId: holder.userId,
        tokenId: holder.tokenId,
        csrfToken: randomBytes(32).toString('base64url'),
        createdAt: at,
        lastSeenAt: at,
        idleExpiresAt: Math.min(at + settings.idleMs, expiresAt),
        expiresAt,
      };
      const secret = randomBytes(32).toString('base64url');
      await engineCall(ENGINE, () => store.create(sha256Hex(secret), session));
      return { secret, session };
    },

    async find(secret) {
      if (!SECRET.test(secret)) throw fail('session.none');
      const id = sha256Hex(secret);
      const session = await engineCall(ENGINE, () => store.get(id));
      if (!session) throw fail('session.none');
      if (now() >= session.idleExpiresAt) {
        const at = new Date(session.idleExpiresAt).toISOString();
        throw session.idleExpiresAt >= session.expiresAt ? fail('session.expired', { at }) : fail('session.idle_expired', { at, minutes: Math.round(settings.idleMs / 60_000) });
      }
      return { id, session };
    },

    async use({ id, session }) {
      const at = now();
      if (at - session.lastSeenAt < TOUCH_EVERY_MS) return session;
      const idleExpiresAt = Math.min(at + settings.idleMs, session.expiresAt);
      let exists: boolean;
      try {
        exists = await store.touch(id, at, idleExpiresAt);
      } catch (err) {
        // A read is not refused because its session's deadline could not be moved.
        deps.logger.warn({ err }, 'moving a console session’s idle deadline failed');
        return session;
      }
      if (!exists) throw fail('session.none');
      return { ...session, lastSeenAt: at, idleExpiresAt };
    },

    async end(id) {
      await engineCall(ENGINE, () => store.delete(id));
    },

    stop() {
      clearInterval(timer);
    },
  };
}

/** The session secret in a Cookie header, if any (the first `ops_session`). */
export function sessionSecretOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/** True when the header holds exactly the session's CSRF proof (compared in constant time). */
export function csrfMatches(header: string, proof: string): boolean {
  const given = Buffer.from(header);
  const expected = Buffer.from(proof);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether the cookie set in answer to a request with these headers is marked Secure. */
export function cookieIsSecure(setting: SessionSettings['cookieSecure'], headers: Readonly<Record<string, string>>): boolean {
  if (setting !== 'auto') return setting === 'always';
  // uWS here speaks plain HTTP: TLS ends at a proxy, which says so.
  return headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https';
}

const ATTRIBUTES = 'HttpOnly; SameSite=Strict; Path=/';

/** The Set-Cookie value of a new session: a browser-session cookie (the server ends the session). */
export const sessionCookie = (secret: string, secure: boolean): string => `${SESSION_COOKIE}=${secret}; ${ATTRIBUTES}${secure ? '; Secure' : ''}`;

/** The Set-Cookie value that removes the cookie. */
export const clearedCookie = (secure: boolean): string => `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0${secure ? '; Secure' : ''}`;

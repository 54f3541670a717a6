/**
 * The console's session store (DESIGN §11): a session made from a personal token, kept where every
 * API replica reads it (Redis in distributed mode, LMDB embedded), so a sign-in on one replica
 * works on the others and a sign-out ends it on all of them.
 *
 * Sessions are stored under an id the caller derives from the cookie's secret (its SHA-256): the
 * store never holds a secret that would open a session. The store does not judge whether a session
 * is still valid (the session service does, by its own clock); it keeps each one until a day after
 * its idle deadline (`SESSION_KEPT_MS`), so that a late request can still be told why its session
 * ended, and forgets it after that: Redis by the key's expiry, LMDB by `sweep`. Until then, `get`
 * answers it; after then, never, whether or not it has been removed yet.
 */
export interface StoredSession {
  userId: number;
  /** The personal token the session was made from: revoking it ends the session. */
  tokenId: number;
  /** The proof a change made with the cookie must carry (X-CSRF-Token). */
  csrfToken: string;
  /** Milliseconds since the epoch, by the service's clock. */
  createdAt: number;
  /** The last use that moved the idle deadline. */
  lastSeenAt: number;
  /** When the session ends if it is not used again: at most `expiresAt`. */
  idleExpiresAt: number;
  /** When it ends at the latest. */
  expiresAt: number;
}

/** How long a session is kept after its idle deadline. */
export const SESSION_KEPT_MS = 24 * 3_600_000;

/** The moment after which a store forgets `session`. */
export const keptUntil = (session: StoredSession): number => session.idleExpiresAt + SESSION_KEPT_MS;

export interface SessionStore {
  readonly kind: 'lmdb' | 'redis';
  /** Stores a new session under `id`. */
  create(id: string, session: StoredSession): Promise<void>;
  /** The session stored under `id`, until it is forgotten. */
  get(id: string): Promise<StoredSession | undefined>;
  /**
   * Moves the idle deadline of the session under `id` to `idleExpiresAt`, from a use at
   * `lastSeenAt`; never backwards (a replica that saw a later use wins), and never brings back a
   * session that was deleted. False when there is no such session.
   */
  touch(id: string, lastSeenAt: number, idleExpiresAt: number): Promise<boolean>;
  /** Removes the session; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Removes the sessions past being kept; answers how many (Redis: 0, its keys expire by themselves). */
  sweep(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The distributed session store on Redis: one hash per session, `<prefix>session:<id>`, with the
 * fields `u` (user), `t` (token), `c` (CSRF proof), `cr`, `ls`, `ie`, `ex` (created, last seen,
 * idle deadline, end; milliseconds), and a key expiry at the moment the session is forgotten
 * (`keptUntil`), set relative to the service's clock so a test clock is honoured too. `touch` is
 * one script: it moves the idle deadline and the expiry of an existing hash only, and only
 * forwards. Every replica reads the same hash, so a sign-out on one ends the session on all.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger.js';
import { closeRedis, connectRedis, redactRedisUrl } from '../redis-connection.js';
import { keptUntil, SESSION_KEPT_MS, type SessionStore, type StoredSession } from './session-store.port.js';

export interface RedisSessionStoreConfig {
  url: string;
  /** Default `ops:`; sessions live under `<prefix>session:`. */
  keyPrefix?: string;
}

/**
 * KEYS[1]: the session; ARGV: last seen, idle deadline, the key's new time to live (ms), and the
 * idle deadline at or before which a session is forgotten. Returns 1 when the session exists
 * (moved, or already seen later), 0 when it does not.
 */
const TOUCH_LUA = `
local idle = redis.call('HGET', KEYS[1], 'ie')
if not idle or tonumber(idle) <= tonumber(ARGV[4]) then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'ls') or '0') < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'ls', ARGV[1], 'ie', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1
`;

interface WithScripts {
  opsSessionTouch(key: string, lastSeenAt: string, idleExpiresAt: string, ttlMs: string, forgottenUpTo: string): Promise<number>;
}

export async function openRedisSessionStore(config: RedisSessionStoreConfig, deps: { logger: Logger; now: () => number }): Promise<SessionStore> {
  const prefix = `${config.keyPrefix ?? 'ops:'}session:`;
  const logger = deps.logger.child({ sessionStore: 'redis', redis: redactRedisUrl(config.url), keyPrefix: config.keyPrefix ?? 'ops:' });
  const client: Redis = await connectRedis(config.url, { connectionName: 'ops-sessions' }, logger, 'redis session store');
  client.defineCommand('opsSessionTouch', { numberOfKeys: 1, lua: TOUCH_LUA });
  const scripts = client as unknown as WithScripts;
  logger.info('redis session store connected');

  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new Error('the Redis session store is closed');
  };
  /** Time to live of a key holding a session whose idle deadline is `idleExpiresAt` (at least 1 ms). */
  const ttl = (idleExpiresAt: number): number => Math.max(1, idleExpiresAt + SESSION_KEPT_MS - deps.now());

  return {
    kind: 'redis',

    async create(id, s) {
      ensureOpen();
      const key = prefix + id;
      const fields = { u: s.userId, t: s.tokenId, c: s.csrfToken, cr: s.createdAt, ls: s.lastSeenAt, ie: s.idleExpiresAt, ex: s.expiresAt };
      await client.multi().hset(key, fields).pexpire(key, ttl(s.idleExpiresAt)).exec();
    },

    async get(id) {
      ensureOpen();
      const h = await client.hgetall(prefix + id);
      if (h['c'] === undefined) return undefined;
      const session: StoredSession = {
        userId: Number(h['u']),
        tokenId: Number(h['t']),
        csrfToken: h['c'],
        createdAt: Number(h['cr']),
        lastSeenAt: Number(h['ls']),
        idleExpiresAt: Number(h['ie']),
        expiresAt: Number(h['ex']),
      };
      return keptUntil(session) > deps.now() ? session : undefined;
    },

    async touch(id, lastSeenAt, idleExpiresAt) {
      ensureOpen();
      const forgottenUpTo = deps.now() - SESSION_KEPT_MS;
      return (await scripts.opsSessionTouch(prefix + id, String(lastSeenAt), String(idleExpiresAt), String(ttl(idleExpiresAt)), String(forgottenUpTo))) === 1;
    },

    async delete(id) {
      ensureOpen();
      return (await client.del(prefix + id)) === 1;
    },

    async sweep() {
      ensureOpen();
      return 0;
    },

    async ping() {
      ensureOpen();
      await client.ping();
    },

    async close() {
      if (closed) return;
      closed = true;
      await closeRedis(client);
    },
  };
}

/** What the Redis adapters (journal, keyed store) share: how they connect and how they log a URL. */
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../logger.js';

/** The URL as it may be logged: never with its password. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '[unparseable redis url]';
  }
}

/** A connected client; `what` names it in the warnings about its connection. */
export async function connectRedis(url: string, options: RedisOptions, logger: Logger, what: string): Promise<Redis> {
  const conn = new Redis(url, { lazyConnect: true, ...options });
  // Without a listener ioredis reports connection errors on stderr; they are expected while
  // Redis restarts, and the reconnect logic handles them.
  conn.on('error', (err: Error) => logger.warn({ err: { message: err.message } }, `${what} connection error`));
  try {
    await conn.connect();
  } catch (error) {
    conn.disconnect();
    throw error;
  }
  return conn;
}

/** Ends the connection after its pending replies, or at once when that fails (the server is gone). */
export async function closeRedis(conn: Redis): Promise<void> {
  try {
    await conn.quit();
  } catch {
    conn.disconnect();
  }
}

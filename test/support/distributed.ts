/**
 * The servers of the distributed mode for a test: nats-server, redis-server and the test-only
 * ClickHouse HTTP endpoint, and the environment that points the platform at them. Each call gets
 * its own Redis key prefix and ClickHouse database, so tests sharing servers do not meet.
 */
import { randomBytes } from 'node:crypto';
import { type ClickHouseHttp, startClickHouseHttp } from './clickhouse-http.js';
import { type RunningService, startNats, startRedis } from './services.js';

export interface DistributedServers {
  nats: RunningService;
  redis: RunningService;
  /** The ClickHouse HTTP endpoint (kill and restart it to stage an outage). */
  clickhouse: ClickHouseHttp;
  clickhouseUrl: string;
  /** Environment for one installation (fresh key prefix and database). */
  env(): Record<string, string>;
  stop(): Promise<void>;
}

export async function startDistributed(): Promise<DistributedServers> {
  const [nats, redis, clickhouse] = await Promise.all([startNats(), startRedis(), startClickHouseHttp()]);
  return {
    nats,
    redis,
    clickhouse,
    clickhouseUrl: clickhouse.url,
    env() {
      const suffix = randomBytes(4).toString('hex');
      return { NATS_URL: nats.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: `t${suffix}:`, CLICKHOUSE_URL: clickhouse.url, CLICKHOUSE_DATABASE: `t${suffix}` };
    },
    async stop() {
      await Promise.allSettled([nats.stop(), redis.stop(), clickhouse.stop()]);
    },
  };
}

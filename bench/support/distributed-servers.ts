/**
 * The servers of the distributed mode for a benchmark: nats-server (JetStream store under
 * `parentDir`), redis-server (no persistence) and ClickHouse over HTTP — the test-only
 * test/support/clickhouse-http-server.ts (chDB behind ClickHouse's HTTP interface, the only
 * ClickHouse this machine has), its data under `parentDir` too, so that the benchmark's data is
 * on the file system it names. Fresh servers each call; `stop` kills them and removes their data.
 */
import { startClickHouseHttp } from '../../test/support/clickhouse-http.js';
import { type RunningService, startNats, startRedis } from '../../test/support/services.js';

export interface DistributedServers {
  /** NATS_URL, REDIS_URL, CLICKHOUSE_URL and friends for every process of one installation. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startDistributedServers(parentDir: string): Promise<DistributedServers> {
  const started: Array<{ stop(): Promise<void> }> = [];
  const stop = async (): Promise<void> => void (await Promise.allSettled(started.map((s) => s.stop())));
  try {
    const nats: RunningService = await startNats(parentDir);
    started.push(nats);
    const redis: RunningService = await startRedis();
    started.push(redis);
    const clickhouse = await startClickHouseHttp({ parentDir, timeoutMs: 30_000 });
    started.push(clickhouse);
    return {
      env: { NATS_URL: nats.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench:', CLICKHOUSE_URL: clickhouse.url, CLICKHOUSE_DATABASE: 'bench' },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

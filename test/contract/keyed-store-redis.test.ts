import { randomUUID } from 'node:crypto';
import t from 'tap';
import { openRedisKeyedStore } from '../../services/runtime/adapters/keyed/redis.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { missingServices, type RunningService, startRedis } from '../support/services.js';
import { keyedStoreContract } from './keyed-store.contract.js';

const skip = missingServices('redis-server');
const logger = silentLogger();

if (skip) {
  t.plan(0, `redis keyed store: ${skip}`);
} else {
  let redis: RunningService;
  t.before(async () => {
    redis = await startRedis();
  });
  t.teardown(() => redis?.stop());

  keyedStoreContract(t, 'redis', async () => {
    // A hash-tagged prefix, as Redis Cluster would need; unique per test.
    const keyPrefix = `{test-${randomUUID().slice(0, 8)}}:`;
    const openOne = () => openRedisKeyedStore({ url: redis.url, keyPrefix }, { logger });
    return { store: await openOne(), openAnother: openOne, reopen: openOne };
  });
}

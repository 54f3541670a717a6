import { randomUUID } from 'node:crypto';
import t from 'tap';
import { openRedisSessionStore } from '../../services/runtime/adapters/sessions/redis.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { missingServices, type RunningService, startRedis } from '../support/services.js';
import { sessionStoreContract } from './session-store.contract.js';

const skip = missingServices('redis-server');
const logger = silentLogger();

if (skip) {
  t.plan(0, `redis session store: ${skip}`);
} else {
  let redis: RunningService;
  t.before(async () => {
    redis = await startRedis();
  });
  t.teardown(() => redis?.stop());

  sessionStoreContract(t, 'redis', async (now) => {
    // Unique per test, hash-tagged as Redis Cluster would need.
    const keyPrefix = `{test-${randomUUID().slice(0, 8)}}:`;
    const openOne = () => openRedisSessionStore({ url: redis.url, keyPrefix }, { logger, now });
    return { store: await openOne(), openAnother: openOne };
  });
}

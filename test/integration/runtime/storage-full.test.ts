/**
 * Issue #34: each embedded engine on a disk that is really full (a 32 MiB tmpfs this test mounts)
 * answers a write with `storage.full` through its storage guard, stores nothing of it, is named by
 * the storage health until a write succeeds again, and writes again once space is back. The LMDB
 * keyed store's asynchronous commit is the case where lmdb-js leaves a second, unawaited promise
 * behind; the guard takes it over, or this file's process would end on an unhandled rejection.
 * Redis at its maxmemory (OOM) is the distributed journal's full store.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createChdbStore } from '../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { BusUnavailableError } from '../../../services/runtime/adapters/bus/bus.port.js';
import { createMemoryBus } from '../../../services/runtime/adapters/bus/memory.adapter.js';
import { openLmdbJournal } from '../../../services/runtime/adapters/journal/lmdb.adapter.js';
import { openRedisJournal } from '../../../services/runtime/adapters/journal/redis.adapter.js';
import { openLmdbKeyedStore } from '../../../services/runtime/adapters/keyed/lmdb.adapter.js';
import { guardAnalytics, guardBus, guardJournal, guardKeyedStore } from '../../../services/runtime/adapters/storage-guard.js';
import { type AppError, isAppError } from '../../../schemas/errors.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { createStorageHealth } from '../../../services/runtime/storage-health.js';
import { missingServices, startRedis } from '../../support/services.js';
import { mountTmpfs } from '../../support/tmpfs.js';

const logger = silentLogger();
const BIG = 4 * 1024 * 1024;

async function storageFullOf(t: Test, what: string, write: () => Promise<unknown>): Promise<AppError | undefined> {
  try {
    await write();
    t.fail(`${what}: the write succeeded on a full disk`);
    return undefined;
  } catch (error) {
    const app = isAppError(error) ? error : error instanceof BusUnavailableError && isAppError(error.cause) ? error.cause : undefined;
    t.equal(app?.code, 'storage.full', `${what}: storage.full (${app?.detail ?? (error as Error).message})`);
    t.ok(Number(app?.headers?.['Retry-After']) > 0, `${what}: with Retry-After`);
    return app;
  }
}

const tmpfs = mountTmpfs(t, 32);

t.test('LMDB journal, LMDB keyed store, bus log and chDB on a full disk', { skip: tmpfs.refused ?? false }, async (t) => {
  const local = new Set(['analytics', 'bus', 'journal', 'problemState'] as const);
  const health = createStorageHealth({ local, disk: undefined });
  const deps = { health, disk: undefined };
  const journalDir = join(tmpfs.dir, 'control');
  const keyedDir = join(tmpfs.dir, 'problems');
  const rawJournal = await openLmdbJournal({ path: journalDir }, { logger });
  const rawKeyed = await openLmdbKeyedStore({ path: keyedDir }, { logger });
  const rawBus = createMemoryBus({ logger }, { logPath: join(tmpfs.dir, 'bus') });
  const rawAnalytics = await createChdbStore({ dataDir: join(tmpfs.dir, 'clickhouse') }, { logger });
  t.teardown(async () => {
    await Promise.allSettled([rawJournal.close(), rawKeyed.close(), rawBus.close(), rawAnalytics.close()]);
  });
  const journal = guardJournal(rawJournal, { ...deps, dir: journalDir });
  const keyed = guardKeyedStore(rawKeyed, { ...deps, dir: keyedDir });
  const bus = guardBus(rawBus, deps);
  const analytics = guardAnalytics(rawAnalytics, deps);
  await bus.ensureStream({ name: 'LOGGED', subjects: ['logged.>'], duplicateWindowMs: 60_000, retention: 'workqueue', inProcess: 'logged' });
  await analytics.command('CREATE TABLE rows (n UInt64, s String) ENGINE = MergeTree ORDER BY n');
  const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ n: from + i, s: `row ${from + i} ${'x'.repeat(200)}` }));
  const count = async (): Promise<number> => Number((await analytics.query<{ c: string }>('SELECT count() AS c FROM rows'))[0]?.c);

  const before = await journal.load();
  await analytics.insert('rows', rows(0, 10));

  tmpfs.fill('filler');
  t.ok(tmpfs.free() < 4096, `the disk is full (${tmpfs.free()} bytes free)`);

  await storageFullOf(t, 'journal commit', () => journal.commit(before.revision, [{ key: 'big', value: 'j'.repeat(BIG) }]));
  await storageFullOf(t, 'journal append', () => journal.append([{ key: 'big', value: 'j'.repeat(BIG) }]));
  await storageFullOf(t, 'keyed put', () => keyed.put([{ key: 'k', expected: 0, value: 'k'.repeat(BIG) }]));
  await storageFullOf(t, 'bus log', () => bus.publish('logged.1', Buffer.alloc(BIG, 7), { msgId: 'm1', timeoutMs: 1000 }));
  await storageFullOf(t, 'chDB insert', () => analytics.insert('rows', rows(10, 1000)));
  t.same(Object.keys(health.unwritable()).sort(), ['analytics', 'bus', 'journal', 'problemState'], 'every engine is named as unable to write');

  // Nothing partial: each engine still holds exactly what it held.
  const after = await journal.load();
  t.equal(after.revision, before.revision, 'the journal has no new revision');
  t.notOk(after.records.has('big'), 'and no record of the refused commits');
  t.same([...(await keyed.get(['k'])).keys()], [], 'the keyed store has no record of the refused put');
  t.equal((await rawBus.stats()).pending['LOGGED'] ?? 0, 0, 'the bus holds no message of the refused publish');
  t.equal(await count(), 10, 'the table has none of the refused rows');

  tmpfs.remove('filler');
  t.same(await journal.commit(before.revision, [{ key: 'big', value: 'j'.repeat(BIG) }]), { ok: true, revision: before.revision + 1 }, 'the journal commits again');
  t.same(await keyed.put([{ key: 'k', expected: 0, value: 'k'.repeat(BIG) }]), { ok: true }, 'the keyed store writes again');
  t.equal((await bus.publish('logged.1', Buffer.alloc(BIG, 7), { msgId: 'm1', timeoutMs: 1000 })).duplicate, false, 'the bus log takes the message again');
  await analytics.insert('rows', rows(10, 1000));
  t.equal(await count(), 1010, 'the table takes the rows again');
  t.same(health.unwritable(), {}, 'every engine is writable again once a write succeeded');
});

t.test('Redis at its maxmemory: the journal answers storage.full and writes nothing', { skip: missingServices('redis-server') }, async (t) => {
  const redis = await startRedis();
  t.teardown(() => redis.stop());
  const health = createStorageHealth({ local: new Set(), disk: undefined });
  const raw = await openRedisJournal({ url: redis.url, keyPrefix: 'full:' }, { logger });
  t.teardown(() => raw.close());
  const journal = guardJournal(raw, { health, disk: undefined });
  t.same(await journal.commit(0, [{ key: 'a', value: 1 }]), { ok: true, revision: 1 });
  const { Redis } = await import('ioredis');
  const admin = new Redis(redis.url);
  t.teardown(() => admin.quit());
  await admin.config('SET', 'maxmemory-policy', 'noeviction');
  await admin.config('SET', 'maxmemory', '1');

  await storageFullOf(t, 'Redis journal commit', () => journal.commit(1, [{ key: 'b', value: 2 }]));
  t.match(health.unwritable().journal ?? '', /OOM/, 'the journal is named, with the reason');
  await admin.config('SET', 'maxmemory', '0');
  const loaded = await journal.load();
  t.equal(loaded.revision, 1, 'no revision was added');
  t.notOk(loaded.records.has('b'), 'nothing of the refused commit was written');
  t.same(await journal.commit(1, [{ key: 'b', value: 2 }]), { ok: true, revision: 2 }, 'it commits again once there is room');
  t.same(health.unwritable(), {}, 'and is writable again');
});

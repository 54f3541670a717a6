import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import t from 'tap';
import { JournalTrimmedError } from '../../services/runtime/adapters/journal/journal-common.js';
import { openRedisJournal } from '../../services/runtime/adapters/journal/redis.adapter.js';
import { redactRedisUrl } from '../../services/runtime/adapters/redis-connection.js';
import { createLogger, silentLogger } from '../../services/runtime/logger.js';
import { missingServices, type RunningService, startRedis } from '../support/services.js';
import { collect, journalContract } from './journal.contract.js';

const skip = missingServices('redis-server');
const logger = silentLogger();
const uniquePrefix = (): string => `test-${randomUUID().slice(0, 8)}:`;

/** A logger whose lines the test can wait for. */
function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: string[]; waitFor(match: RegExp): Promise<string> } {
  const lines: string[] = [];
  const waiters: { match: RegExp; resolve: (line: string) => void }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = chunk.toString();
      lines.push(line);
      for (const w of [...waiters])
        if (w.match.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      done();
    },
  });
  return {
    logger: createLogger('info', sink),
    lines,
    waitFor: (match) => {
      const seen = lines.find((l) => match.test(l));
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

if (skip) {
  t.plan(0, `redis journal: ${skip}`);
} else {
  let redis: RunningService;
  t.before(async () => {
    redis = await startRedis();
  });
  t.teardown(() => redis?.stop());

  journalContract(t, 'redis', async () => {
    const keyPrefix = uniquePrefix();
    const openOne = () => openRedisJournal({ url: redis.url, keyPrefix }, { logger });
    return { journal: await openOne(), openAnother: openOne, reopen: openOne };
  });

  t.test('redis: the log is trimmed, and reading past what is kept fails instead of skipping', async (t) => {
    const journal = await openRedisJournal({ url: redis.url, keyPrefix: uniquePrefix(), keepEntries: 10 }, { logger });
    t.teardown(() => journal.close());
    // Approximate trimming drops whole stream nodes (100 entries by default), hence 300 commits.
    for (let revision = 0; revision < 300; revision++) await journal.commit(revision, [{ key: 'ci:1', value: revision }]);
    t.same(
      (await journal.readSince(290)).map((e) => e.revision),
      [291, 292, 293, 294, 295, 296, 297, 298, 299, 300],
    );
    await t.rejects(journal.readSince(0), JournalTrimmedError);
    await t.rejects(journal.readSince(0), /no longer kept/);
    t.equal((await journal.load()).records.get('ci:1'), 299);
  });

  t.test('redis: the tail resumes after its connection is dropped, without skipping or repeating', async (t) => {
    const journal = await openRedisJournal({ url: redis.url, keyPrefix: uniquePrefix() }, { logger });
    const admin = new Redis(redis.url);
    t.teardown(async () => {
      await journal.close();
      await admin.quit();
    });
    const tail = collect(journal, 0);
    let revision = 0;
    const commit = async (i: number): Promise<void> => {
      const r = await journal.commit(revision, [{ key: `ci:${i}`, value: i }]);
      t.ok(r.ok, `commit ${i}`);
      if (r.ok) revision = r.revision;
    };
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) await commit(round * 10 + i);
      await tail.until(revision);
      // Drops every client but the admin one (SKIPME yes), the journal's tail included; entries
      // committed while the tail reconnects must still arrive exactly once.
      const killed = Number(await admin.call('CLIENT', 'KILL', 'TYPE', 'normal'));
      t.ok(killed >= 2, `${killed} connections dropped`);
      for (let i = 5; i < 10; i++) await commit(round * 10 + i);
    }
    await tail.until(revision);
    t.same(
      tail.entries.map((e) => e.revision),
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    tail.stop();
  });

  t.test('redis: across a server restart the tail reconnects, and a store that lost data is reported', async (t) => {
    // A server of its own: a restart empties it (the harness runs it without persistence).
    const own = await startRedis();
    const captured = capturingLogger();
    const journal = await openRedisJournal({ url: own.url, keyPrefix: uniquePrefix() }, { logger: captured.logger });
    t.teardown(async () => {
      await journal.close();
      await own.stop();
    });
    const tail = collect(journal, 0);
    t.same(await journal.commit(0, [{ key: 'ci:1', value: 1 }]), { ok: true, revision: 1 });
    await tail.until(1);
    await own.kill();
    await own.restart();
    await captured.waitFor(/lost data/);
    t.ok(
      captured.lines.some((l) => /"storeRevision":0,"readerRevision":1/.test(l)),
      'the loss is logged with both revisions',
    );
    // The emptied store numbers from 1 again; the reader's model must reload. The tail itself is
    // alive: entries beyond its cursor arrive.
    t.same(await journal.commit(0, [{ key: 'ci:1', value: 'again' }]), { ok: true, revision: 1 });
    t.same(await journal.commit(1, [{ key: 'ci:2', value: 2 }]), { ok: true, revision: 2 });
    await tail.until(2);
    t.same(tail.entries[1], { revision: 2, changes: [{ key: 'ci:2', value: 2 }] });
    tail.stop();
  });

  t.test('redis: the URL is logged without its password', async (t) => {
    t.equal(redactRedisUrl('redis://user:s3cret@host:6380/2'), 'redis://user:***@host:6380/2');
    t.equal(redactRedisUrl('redis://host:6379'), 'redis://host:6379');
    const captured = capturingLogger();
    const url = redis.url.replace('redis://', 'redis://default:s3cret@');
    // Redis without requirepass accepts any password for `default` (ioredis only warns).
    const journal = await openRedisJournal({ url, keyPrefix: uniquePrefix() }, { logger: captured.logger });
    await journal.close();
    t.ok(
      captured.lines.some((l) => l.includes('default:***@')),
      'the connection is logged, redacted',
    );
    t.notOk(
      captured.lines.some((l) => l.includes('s3cret')),
      'no log line holds the password',
    );
  });
}

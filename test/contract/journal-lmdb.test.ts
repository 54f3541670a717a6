import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { JournalTrimmedError } from '../../services/runtime/adapters/journal/journal-common.js';
import { openLmdbJournal } from '../../services/runtime/adapters/journal/lmdb.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { collect, journalContract } from './journal.contract.js';

const logger = silentLogger();
const tempDir = (): string => mkdtempSync(join(tmpdir(), 'ops-journal-lmdb-'));

journalContract(t, 'lmdb', async () => {
  const path = tempDir();
  return {
    journal: await openLmdbJournal({ path }, { logger }),
    openAnother: () => openLmdbJournal({ path }, { logger }),
    reopen: () => openLmdbJournal({ path }, { logger }),
    cleanup: async () => rmSync(path, { recursive: true, force: true }),
  };
});

t.test('lmdb: the log is bounded, and reading past what is kept fails instead of skipping', async (t) => {
  const path = tempDir();
  const journal = await openLmdbJournal({ path, keepEntries: 10 }, { logger });
  t.teardown(async () => {
    await journal.close();
    rmSync(path, { recursive: true, force: true });
  });
  for (let revision = 0; revision < 30; revision++) await journal.commit(revision, [{ key: 'ci:1', value: revision }]);
  t.same(
    (await journal.readSince(20)).map((e) => e.revision),
    [21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
  );
  await t.rejects(journal.readSince(19), JournalTrimmedError);
  await t.rejects(journal.readSince(0), /no longer kept/);
  t.throws(() => journal.tail(5, () => undefined), JournalTrimmedError);
  const tail = collect(journal, 20);
  await tail.until(10);
  tail.stop();
  t.equal((await journal.load()).records.get('ci:1'), 29);
});

t.test('lmdb: a handle opened by another process is seen through polling', async (t) => {
  const path = tempDir();
  const journal = await openLmdbJournal({ path }, { logger });
  t.teardown(async () => {
    await journal.close();
    rmSync(path, { recursive: true, force: true });
  });
  const tail = collect(journal, 0);
  const { spawn } = await import('node:child_process');
  const script = `
    const { openLmdbJournal } = await import(${JSON.stringify(new URL('../../services/runtime/adapters/journal/lmdb.adapter.ts', import.meta.url).href)});
    const { silentLogger } = await import(${JSON.stringify(new URL('../../services/runtime/logger.ts', import.meta.url).href)});
    const j = await openLmdbJournal({ path: ${JSON.stringify(path)} }, { logger: silentLogger() });
    for (let r = 0; r < 3; r++) await j.commit(r, [{ key: 'ci:' + r, value: r }]);
    await j.close();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  t.equal(code, 0, stderr);
  await tail.until(3);
  t.same(
    tail.entries.map((e) => e.revision),
    [1, 2, 3],
  );
  tail.stop();
});

/**
 * The journal port's contract (services/runtime/adapters/journal/journal.port.ts), one suite that
 * every adapter passes. `open` gives a fresh, empty store each time.
 */
import type { Test } from 'tap';
import type { Journal, JournalChange, JournalEntry } from '../../services/runtime/adapters/journal/journal.port.js';

export interface JournalFixture {
  journal: Journal;
  /** A second handle on the same store (another connection, another LMDB handle). */
  openAnother: () => Promise<Journal>;
  /** Opens the store again, after `journal` was closed. */
  reopen: () => Promise<Journal>;
  cleanup?: () => Promise<void>;
}

export type OpenJournal = () => Promise<JournalFixture>;

const WAIT_MS = 10_000;

/** Entries a tail delivers, with a promise for "n of them have arrived" (no sleeps). */
export function collect(journal: Journal, from: number): { entries: JournalEntry[]; until(n: number): Promise<void>; stop(): void } {
  const entries: JournalEntry[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const stop = journal.tail(from, (entry) => {
    entries.push(entry);
    for (const w of [...waiters])
      if (entries.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  return {
    entries,
    stop,
    until(n) {
      if (entries.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${entries.length} of ${n} entries after ${WAIT_MS} ms`)), WAIT_MS);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
}

const sample = (i: number): JournalChange[] => [
  { key: `ci:${i}`, value: { id: i, name: `host-${i}`, tags: ['a', 'ü'], nested: { ok: true, n: null } } },
  { key: `counter:ci`, value: i },
];

export function journalContract(t: Test, name: string, open: OpenJournal): void {
  /** Runs `body` on a fresh store; every handle it opens is closed afterwards. */
  const withStore = (title: string, body: (t: Test, f: JournalFixture & { track: (j: Journal) => Journal }) => Promise<void>): void => {
    t.test(`${name}: ${title}`, async (t) => {
      const fixture = await open();
      const handles: Journal[] = [fixture.journal];
      const track = (j: Journal): Journal => {
        handles.push(j);
        return j;
      };
      try {
        await body(t, { ...fixture, track });
      } finally {
        await Promise.allSettled(handles.map((j) => j.close()));
        await fixture.cleanup?.();
      }
    });
  };

  withStore('a commit of several changes lands atomically as revision + 1', async (t, { journal }) => {
    const before = await journal.load();
    t.equal(before.revision, 0);
    t.equal(before.records.size, 0);
    await journal.ping();
    const changes: JournalChange[] = [
      { key: 'ci:1', value: { id: 1, name: 'db-01' } },
      { key: 'ci:2', value: { id: 2, name: 'db-02', parent: 1 } },
      { key: 'user:7', value: { login: 'ops', roles: ['admin'] } },
    ];
    t.same(await journal.commit(0, changes), { ok: true, revision: 1 });
    const after = await journal.load();
    t.equal(after.revision, 1);
    t.same(Object.fromEntries(after.records), { 'ci:1': changes[0]!.value, 'ci:2': changes[1]!.value, 'user:7': changes[2]!.value });
    t.same(await journal.readSince(0), [{ revision: 1, changes }]);
    t.same(await journal.readSince(1), []);
  });

  withStore('a null value deletes the record', async (t, { journal }) => {
    await journal.commit(0, [
      { key: 'ci:1', value: { id: 1 } },
      { key: 'ci:2', value: { id: 2 } },
    ]);
    t.same(await journal.commit(1, [{ key: 'ci:1', value: null }]), { ok: true, revision: 2 });
    const snap = await journal.load();
    t.same([...snap.records.keys()], ['ci:2']);
    t.same((await journal.readSince(1))[0], { revision: 2, changes: [{ key: 'ci:1', value: null }] });
  });

  withStore('a commit against a stale revision is a conflict and changes nothing', async (t, { journal }) => {
    await journal.commit(0, [{ key: 'ci:1', value: 'first' }]);
    await journal.commit(1, [{ key: 'ci:2', value: 'second' }]);
    t.same(
      await journal.commit(1, [
        { key: 'ci:1', value: 'stale' },
        { key: 'ci:3', value: 'stale' },
      ]),
      {
        ok: false,
        conflict: true,
        currentRevision: 2,
      },
    );
    t.same(await journal.commit(5, [{ key: 'ci:3', value: 'future' }]), { ok: false, conflict: true, currentRevision: 2 });
    const snap = await journal.load();
    t.equal(snap.revision, 2);
    t.same(Object.fromEntries(snap.records), { 'ci:1': 'first', 'ci:2': 'second' });
    t.equal((await journal.readSince(0)).length, 2);
  });

  withStore('of concurrent commits on one revision exactly one succeeds', async (t, { journal, openAnother, track }) => {
    const other = track(await openAnother());
    const attempts = Array.from({ length: 8 }, (_, i) => (i % 2 ? other : journal).commit(0, [{ key: `ci:${i}`, value: i }]));
    const results = await Promise.all(attempts);
    const winners = results.flatMap((r, i) => (r.ok ? [i] : []));
    t.equal(winners.length, 1, 'one winner');
    for (const r of results) if (!r.ok) t.same(r, { ok: false, conflict: true, currentRevision: 1 });
    const snap = await other.load();
    t.equal(snap.revision, 1);
    t.same([...snap.records.keys()], [`ci:${winners[0]}`]);
  });

  withStore('a second handle tailing from its load() receives every entry in order', async (t, { journal, openAnother, track }) => {
    await journal.commit(0, sample(0));
    const other = track(await openAnother());
    const start = await other.load();
    t.equal(start.revision, 1);
    const remote = collect(other, start.revision);
    const own = collect(journal, start.revision);
    const committed: JournalEntry[] = [];
    let revision = start.revision;
    for (let i = 1; i <= 20; i++) {
      const writer = i % 5 === 0 ? other : journal; // the tail includes the reader's own commits
      const result = await writer.commit(revision, sample(i));
      t.ok(result.ok, `commit ${i}`);
      if (!result.ok) return;
      revision = result.revision;
      committed.push({ revision, changes: sample(i) });
    }
    await Promise.all([remote.until(20), own.until(20)]);
    t.same(remote.entries, committed, 'the other handle saw every entry once, in order');
    t.same(own.entries, committed, 'the committing handle saw the same');
    t.same(await other.readSince(start.revision), committed, 'readSince returns the missing entries');
    t.same(await other.readSince(start.revision + 15), committed.slice(15));
    remote.stop();
    own.stop();

    await other.close();
    t.same(await journal.commit(revision, [{ key: 'ci:last', value: 1 }]), { ok: true, revision: revision + 1 }, 'closing one handle leaves the other working');
    t.equal((await journal.load()).records.get('ci:last'), 1);
  });

  withStore('a tail stops delivering once stopped', async (t, { journal }) => {
    const first = collect(journal, 0);
    const second = collect(journal, 0);
    await journal.commit(0, sample(1));
    await Promise.all([first.until(1), second.until(1)]);
    first.stop();
    await journal.commit(1, sample(2));
    await second.until(2);
    t.equal(first.entries.length, 1);
    second.stop();
  });

  withStore('reopening gives the same records and revision', async (t, { journal, reopen, track }) => {
    let revision = 0;
    for (let i = 0; i < 5; i++) {
      const r = await journal.commit(revision, sample(i));
      if (r.ok) revision = r.revision;
    }
    await journal.commit(revision, [{ key: 'ci:2', value: null }]);
    const before = await journal.load();
    await journal.close();
    const again = track(await reopen());
    const after = await again.load();
    t.equal(after.revision, 6);
    t.same(after, before);
    t.same(
      (await again.readSince(4)).map((e) => e.revision),
      [5, 6],
    );
    t.same(await again.commit(6, [{ key: 'ci:9', value: 9 }]), { ok: true, revision: 7 });
  });

  withStore('1 000 sequential commits then load() is consistent', async (t, { journal, openAnother, track }) => {
    const tailing = collect(track(await openAnother()), 0);
    let revision = 0;
    for (let i = 0; i < 1000; i++) {
      const r = await journal.commit(revision, [{ key: `item:${i % 50}`, value: { i } }, ...(i % 7 === 0 ? [{ key: `gone:${i}`, value: null }] : [])]);
      if (!r.ok) return void t.fail(`commit ${i} conflicted at ${r.currentRevision}`);
      revision = r.revision;
    }
    const snap = await journal.load();
    t.equal(snap.revision, 1000);
    t.equal(snap.records.size, 50);
    t.ok(
      [...snap.records].every(([key, value]) => (value as { i: number }).i === 950 + Number(key.slice(5))),
      'each key holds its last value',
    );
    t.equal((await journal.readSince(0)).length, 1000);
    await tailing.until(1000);
    t.same(
      tailing.entries.map((e) => e.revision),
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    tailing.stop();
  });
}

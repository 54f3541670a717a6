/**
 * The keyed-store port's contract (services/runtime/adapters/keyed/keyed-store.port.ts), one
 * suite that every adapter passes. `open` gives a fresh, empty store each time.
 */
import type { Test } from 'tap';
import type { KeyedStore, KeyedWrite } from '../../services/runtime/adapters/keyed/keyed-store.port.js';

export interface KeyedStoreFixture {
  store: KeyedStore;
  /** A second handle on the same store (another connection, another LMDB handle). */
  openAnother: () => Promise<KeyedStore>;
  /** Opens the store again, after `store` was closed. */
  reopen: () => Promise<KeyedStore>;
  cleanup?: () => Promise<void>;
}

export type OpenKeyedStore = () => Promise<KeyedStoreFixture>;

type Fixture = KeyedStoreFixture & { track: (s: KeyedStore) => KeyedStore };

export function keyedStoreContract(t: Test, name: string, open: OpenKeyedStore): void {
  /** Runs `body` on a fresh store; every handle it opens is closed afterwards. */
  const withStore = (title: string, body: (t: Test, f: Fixture) => Promise<void>): void => {
    t.test(`${name}: ${title}`, async (t) => {
      const fixture = await open();
      const handles: KeyedStore[] = [fixture.store];
      const track = (s: KeyedStore): KeyedStore => {
        handles.push(s);
        return s;
      };
      try {
        await body(t, { ...fixture, track });
      } finally {
        await Promise.allSettled(handles.map((s) => s.close()));
        await fixture.cleanup?.();
      }
    });
  };

  withStore('absent keys are absent from get', async (t, { store }) => {
    t.equal(store.kind, name);
    await store.ping();
    t.same([...(await store.get([]))], []);
    t.same([...(await store.get(['t1:ci1', 't1:ci2']))], [], 'an empty store has none');
    t.same(await store.put([{ key: 't1:ci1', expected: 0, value: 'here' }]), { ok: true });
    const found = await store.get(['t1:ci0', 't1:ci1', 't1:ci2']);
    t.same([...found], [['t1:ci1', { version: 1, value: 'here' }]], 'only the written key');
  });

  withStore('a first write expecting version 0 creates version 1', async (t, { store }) => {
    t.same(
      await store.put([
        { key: 'a', expected: 0, value: { n: 1 } },
        { key: 'b', expected: 0, value: { n: 2 } },
      ]),
      { ok: true },
    );
    t.same(Object.fromEntries(await store.get(['a', 'b'])), { a: { version: 1, value: { n: 1 } }, b: { version: 1, value: { n: 2 } } });
    t.same(await store.put([{ key: 'a', expected: 1, value: { n: 3 } }]), { ok: true }, 'the next write names version 1');
    t.same(Object.fromEntries(await store.get(['a', 'b'])), { a: { version: 2, value: { n: 3 } }, b: { version: 1, value: { n: 2 } } });
  });

  withStore('a write with a stale expected version is refused and writes nothing of the batch', async (t, { store }) => {
    await store.put([
      { key: 'a', expected: 0, value: 'a1' },
      { key: 'b', expected: 0, value: 'b1' },
    ]);
    await store.put([{ key: 'a', expected: 1, value: 'a2' }]);
    const before = Object.fromEntries(await store.get(['a', 'b', 'c']));
    t.same(before, { a: { version: 2, value: 'a2' }, b: { version: 1, value: 'b1' } });

    const stale = [
      { key: 'c', expected: 0, value: 'new' },
      { key: 'a', expected: 1, value: 'stale' },
      { key: 'b', expected: 1, value: 'fine' },
    ];
    t.same(await store.put(stale), { ok: false, conflicts: ['a'] }, 'the stale key is named');
    t.same(Object.fromEntries(await store.get(['a', 'b', 'c'])), before, 'neither the new nor the matching key was written');

    const twoWrong = [
      { key: 'b', expected: 5, value: 'ahead' },
      { key: 'c', expected: 0, value: 'new' },
      { key: 'a', expected: 1, value: 'stale' },
    ];
    t.same(await store.put(twoWrong), { ok: false, conflicts: ['b', 'a'] }, 'every conflicting key is named, in write order');
    t.same(Object.fromEntries(await store.get(['a', 'b', 'c'])), before);
  });

  withStore('a write expecting 0 on an existing key conflicts', async (t, { store }) => {
    await store.put([{ key: 'k', expected: 0, value: 'first' }]);
    t.same(await store.put([{ key: 'k', expected: 0, value: 'second' }]), { ok: false, conflicts: ['k'] });
    t.same(Object.fromEntries(await store.get(['k'])), { k: { version: 1, value: 'first' } });
  });

  withStore('a batch naming a key twice or a bad version is refused before anything is written', async (t, { store }) => {
    const bad: KeyedWrite[][] = [
      [
        { key: 'x', expected: 0, value: 1 },
        { key: 'x', expected: 0, value: 2 },
      ],
      [
        { key: 'y', expected: 0, value: 1 },
        { key: 'x', expected: -1, value: 2 },
      ],
      [
        { key: 'y', expected: 0, value: 1 },
        { key: 'x', expected: 1.5, value: 2 },
      ],
      [
        { key: 'y', expected: 0, value: 1 },
        { key: 'x', expected: 0, value: undefined },
      ],
    ];
    for (const writes of bad) await t.rejects(store.put(writes), TypeError);
    t.same([...(await store.get(['x', 'y']))], []);
    t.same(await store.put([]), { ok: true }, 'an empty batch is fine');
  });

  withStore('values round-trip (nested JSON, unicode)', async (t, { store }) => {
    const values: Record<string, unknown> = {
      'trigger:42:ci:7': { state: 'PROBLEM', since: 1_700_000_000_123, samples: [1.5, 0, 2 ** 53 - 1, -1e-9], nested: { deep: { deeper: [null, true, false, {}] } } },
      'ключ:ü:日本:🙂': 'Grüße, 世界 🙂 \u0000 "quoted" \\ back\nslash',
      'null value': null,
      'empty string': '',
      zero: 0,
      array: [[], [{ a: [] }], 'x'],
      false: false,
    };
    const writes = Object.entries(values).map(([key, value]) => ({ key, expected: 0, value }));
    t.same(await store.put(writes), { ok: true });
    const found = await store.get(Object.keys(values));
    t.equal(found.size, writes.length, 'a null value is a record, not an absence');
    for (const [key, value] of Object.entries(values)) t.same(found.get(key), { version: 1, value }, key);
  });

  withStore('records survive reopening the store', async (t, { store, reopen, track }) => {
    await store.put([
      { key: 'a', expected: 0, value: { n: 1 } },
      { key: 'b', expected: 0, value: ['ü'] },
    ]);
    await store.put([{ key: 'a', expected: 1, value: { n: 2 } }]);
    const before = Object.fromEntries(await store.get(['a', 'b']));
    await store.close();
    const again = track(await reopen());
    t.same(Object.fromEntries(await again.get(['a', 'b'])), before);
    t.same(await again.put([{ key: 'a', expected: 1, value: 'stale' }]), { ok: false, conflicts: ['a'] }, 'versions survive too');
    t.same(await again.put([{ key: 'a', expected: 2, value: { n: 3 } }]), { ok: true });
  });

  withStore("two handles on one store see each other's writes, and of concurrent CAS on one key exactly one wins", async (t, { store, openAnother, track }) => {
    const other = track(await openAnother());
    t.same(await store.put([{ key: 'k', expected: 0, value: 'from store' }]), { ok: true });
    t.same(Object.fromEntries(await other.get(['k'])), { k: { version: 1, value: 'from store' } }, 'the other handle sees it');
    t.same(await other.put([{ key: 'k', expected: 1, value: 'from other' }]), { ok: true });
    t.same(Object.fromEntries(await store.get(['k'])), { k: { version: 2, value: 'from other' } }, 'and the first sees the other');

    const attempts = Array.from({ length: 8 }, (_, i) => (i % 2 ? other : store).put([{ key: 'k', expected: 2, value: `attempt ${i}` }]));
    const results = await Promise.all(attempts);
    const winners = results.flatMap((r, i) => (r.ok ? [i] : []));
    t.equal(winners.length, 1, 'one winner');
    for (const r of results) if (!r.ok) t.same(r, { ok: false, conflicts: ['k'] });
    for (const handle of [store, other]) t.same(Object.fromEntries(await handle.get(['k'])), { k: { version: 3, value: `attempt ${winners[0]}` } });
  });

  withStore('a known record whose version is still stored is returned as it is; a stale one is read again', async (t, { store, openAnother, track }) => {
    await store.put([
      { key: 'a', expected: 0, value: { n: 1 } },
      { key: 'b', expected: 0, value: { n: 1 } },
    ]);
    const first = await store.get<{ n: number }>(['a', 'b']);
    const known = new Map(first);
    t.equal((await store.get(['a', 'b'], known)).get('a'), known.get('a'), 'the very record given, not a copy');

    const other = track(await openAnother());
    t.same(await other.put([{ key: 'b', expected: 1, value: { n: 2 } }]), { ok: true });
    const again = await store.get(['a', 'b', 'c'], new Map([...known, ['c', { version: 4, value: { n: 9 } }]]));
    t.equal(again.get('a'), known.get('a'), 'unchanged: the known record');
    t.same(again.get('b'), { version: 2, value: { n: 2 } }, "another handle's write is read, not the stale known value");
    t.notOk(again.has('c'), 'a key known to the caller but absent from the store is absent');
  });

  withStore('2 000 keys in one put and one get', async (t, { store }) => {
    const keys = Array.from({ length: 2000 }, (_, i) => `trigger:${i % 40}:ci:${i}`);
    t.same(await store.put(keys.map((key, i) => ({ key, expected: 0, value: { i, key } }))), { ok: true });
    const found = await store.get([...keys, 'absent']);
    t.equal(found.size, 2000);
    t.ok(
      keys.every((key, i) => found.get(key)?.version === 1 && (found.get(key)?.value as { i: number } | undefined)?.i === i),
      'every record',
    );
    const next = keys.map((key, i) => ({ key, expected: 1, value: i * 2 }));
    next[1999] = { key: keys[1999]!, expected: 0, value: -1 };
    t.same(await store.put(next), { ok: false, conflicts: [keys[1999]] }, 'one stale key refuses the 2 000');
    t.equal((await store.get([keys[0]!])).get(keys[0]!)?.version, 1);
    next[1999] = { key: keys[1999]!, expected: 1, value: -1 };
    t.same(await store.put(next), { ok: true });
    const after = await store.get(keys);
    t.ok(
      keys.every((key) => after.get(key)?.version === 2),
      'all at version 2',
    );
  });
}

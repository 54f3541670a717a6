/**
 * What every analytics store must do (DESIGN §2: one SQL, two engines). Each adapter's test file
 * runs this same suite, so the embedded and the distributed mode cannot drift apart.
 */

import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { Test } from 'tap';
import type { AnalyticsStore } from '../../services/runtime/adapters/analytics/analytics.port.js';
import { runMigrations } from '../../services/runtime/adapters/analytics/migrations.js';
import { silentLogger } from '../../services/runtime/logger.js';

export interface OpenedStore {
  store: AnalyticsStore;
  /** A new store on the same data (chDB: a new session on the directory; server: a new client). */
  reopen?: () => Promise<AnalyticsStore>;
}

const unique = (prefix: string): string => `${prefix}_${randomBytes(5).toString('hex')}`;

/** `YYYY-MM-DD hh:mm:ss.sss` in UTC, as ClickHouse prints a DateTime64(3, 'UTC'). */
const utc = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

export function analyticsContract(t: Test, name: string, open: () => Promise<OpenedStore>): void {
  const withStore = (title: string, body: (t: Test, opened: OpenedStore) => Promise<void>): void => {
    t.test(`${name}: ${title}`, async (t) => {
      const opened = await open();
      t.teardown(() => opened.store.close());
      await body(t, opened);
    });
  };

  withStore('answers ping and rejects a bad statement', async (t, { store }) => {
    await store.ping();
    t.ok(['chdb', 'clickhouse'].includes(store.kind));
    await t.rejects(store.query(`SELECT * FROM ${unique('missing')}`), /missing_/);
    await t.rejects(store.command('SELEC 1'));
  });

  withStore('queryFloat64 gives the Float64 columns of the rows, row after row, NaN and bound parameters included', async (t, { store }) => {
    const table = unique('numbers');
    await store.command(`CREATE TABLE ${table} (id UInt64, at DateTime64(3, 'UTC'), until Nullable(DateTime64(3, 'UTC')), share Float64) ENGINE = MergeTree ORDER BY id`);
    await store.insert(table, [
      { id: 7, at: '2024-01-02 03:04:05.678', until: null, share: 0.25 },
      { id: 9, at: '2024-01-02 03:04:06.000', until: '2024-01-02 04:00:00.000', share: -1.5 },
      { id: 11, at: '2024-01-03 00:00:00.000', until: null, share: 1e300 },
    ]);
    const values = await store.queryFloat64(
      `SELECT toFloat64(id), toFloat64(toUnixTimestamp64Milli(at)), ifNull(toFloat64(toUnixTimestamp64Milli(until)), nan), share
       FROM ${table} WHERE id < {below:UInt64} ORDER BY id`,
      { below: 10 },
    );
    t.ok(values instanceof Float64Array);
    t.same(Array.from(values), [7, Date.UTC(2024, 0, 2, 3, 4, 5, 678), NaN, 0.25, 9, Date.UTC(2024, 0, 2, 3, 4, 6), Date.UTC(2024, 0, 2, 4), -1.5]);
    t.equal((await store.queryFloat64(`SELECT share FROM ${table} WHERE id > 100`)).length, 0, 'no row: an empty array');
    await t.rejects(store.queryFloat64(`SELECT share, id FROM ${table} WHERE id = 7`), /column id is UInt64/, 'a column that is not a Float64 is refused, not misread');
  });

  withStore('inserts objects and an NDJSON buffer, then selects them', async (t, { store }) => {
    const table = unique('rows');
    await store.command(
      `CREATE TABLE ${table} (id UInt64, name String, ts DateTime64(3, 'UTC'), tags Array(String), labels Map(String, String))
       ENGINE = MergeTree ORDER BY id`,
    );
    await store.insert(table, [
      { id: 1, name: 'one', ts: '2024-01-02 03:04:05.678', tags: ['a', 'b'], labels: { k: 'v' } },
      { id: '18446744073709551615', name: 'it\'s "two"', ts: '2024-01-02 03:04:05.000', tags: [], labels: {} },
    ]);
    const ndjson = [{ id: 3, name: 'three\nlines', ts: '2024-02-01 00:00:00.001', tags: ['x'], labels: { a: '1', b: '2' } }].map((r) => JSON.stringify(r)).join('\n');
    await store.insert(table, Buffer.from(`${ndjson}\n`));
    await store.insert(table, []);
    const rows = await store.query(`SELECT id, name, ts, tags, labels FROM ${table} ORDER BY id`);
    t.same(rows, [
      { id: '1', name: 'one', ts: '2024-01-02 03:04:05.678', tags: ['a', 'b'], labels: { k: 'v' } },
      { id: '3', name: 'three\nlines', ts: '2024-02-01 00:00:00.001', tags: ['x'], labels: { a: '1', b: '2' } },
      { id: '18446744073709551615', name: 'it\'s "two"', ts: '2024-01-02 03:04:05.000', tags: [], labels: {} },
    ]);
  });

  withStore('binds parameters of every type verbatim', async (t, { store }) => {
    const table = unique('params');
    await store.command(`CREATE TABLE ${table} (id UInt64, name String) ENGINE = MergeTree ORDER BY id`);
    const tricky = [`it's "quoted"`, 'back\\slash \\n not a newline \\', `'; DROP TABLE ${table}; --`, `x' OR '1'='1`, 'tab\there\nnewline\r{braces:String} ünïcödé', ''];
    await store.insert(
      table,
      tricky.map((name, i) => ({ id: i + 1, name })),
    );
    for (const value of tricky) {
      t.same(await store.query('SELECT {s:String} AS s', { s: value }), [{ s: value }], `String ${JSON.stringify(value)}`);
      t.same(await store.query(`SELECT count() AS n FROM ${table} WHERE name = {s:String}`, { s: value }), [{ n: '1' }]);
    }
    t.same(await store.query(`SELECT count() AS n FROM ${table}`), [{ n: String(tricky.length) }], 'the injection changed nothing');

    const max = '18446744073709551615';
    t.same(await store.query('SELECT {n:UInt64} AS n, {b:UInt64} AS b', { n: max, b: 2n ** 63n }), [{ n: max, b: '9223372036854775808' }]);
    t.same(await store.query(`SELECT name FROM ${table} WHERE id = {id:UInt64}`, { id: 3 }), [{ name: tricky[2] }]);

    const list = ['a', "it's", 'back\\slash', '', 'comma, ]'];
    t.same(await store.query('SELECT {l:Array(String)} AS l', { l: list }), [{ l: list }]);
    t.same(await store.query(`SELECT id FROM ${table} WHERE has({l:Array(String)}, name) ORDER BY id`, { l: [tricky[0], tricky[3]] }), [{ id: '1' }, { id: '4' }]);

    const when = new Date('2024-03-04T05:06:07.089Z');
    t.same(await store.query(`SELECT {t:DateTime64(3, 'UTC')} AS t, toUnixTimestamp64Milli({t:DateTime64(3, 'UTC')}) AS ms`, { t: when }), [
      { t: '2024-03-04 05:06:07.089', ms: String(when.getTime()) },
    ]);
    t.same(await store.query(`SELECT {t:DateTime64(3, 'UTC')} AS t`, { t: '2024-03-04 05:06:07.089' }), [{ t: '2024-03-04 05:06:07.089' }]);

    const map = { plain: 'v', "quote'key": 'back\\slash', empty: '' };
    t.same(await store.query('SELECT {m:Map(String, String)} AS m', { m: map }), [{ m: map }]);
  });

  withStore('a deduplication token makes a repeated insert add nothing', async (t, { store }) => {
    const table = unique('dedup');
    await store.command(`CREATE TABLE ${table} (id UInt32, v String) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100`);
    const rows = [
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ];
    await store.insert(table, rows, { deduplicationToken: 'batch-1' });
    await store.insert(table, rows, { deduplicationToken: 'batch-1' });
    await store.insert(table, Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n')), { deduplicationToken: 'batch-1' });
    t.same(await store.query(`SELECT count() AS n FROM ${table}`), [{ n: '2' }], 'the retries were dropped');
    // The token, not the content, names the batch: this proves the token reached the engine.
    await store.insert(table, [{ id: 3, v: 'c' }], { deduplicationToken: 'batch-1' });
    await store.insert(table, rows, { deduplicationToken: 'batch-2' });
    t.same(await store.query(`SELECT id, count() AS n FROM ${table} GROUP BY id ORDER BY id`), [
      { id: 1, n: '2' },
      { id: 2, n: '2' },
    ]);
  });

  withStore('TTL drops an expired row on OPTIMIZE FINAL and keeps a fresh one', async (t, { store }) => {
    const table = unique('ttl');
    await store.command(`CREATE TABLE ${table} (id UInt32, ts DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id TTL ts + INTERVAL 1 DAY`);
    const now = Date.now();
    await store.insert(table, [
      { id: 1, ts: utc(now - 3 * 86_400_000) },
      { id: 2, ts: utc(now) },
    ]);
    await store.command(`OPTIMIZE TABLE ${table} FINAL`);
    t.same(await store.query(`SELECT id FROM ${table} ORDER BY id`), [{ id: 2 }]);
  });

  withStore('migrations apply once, even when two runs race', async (t, { store }) => {
    const deps = { logger: silentLogger() };
    const [first, second] = await Promise.all([runMigrations(store, deps), runMigrations(store, deps)]);
    t.ok(first.applied.includes('0001_events') || second.applied.includes('0001_events'));
    t.same((await runMigrations(store, deps)).applied, [], 'a later run applies nothing');
    const tables = await store.query<{ name: string }>(
      `SELECT name FROM system.tables WHERE database = currentDatabase() AND name IN ('events', 'dead_letters', 'schema_migrations') ORDER BY name`,
    );
    t.same(
      tables.map((r) => r.name),
      ['dead_letters', 'events', 'schema_migrations'],
    );
    const files = readdirSync(new URL('../../schemas/migrations/', import.meta.url))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    t.same(
      await store.query('SELECT DISTINCT version FROM schema_migrations ORDER BY version'),
      files.map((f) => ({ version: Number(f.slice(0, 4)) })),
      'each migration recorded once',
    );

    const id = '0b7d3b1e-6a55-4c55-9a3c-2f1f3f9d1e01';
    // Kept ten years (0007_retention.sql): the default 30 days after 2024 would let a TTL merge take it.
    const event = {
      id,
      stream_id: '7',
      ts: '2024-05-06 07:08:09.010',
      received_at: '2024-05-06 07:08:09.011',
      route: 'r',
      labels: { a: 'b' },
      payload: '{}',
      retention_days: 3650,
    };
    await store.insert('events', [event], { deduplicationToken: 'events-1' });
    await store.insert('events', [event], { deduplicationToken: 'events-1' });
    t.same(await store.query('SELECT * FROM events'), [event]);
  });

  withStore('data outlives the store: closed and opened again, the rows are there', async (t, { store, reopen }) => {
    if (!reopen) {
      t.plan(0, 'this adapter cannot reopen its data');
      return;
    }
    const table = unique('durable');
    await store.command(`CREATE TABLE ${table} (id UInt32, v String) ENGINE = MergeTree ORDER BY id`);
    await store.insert(table, [{ id: 1, v: 'kept' }]);
    await store.close();
    const again = await reopen();
    t.teardown(() => again.close());
    t.same(await again.query(`SELECT id, v FROM ${table}`), [{ id: 1, v: 'kept' }]);
  });
}

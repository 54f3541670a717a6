/**
 * Issue 13: a redelivered message's rows checked against what is stored (unstored-rows.ts), on
 * the real engine through both adapters: chDB in-process, and the server adapter over HTTP (chDB
 * behind test/support/clickhouse-http-server.ts), where the ids travel in the request's URL.
 * Rows come from the record pipeline itself; counts are physical (no FINAL).
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { batchPart, encodeBatch } from '../../../pipelines/records/envelope.js';
import { EVENT_ROW_SETTINGS } from '../../../pipelines/records/event-row.js';
import { type BatchRows, processBatch } from '../../../pipelines/records/record-pipeline.js';
import type { StreamConfigModel } from '../../../schemas/stream.schema.js';
import { IDS_PER_QUERY, unstoredRows } from '../../../services/event-worker/unstored-rows.js';
import type { AnalyticsStore } from '../../../services/runtime/adapters/analytics/analytics.port.js';
import { createChdbStore } from '../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { createClickHouseStore } from '../../../services/runtime/adapters/analytics/clickhouse.adapter.js';
import { runMigrations } from '../../../services/runtime/adapters/analytics/migrations.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { startClickHouseHttp } from '../../support/clickhouse-http.js';

const dataDir = mkdtempSync(join(tmpdir(), 'ops-unstored-rows-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const http = await startClickHouseHttp();
t.teardown(() => http.stop());

const database = (): string => `ops_${randomBytes(4).toString('hex')}`;
const openers: Record<string, () => Promise<AnalyticsStore>> = {
  chdb: () => createChdbStore({ dataDir, database: database() }, { logger: silentLogger() }),
  clickhouse: () => createClickHouseStore({ url: http.url, database: database() }, { logger: silentLogger() }),
};

// A text parser: a line that does not match becomes a dead letter.
const config: StreamConfigModel = { parser: { type: 'text', pattern: '^(?<level>[A-Z]+) (?<msg>.*)$' } };
// Received now (to the second): rows received longer ago than their retention go at the next TTL merge (0007_retention.sql).
const RECEIVED = Math.floor(Date.now() / 1000) * 1000;
const batchId = (): string => randomBytes(16).toString('hex');

/** A message's rows as text, as unstoredRows reads them. */
type RowTexts = Omit<BatchRows, 'events' | 'deadLetters'> & Record<'events' | 'deadLetters', string>;

/** A message of `n` JSON records (some dated by `@timestamp` months apart) and two text records, one a dead letter. */
function message(streamId: number, n: number): { id: string; rows: RowTexts } {
  const json = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? JSON.stringify({ i, '@timestamp': new Date(RECEIVED - i * 86_400_000).toISOString() }) : JSON.stringify({ i })));
  const text = [JSON.stringify('ERROR disk full'), JSON.stringify('no match here')];
  const id = batchId();
  const rows = processBatch(id, encodeBatch(streamId, [batchPart(RECEIVED, 'json', json), batchPart(RECEIVED + 1000, 'text', text)]), () => config);
  return { id, rows: { ...rows, events: rows.events.toString(), deadLetters: rows.deadLetters.toString() } };
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const every = (text: string, keep: (i: number) => boolean): string =>
  lines(text)
    .filter((_, i) => keep(i))
    .map((l) => `${l}\n`)
    .join('');

async function physical(store: AnalyticsStore, table: 'events' | 'dead_letters', streamId: number): Promise<{ rows: number; ids: number }> {
  const [row] = await store.query<{ rows: string; ids: string }>(`SELECT count() AS rows, uniqExact(id) AS ids FROM ${table} WHERE stream_id = {s:UInt64}`, { s: streamId });
  return { rows: Number(row!.rows), ids: Number(row!.ids) };
}

for (const [kind, open] of Object.entries(openers)) {
  const withStore = (title: string, body: (t: Test, store: AnalyticsStore) => Promise<void>): void => {
    t.test(`${kind}: ${title}`, async (t) => {
      const store = await open();
      t.teardown(() => store.close());
      await runMigrations(store, { logger: silentLogger() });
      await body(t, store);
    });
  };

  withStore('nothing stored: every row comes back, in order; all stored: none', async (t, store) => {
    const m = message(1, 12);
    t.equal(m.rows.deadLetterCount, 1);
    t.equal(await unstoredRows(store, 'events', m.rows.events), m.rows.events, 'events: the text as it was');
    t.equal(await unstoredRows(store, 'dead_letters', m.rows.deadLetters), m.rows.deadLetters, 'dead letters: the text as it was');
    await store.insert('events', Buffer.from(m.rows.events), { settings: EVENT_ROW_SETTINGS });
    await store.insert('dead_letters', Buffer.from(m.rows.deadLetters));
    t.equal(await unstoredRows(store, 'events', m.rows.events), '', 'events: none left');
    t.equal(await unstoredRows(store, 'dead_letters', m.rows.deadLetters), '', 'dead letters: none left');
    t.equal(await unstoredRows(store, 'events', ''), '', 'no rows, no query');
  });

  withStore('part of a message stored: only the rest comes back, in order', async (t, store) => {
    const m = message(2, 30);
    await store.insert('events', Buffer.from(every(m.rows.events, (i) => i % 3 === 0)), { settings: EVENT_ROW_SETTINGS });
    t.equal(
      await unstoredRows(store, 'events', m.rows.events),
      every(m.rows.events, (i) => i % 3 !== 0),
    );
  });

  withStore('a redelivery grouped differently: checked, it adds no physical copy; unchecked, it does', async (t, store) => {
    // First delivery: A and B fetched together, one insert whose token names the pair; A is not
    // acknowledged. Redelivery: A with C, a group (and token) never seen.
    const [a, b, c] = [message(3, 40), message(3, 25), message(3, 10)];
    await store.insert('events', Buffer.from(a.rows.events + b.rows.events), { deduplicationToken: `${a.id},${b.id}`, settings: EVENT_ROW_SETTINGS });
    const again = (await unstoredRows(store, 'events', a.rows.events)) + c.rows.events;
    t.equal(again, c.rows.events, "A's rows are all stored: only C's go in");
    await store.insert('events', Buffer.from(again), { deduplicationToken: `${a.id},${c.id}`, settings: EVENT_ROW_SETTINGS });
    const records = a.rows.eventCount + b.rows.eventCount + c.rows.eventCount;
    t.strictSame(await physical(store, 'events', 3), { rows: records, ids: records }, 'one physical row per record');

    // The same redelivery without the check, in another stream: copies that only FINAL hides.
    const [a2, b2, c2] = [message(4, 40), message(4, 25), message(4, 10)];
    await store.insert('events', Buffer.from(a2.rows.events + b2.rows.events), { deduplicationToken: `${a2.id},${b2.id}`, settings: EVENT_ROW_SETTINGS });
    await store.insert('events', Buffer.from(a2.rows.events + c2.rows.events), { deduplicationToken: `${a2.id},${c2.id}`, settings: EVENT_ROW_SETTINGS });
    const unchecked = await physical(store, 'events', 4);
    t.equal(unchecked.ids, records);
    t.equal(unchecked.rows, records + a2.rows.eventCount, "unchecked, A's rows are there twice");
  });

  withStore(`more ids than one query binds (${IDS_PER_QUERY}), over two streams and months of dates`, async (t, store) => {
    const [m5, m6] = [message(5, 3 * IDS_PER_QUERY + 7), message(6, 2 * IDS_PER_QUERY)];
    const both = m5.rows.events + m6.rows.events;
    await store.insert('events', Buffer.from(every(both, (i) => i % 2 === 0)), { settings: EVENT_ROW_SETTINGS });
    t.equal(
      await unstoredRows(store, 'events', both),
      every(both, (i) => i % 2 === 1),
    );
  });

  withStore('rows in another form (key order, date text) are read whole; a row given twice comes back once', async (t, store) => {
    const m = message(7, 4);
    const [first, ...rest] = lines(m.rows.events).map((l) => JSON.parse(l) as Record<string, unknown>);
    await store.insert('events', Buffer.from(rest[0] ? `${JSON.stringify(rest[0])}\n` : ''), { settings: EVENT_ROW_SETTINGS });
    // Keys reversed and an ISO date: not the pipeline's row head.
    const reorder = (row: Record<string, unknown>): string =>
      JSON.stringify(Object.fromEntries(Object.entries({ ...row, ts: new Date(Date.parse(`${String(row['ts']).replace(' ', 'T')}Z`)).toISOString() }).reverse()));
    const text = `${[first!, ...rest].map(reorder).join('\n')}\n`;
    const expected = [first!, ...rest.slice(1)]
      .map(reorder)
      .map((l) => `${l}\n`)
      .join('');
    t.equal(await unstoredRows(store, 'events', text), expected);
    t.equal(
      await unstoredRows(store, 'events', m.rows.events + m.rows.events),
      every(m.rows.events, (i) => i !== 1),
      'each unstored row once',
    );
  });
}

/**
 * Issue #34, retention: the tables' DDL says how long they keep their rows (0007_retention.sql),
 * brought to the configuration at start (retention.ts); a short retention, applied by
 * `OPTIMIZE TABLE … FINAL`, removes the rows dated before it and keeps the others; a stream's
 * retentionDays reaches its event rows; `ops_table_bytes` reports each table's disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { AnalyticsStore } from '../../../services/runtime/adapters/analytics/analytics.port.js';
import { createChdbStore } from '../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { runMigrations } from '../../../services/runtime/adapters/analytics/migrations.js';
import { applyRetention } from '../../../services/runtime/adapters/analytics/retention.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { startTestPlatform } from '../../support/platform.js';
import { ingestSettled } from '../../support/settled.js';

const logger = silentLogger();
const DAY = 86_400_000;
const now = Date.now();
const at = (msAgo: number): string => new Date(now - msAgo).toISOString().replace('T', ' ').replace('Z', '');
let seq = 0;
const uuid = (): string => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;

async function ddl(store: AnalyticsStore, table: string): Promise<string> {
  const [row] = await store.query<{ statement: string }>(`SHOW CREATE TABLE ${table}`);
  return row?.statement ?? '';
}

async function left(store: AnalyticsStore, table: string, column: string): Promise<string[]> {
  await store.command(`OPTIMIZE TABLE ${table} FINAL`);
  return (await store.query<{ v: string }>(`SELECT toString(${column}) AS v FROM ${table} ORDER BY v`)).map((r) => r.v);
}

t.test('the DDL carries the retention, and a short one removes what is older', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-retention-'));
  const store = await createChdbStore({ dataDir: dir }, { logger });
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await runMigrations(store, { logger });
  t.same(await applyRetention(store, { eventsDays: 30, problemsDays: 400, deadLettersDays: 7 }, { logger }), [], 'the defaults are the migration’s: nothing to change');

  t.match(
    await ddl(store, 'events'),
    /`retention_days` UInt16 DEFAULT 30[\s\S]*TTL toDateTime\(received_at\) \+ toIntervalDay\(retention_days\)/,
    'events: from receipt, by their own days',
  );
  t.match(await ddl(store, 'dead_letters'), /TTL toDateTime\(received_at\) \+ toIntervalDay\(7\)/, 'dead letters: 7 days');
  t.match(
    await ddl(store, 'problems'),
    /TTL if\(\(date_end IS NULL\) OR \(is_deleted = 1\), .*toIntervalDay\(400\)\)/,
    'problems: 400 days from their end, open ones and deletion markers kept',
  );
  t.match(await ddl(store, 'trigger_hits'), /TTL toDateTime\(ts\) \+ toIntervalDay\(400\)/, 'trigger hits: as the problems');
  t.match(await ddl(store, 'problem_actions'), /TTL toDateTime\(at\) \+ toIntervalDay\(400\)/, 'problem actions: as the problems');

  const event = (label: string, receivedDaysAgo: number, days?: number, ts = at(receivedDaysAgo * DAY)) => ({
    id: uuid(),
    stream_id: 1,
    ts,
    received_at: at(receivedDaysAgo * DAY),
    route: '',
    labels: {},
    payload: JSON.stringify({ label }),
    ...(days === undefined ? {} : { retention_days: days }),
  });
  await store.insert('events', [
    event('received 2 days ago, kept 1 day', 2, 1),
    event('received 2 days ago, dated 2099, kept 1 day', 2, 1, '2099-01-01 00:00:00.000'),
    event('received 2 days ago, kept by default', 2),
    event('received now, kept 1 day', 0, 1),
    event('received now, dated 2010, kept 1 day', 0, 1, '2010-01-01 00:00:00.000'),
  ]);
  t.same(
    await left(store, 'events', "JSONExtractString(payload, 'label')"),
    ['received 2 days ago, kept by default', 'received now, dated 2010, kept 1 day', 'received now, kept 1 day'],
    "events: those received more than their days ago are gone, whatever the sender's date",
  );

  await store.insert('dead_letters', [
    { id: uuid(), stream_id: 1, received_at: at(8 * DAY), reason: '8 days', payload: '' },
    { id: uuid(), stream_id: 1, received_at: at(6 * DAY), reason: '6 days', payload: '' },
  ]);
  t.same(await left(store, 'dead_letters', 'reason'), ['6 days'], 'dead letters: a week');

  const problem = (trigger: number, startDaysAgo: number, endDaysAgo: number | null) => ({
    id: uuid(),
    trigger_id: trigger,
    trigger_name: `t${trigger}`,
    ci_id: 1,
    date_start: at(startDaysAgo * DAY),
    date_end: endDaysAgo === null ? null : at(endDaysAgo * DAY),
    last_event_at: at(startDaysAgo * DAY),
    version: 1,
    is_deleted: 0,
  });
  await store.insert('problems', [problem(1, 410, 401), problem(2, 410, 399), problem(3, 500, null), problem(4, 3, 2)]);
  t.same(await left(store, 'problems', 'trigger_id'), ['2', '3', '4'], 'problems: ended 401 days ago gone; 399 days ago and open for 500 kept');
  await store.insert('trigger_hits', [
    { trigger_id: 1, ci_id: 1, ts: at(401 * DAY), event_id: 'a', resolve: 0 },
    { trigger_id: 2, ci_id: 1, ts: at(399 * DAY), event_id: 'b', resolve: 0 },
  ]);
  t.same(await left(store, 'trigger_hits', 'trigger_id'), ['2'], 'trigger hits: 400 days');
  await store.insert('problem_actions', [
    { problem_id: uuid(), at: at(401 * DAY), action_id: uuid(), kind: 'comment', ci_id: 1, by_id: 1, by_name: 'a', text: '401' },
    { problem_id: uuid(), at: at(399 * DAY), action_id: uuid(), kind: 'comment', ci_id: 1, by_id: 1, by_name: 'a', text: '399' },
  ]);
  t.same(await left(store, 'problem_actions', 'text'), ['399'], 'problem actions: 400 days');

  // A day, on rows dated two days ago that were kept until now.
  t.same((await applyRetention(store, { eventsDays: 7, problemsDays: 1, deadLettersDays: 1 }, { logger })).sort(), [
    'dead_letters',
    'events',
    'problem_actions',
    'problems',
    'trigger_hits',
  ]);
  t.match(await ddl(store, 'problems'), /toIntervalDay\(1\)/, 'the DDL says the configured days');
  t.match(await ddl(store, 'events'), /`retention_days` UInt16 DEFAULT 7/, "the events' default is the configured days");
  t.same(await left(store, 'problems', 'trigger_id'), ['3'], 'problems: those ended two days ago are gone; the open one stays');
  t.same(await left(store, 'dead_letters', 'reason'), [], 'dead letters: the one of 6 days ago is gone under a day');
  t.same(await applyRetention(store, { eventsDays: 7, problemsDays: 1, deadLettersDays: 1 }, { logger }), [], 'nothing to change the second time');

  await store.insert('events', [event('after the change', 0)]);
  const [row] = await store.query<{ days: number }>("SELECT retention_days AS days FROM events WHERE JSONExtractString(payload, 'label') = 'after the change'");
  t.equal(Number(row?.days), 7, 'a row stored after the change takes the new default');
});

t.test("a stream's retentionDays reaches its rows; ops_table_bytes reports each table", async (t) => {
  const p = await startTestPlatform({ env: { OPS_EVENTS_RETENTION_DAYS: '14', OPS_MIN_FREE_DISK: '0' } });
  t.teardown(() => p.stop());
  const short = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'short', config: { retentionDays: 2 } } });
  t.equal(short.status, 201, `a stream with retentionDays: ${short.text}`);
  t.equal(short.body.config.retentionDays, 2);
  const plain = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'plain' } });
  for (const s of [short.body, plain.body]) {
    const sent = await p.api('POST', `/api/public/cl/v1/stream-data?streamKey=${s.key}`, {
      body: '{"a":1}\n{"a":2}',
      headers: { 'content-type': 'application/x-ndjson' },
      token: null,
    });
    t.equal(sent.status, 200);
  }
  await ingestSettled(p.platform);
  const rows = await p.platform.engines.analytics.query<{ stream_id: string; days: number; n: string }>(
    'SELECT stream_id, retention_days AS days, count() AS n FROM events GROUP BY stream_id, days ORDER BY stream_id',
  );
  t.same(
    rows.map((r) => [Number(r.stream_id), Number(r.days), Number(r.n)]),
    [
      [short.body.id, 2, 2],
      [plain.body.id, 14, 2],
    ],
    "the stream's days, or OPS_EVENTS_RETENTION_DAYS",
  );
  const metrics = await p.api('GET', '/metrics', { token: null });
  t.match(metrics.text, /^ops_table_bytes\{table="events"\} [1-9]\d*$/m, 'bytes on disk of the events table');
  t.match(metrics.text, /^ops_table_rows\{table="events"\} 4$/m, 'and its rows');
});

/**
 * Where a report's results live (schemas/migrations/0010_report_copies_by_report.sql): one
 * partition per report, never merged, dropped whole; and the reports calculated before that
 * migration keep their copies. On chDB in a temporary directory, through the migrations as a
 * platform applies them.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import { DROP_REPORT_PROBLEMS, REPORTS_IN_PROBLEMS, SLA_REPORT_PROBLEMS, type SlaReportProblemRow } from '../../../schemas/tables/sla-report-problems.table.js';
import { DROP_REPORT_ROWS, REPORTS_IN_ROWS, SLA_REPORT_ROWS, type SlaReportRow } from '../../../schemas/tables/sla-report-rows.table.js';
import type { AnalyticsStore } from '../../../services/runtime/adapters/analytics/analytics.port.js';
import { createChdbStore } from '../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { runMigrations } from '../../../services/runtime/adapters/analytics/migrations.js';
import { silentLogger } from '../../../services/runtime/logger.js';

const migrationsDir = new URL('../../../schemas/migrations/', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'ops-report-copies-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

/** Dated by the real clock, as the worker dates rows: the tables' TTL runs on it and drops older ones at insert. */
const CREATED = clickhouseDateTime(Date.now());
const REPORT_A = '0b6f4c8e-0000-4000-8000-00000000000a';
const REPORT_B = '0b6f4c8e-0000-4000-8000-00000000000b';

const problemRow = (reportId: string, n: number): SlaReportProblemRow => ({
  report_id: reportId,
  id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
  trigger_id: 1,
  trigger_name: 'cpu',
  ci_id: 7,
  date_start: `2026-11-25 0${n}:00:00.000`,
  date_end: null,
  priority: 1,
  tags: '[]',
  incidents: '[]',
  influence_value: 60,
  influence_max: 0,
  with_maintenance: 0,
  created_at: CREATED,
});
const resultRow = (reportId: string, seq: number): SlaReportRow => ({ report_id: reportId, kind: 'configItems', seq, row: `{"seq":${seq}}`, created_at: CREATED });

/** Rows on disk, without FINAL: a copy that collapsed only at read would not count as one. */
async function physical(store: AnalyticsStore, table: string, reportId: string): Promise<number> {
  const [row] = await store.query<{ n: string }>(`SELECT count() AS n FROM ${table} WHERE report_id = {r:String}`, { r: reportId });
  return Number(row?.n);
}

async function openStore(name: string): Promise<AnalyticsStore> {
  return createChdbStore({ dataDir: join(root, name) }, { logger: silentLogger() });
}

t.test('reports calculated before the copies moved to partitions keep their problems and rows, each once', async (t) => {
  const store = await openStore('upgrade');
  t.teardown(() => store.close());
  // The schema as it was: every migration before 0010.
  const before = join(root, 'before-0010');
  for (const file of readdirSync(migrationsDir).filter((f) => f < '0010')) cpSync(join(migrationsDir, file), join(before, file));
  await runMigrations(store, { logger: silentLogger() }, before);
  await store.insert('sla_report_problems', [problemRow(REPORT_A, 1), problemRow(REPORT_A, 2), problemRow(REPORT_B, 3)]);
  await store.insert('sla_report_rows', [resultRow(REPORT_A, 0), resultRow(REPORT_B, 0), resultRow(REPORT_B, 1)]);

  const { applied } = await runMigrations(store, { logger: silentLogger() });
  t.ok(applied.includes('0010_report_copies_by_report'), 'the migration ran');
  t.equal(await physical(store, SLA_REPORT_PROBLEMS.name, REPORT_A), 2, 'report A: its two problems');
  t.equal(await physical(store, SLA_REPORT_PROBLEMS.name, REPORT_B), 1, 'report B: its problem');
  t.equal(await physical(store, SLA_REPORT_ROWS.name, REPORT_A), 1, 'report A: its row');
  t.equal(await physical(store, SLA_REPORT_ROWS.name, REPORT_B), 2, 'report B: its two rows');
  const read = await store.query<{ row: string }>(`SELECT row FROM ${SLA_REPORT_ROWS.name} FINAL WHERE report_id = {r:String} ORDER BY seq`, { r: REPORT_B });
  t.same(
    read.map((r) => r.row),
    ['{"seq":0}', '{"seq":1}'],
    'read back by report with FINAL, as the export reads',
  );
  t.same((await runMigrations(store, { logger: silentLogger() })).applied, [], 'applied once');
});

const reportsIn = async (store: AnalyticsStore, sql: string): Promise<string[]> => (await store.query<{ report_id: string }>(sql)).map((r) => r.report_id).sort();

t.test("dropping a report's rows takes its partition and leaves the other reports'", async (t) => {
  const store = await openStore('drop');
  t.teardown(() => store.close());
  await runMigrations(store, { logger: silentLogger() });
  await store.insert(SLA_REPORT_PROBLEMS.name, [problemRow(REPORT_A, 1), problemRow(REPORT_B, 2)]);
  await store.insert(SLA_REPORT_ROWS.name, [resultRow(REPORT_A, 0), resultRow(REPORT_B, 0)]);
  t.same(await reportsIn(store, REPORTS_IN_PROBLEMS), [REPORT_A, REPORT_B], 'the reports with a copy, from the partitions');
  t.same(await reportsIn(store, REPORTS_IN_ROWS), [REPORT_A, REPORT_B], 'the reports with rows, from the partitions');

  await store.command(DROP_REPORT_PROBLEMS, { report: REPORT_A });
  await store.command(DROP_REPORT_ROWS, { report: REPORT_A });
  t.equal(await physical(store, SLA_REPORT_PROBLEMS.name, REPORT_A), 0, 'no problem of A left on disk');
  t.equal(await physical(store, SLA_REPORT_ROWS.name, REPORT_A), 0, 'no row of A left on disk');
  t.equal(await physical(store, SLA_REPORT_PROBLEMS.name, REPORT_B), 1, "B's problem kept");
  t.equal(await physical(store, SLA_REPORT_ROWS.name, REPORT_B), 1, "B's row kept");
  t.same(await reportsIn(store, REPORTS_IN_PROBLEMS), [REPORT_B], 'A no longer listed with a copy');
  t.same(await reportsIn(store, REPORTS_IN_ROWS), [REPORT_B], 'A no longer listed with rows');
  await store.command(DROP_REPORT_ROWS, { report: REPORT_A });
  t.pass('a report with nothing stored drops without an error (a first run, or a second purge)');
});

t.test("a report's copy is never merged: its table forbids merges, its TTL drops whole parts", async (t) => {
  const store = await openStore('settings');
  t.teardown(() => store.close());
  await runMigrations(store, { logger: silentLogger() });
  for (const table of [SLA_REPORT_PROBLEMS.name, SLA_REPORT_ROWS.name]) {
    const [row] = await store.query<{ engine_full: string; partition_key: string }>(
      'SELECT engine_full, partition_key FROM system.tables WHERE database = currentDatabase() AND name = {t:String}',
      { t: table },
    );
    t.equal(row?.partition_key, 'report_id', `${table}: one partition per report`);
    for (const setting of ['max_bytes_to_merge_at_max_space_in_pool = 1', 'max_bytes_to_merge_at_min_space_in_pool = 1', 'ttl_only_drop_parts = 1']) {
      t.match(row?.engine_full, setting, `${table}: ${setting}`);
    }
  }
});

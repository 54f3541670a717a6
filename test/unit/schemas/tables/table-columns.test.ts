/**
 * Each table module (schemas/tables/*.table.ts) states the columns the migrations create, in
 * their order and with their types: the migrations are applied to chDB in a temporary directory
 * and each table described.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Table } from '../../../../schemas/tables/table.js';
import { createChdbStore } from '../../../../services/runtime/adapters/analytics/chdb.adapter.js';
import { runMigrations } from '../../../../services/runtime/adapters/analytics/migrations.js';
import { silentLogger } from '../../../../services/runtime/logger.js';

const tablesDir = new URL('../../../../schemas/tables/', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'ops-table-columns-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

const isTable = (value: unknown): value is Table<Record<string, string>> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Table<Record<string, string>>).name === 'string' &&
  Array.isArray((value as Table<Record<string, string>>).columns);

t.test('each table module lists the columns the migrations create', async (t) => {
  const store = await createChdbStore({ dataDir, database: `ops_${randomBytes(4).toString('hex')}` }, { logger: silentLogger() });
  t.teardown(() => store.close());
  await runMigrations(store, { logger: silentLogger() });
  const modules = readdirSync(tablesDir).filter((file) => file.endsWith('.table.ts'));
  const tables: Array<Table<Record<string, string>>> = [];
  for (const file of modules) {
    const exported = Object.values((await import(join(tablesDir, file))) as Record<string, unknown>).filter(isTable);
    t.equal(exported.length, 1, `${file} states one table`);
    tables.push(...exported);
  }
  for (const table of tables) {
    const described = await store.query<{ name: string; type: string }>(`DESCRIBE TABLE ${table.name}`);
    t.same(
      table.columns.map((name) => ({ name, type: table.types[name] })),
      described.map((c) => ({ name: c.name, type: c.type })),
      `${table.name}: columns and types in order`,
    );
  }
  t.ok(tables.length >= 5);
});

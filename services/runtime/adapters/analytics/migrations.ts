/**
 * Schema migrations for the analytics store: `NNNN_name.sql` files applied in order, each once,
 * through the port, so the chDB and server modes get the same schema from the same SQL.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_MIGRATIONS, type SchemaMigrationRow } from '../../../../schemas/tables/schema-migrations.table.js';
import type { Logger } from '../../logger.js';
import type { AnalyticsStore } from './analytics.port.js';

const DEFAULT_DIR = fileURLToPath(new URL('../../../../schemas/migrations/', import.meta.url));
const FILE = /^(\d{4})_([A-Za-z0-9_-]+)\.sql$/;

interface Migration {
  version: number;
  name: string;
  file: string;
}

/**
 * Two processes starting at once may both apply a migration: its statements say IF NOT EXISTS, so
 * the second run changes nothing, and the doubled record collapses (ReplacingMergeTree, DISTINCT).
 */
export async function runMigrations(store: AnalyticsStore, deps: { logger: Logger }, dir = DEFAULT_DIR): Promise<{ applied: string[] }> {
  const logger = deps.logger.child({ component: 'migrations' });
  await store.command(
    `CREATE TABLE IF NOT EXISTS ${SCHEMA_MIGRATIONS.name} (${SCHEMA_MIGRATIONS.columns.map((c) => `${c} ${SCHEMA_MIGRATIONS.types[c]}`).join(', ')})
     ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const done = new Set((await store.query<{ version: number }>(`SELECT DISTINCT version FROM ${SCHEMA_MIGRATIONS.name}`)).map((row) => Number(row.version)));
  const applied: string[] = [];
  for (const migration of await listMigrations(dir)) {
    if (done.has(migration.version)) continue;
    for (const statement of splitStatements(await readFile(join(dir, migration.file), 'utf8'))) {
      await store.command(statement);
    }
    const row: SchemaMigrationRow = { version: migration.version, name: migration.name, applied_at: utcText(new Date()) };
    await store.insert(SCHEMA_MIGRATIONS.name, [row]);
    logger.info({ version: migration.version, name: migration.name }, 'migration applied');
    applied.push(migration.name);
  }
  return { applied };
}

async function listMigrations(dir: string): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort()) {
    const match = FILE.exec(file);
    // A misnamed file would otherwise be skipped in silence and its schema never created.
    if (!match) throw new Error(`migration file ${file} is not named NNNN_name.sql`);
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version)) throw new Error(`two migration files have version ${match[1]}`);
    migrations.push({ version, name: file.slice(0, -'.sql'.length), file });
  }
  return migrations;
}

/** Statements end with `;` at the end of a line; a server runs one statement per request. */
function splitStatements(text: string): string[] {
  return text
    .split(/;[ \t]*$/m)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--')));
}

/** `YYYY-MM-DD hh:mm:ss.sss`, which a DateTime64(3, 'UTC') column reads without any input setting. */
function utcText(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

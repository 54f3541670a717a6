/**
 * The `schema_migrations` table: which migration files (schemas/migrations/NNNN_name.sql) the
 * store has applied. Created and written by services/runtime/adapters/analytics/migrations.ts
 * before any migration runs, so its CREATE is there, not in a migration.
 */
import { type RowOf, table } from './table.js';

export const SCHEMA_MIGRATIONS = table('schema_migrations', {
  version: 'UInt32',
  name: 'String',
  applied_at: "DateTime64(3, 'UTC')",
});

export type SchemaMigrationRow = RowOf<typeof SCHEMA_MIGRATIONS>;

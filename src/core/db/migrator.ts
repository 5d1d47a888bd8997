import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from './schema.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_FILE = /^(\d{4}-[a-z0-9-]+)\.(ts|js)$/;

/** Loads `migrations/NNNN-description.ts`, ordered by name. */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
      const match = MIGRATION_FILE.exec(file);
      if (!match) continue;
      migrations[match[1]] = (await import(pathToFileURL(join(MIGRATIONS_DIR, file)).href)) as Migration;
    }
    return migrations;
  }
}

/**
 * On PostgreSQL the migration tables live in the connection's current schema, named explicitly:
 * otherwise Kysely would take the tables of any schema in the database (another test run's) as ours.
 */
async function migrationSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrationTableSchema = await migrationSchema(db);
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider(), migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

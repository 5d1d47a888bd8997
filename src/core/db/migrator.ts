import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider, type TableMetadata } from 'kysely';
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

/**
 * Kysely's migrator asks whether its own tables exist by introspecting every column of every table
 * in every schema of the database, calling pg_get_serial_sequence on each. That read waits on any
 * table another session holds locked and fails when another schema is dropped meanwhile (parallel
 * test runs, other tenants of a shared database). Here it sees the tables of our schema only.
 */
function introspectingOnly(db: Kysely<any>, schema: string): Kysely<any> {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_catalog.pg_tables where schemaname = ${schema}`.execute(db);
    return rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => [{ name: schema }],
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrationTableSchema = await migrationSchema(db);
  const migrator = new Migrator({
    db: migrationTableSchema ? introspectingOnly(db, migrationTableSchema) : db,
    provider: new FolderMigrationProvider(),
    migrationTableSchema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  Migrator,
  sql,
  type DatabaseIntrospector,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type TableMetadata,
} from 'kysely';
import { isPostgres } from './schema.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_FILE = /^(\d{4}-[a-z0-9-]+)\.(ts|js)$/;

/** Loads `migrations/NNNN-description.ts`, ordered by name. */
export class FolderMigrationProvider implements MigrationProvider {
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
export async function migrationSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{
    schema: string | null;
    path: string;
  }>`select current_schema() as schema, current_setting('search_path') as path`.execute(db);
  const schema = rows[0]?.schema;
  // null when no schema of the search path exists: say so rather than migrate into another one
  if (!schema)
    throw new Error(
      `no schema of the search path (${rows[0]?.path ?? '?'}) exists: create the schema DATABASE_SCHEMA names first`,
    );
  return schema;
}

/**
 * Kysely's migrator asks whether its own tables exist by introspecting every column of every table
 * in every schema of the database, calling pg_get_serial_sequence on each. That read waits on any
 * table another session holds locked and fails when another schema is dropped meanwhile (parallel
 * test runs, other tenants of a shared database). Here it sees the tables of our schema only.
 */
export function introspectingOnly(db: Kysely<any>, schema: string): Kysely<any> {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{
      name: string;
    }>`select tablename as name from pg_catalog.pg_tables where schemaname = ${schema}`.execute(db);
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
  if (isPostgres(db)) return runMigrations(db, await migrationSchema(db));
  return underSqliteWriteLock(db, (connection) => runMigrations(connection, undefined));
}

async function runMigrations(db: Kysely<any>, migrationTableSchema: string | undefined): Promise<string[]> {
  const migrator = new Migrator({
    db: migrationTableSchema ? introspectingOnly(db, migrationTableSchema) : db,
    provider: new FolderMigrationProvider(),
    migrationTableSchema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** How long a process waits for another one's migrations on SQLite before it gives up. */
const SQLITE_MIGRATION_WAIT_MS = 120_000;

/**
 * SQLite: Kysely's migration lock does nothing across processes (a server and a CLI command started
 * at once on a fresh file both created the same tables). The whole run holds the database's write
 * lock instead (`BEGIN IMMEDIATE`), from reading which migrations are applied to the last one: a
 * second process waits for it, then finds nothing left to do. SQLite's DDL is transactional, so a
 * failing migration rolls the whole run back. PostgreSQL keeps Kysely's advisory lock.
 */
async function underSqliteWriteLock<T>(db: Kysely<any>, run: (connection: Kysely<any>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    const deadline = Date.now() + SQLITE_MIGRATION_WAIT_MS;
    // each attempt waits busy_timeout (src/core/db/index.ts) for the lock
    for (;;) {
      try {
        await sql`begin immediate`.execute(connection);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      }
    }
    try {
      const result = await run(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

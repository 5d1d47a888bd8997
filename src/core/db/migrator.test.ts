import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely';
import pg from 'pg';
import { testDatabaseUrl } from '../../../test/helpers/server.js';
import { createDatabase } from './index.js';
import { FolderMigrationProvider, introspectingOnly, migrateToLatest, migrationSchema } from './migrator.js';

const pgUrl = testDatabaseUrl;
type AnyDb = Parameters<typeof introspectingOnly>[0];

/** Another tenant of the database (a parallel test run) creating and dropping a schema of its own, over and over. */
async function churnSchemas(name: string, until: () => boolean): Promise<number> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  let rounds = 0;
  try {
    while (!until()) {
      const tables = Array.from(
        { length: 40 },
        (_, i) => `create table ${name}.t${i} (id serial primary key, a int, b text);`,
      ).join('');
      await client.query(`create schema ${name}; ${tables}`);
      await client.query(`drop schema ${name} cascade`);
      rounds += 1;
    }
  } finally {
    await client.end();
  }
  return rounds;
}

/**
 * Kysely's own introspector reads every schema of the database, so a schema that a parallel test file drops
 * while it reads makes it fail (the very race docs/decisions/0010 is about). As the reference it is retried.
 */
async function asReference<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      const code = (error as { code?: string }).code;
      const droppedMeanwhile = code === '3F000' || code === '42P01';
      if (!droppedMeanwhile || attempt >= 20) throw error;
    }
  }
}

/** A database of its own on a fresh schema of the test database. */
async function freshSchema(admin: pg.Client, schema: string) {
  await admin.query(`create schema ${schema}`);
  return createDatabase({
    databaseUrl: pgUrl!,
    pgSchema: schema,
    pgPoolSize: 2,
    sqlitePath: '',
    sqliteSynchronous: 'FULL',
  });
}

/** What a migrator over `db` lists: each migration's name and when it ran (retried when `db` is the reference). */
async function listed(db: AnyDb, schema: string, reference = false) {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider(), migrationTableSchema: schema });
  const read = () => migrator.getMigrations();
  const migrations = await (reference ? asReference(read) : read());
  return migrations.map(({ name, executedAt }) => ({ name, executedAt }));
}

describe('migrateToLatest on PostgreSQL', () => {
  it.runIf(pgUrl)(
    "lists the migrations and tables that Kysely's own introspector does (docs/decisions/0010)",
    async () => {
      const schema = `m_same_${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      const handle = await freshSchema(admin, schema);
      try {
        const own = introspectingOnly(handle.db, schema);
        const readOf = <T>(db: AnyDb, read: () => Promise<T>) => (db === own ? read() : asReference(read));
        const tableNames = async (db: AnyDb) =>
          (await readOf(db, () => db.introspection.getTables({ withInternalKyselyTables: true })))
            .filter((t) => t.schema === schema && !t.isView)
            .map((t) => t.name)
            .sort();
        const schemaNames = async (db: AnyDb) =>
          (await readOf(db, () => db.introspection.getSchemas())).map((s) => s.name).filter((name) => name === schema);
        // before the first migration (no migration table yet), then after it
        expect(await listed(own, schema)).toEqual(await listed(handle.db, schema, true));
        expect(await migrationSchema(handle.db)).toBe(schema);
        expect(await migrateToLatest(handle.db)).toContain('0800-change-notifications');
        const applied = await listed(own, schema);
        expect(applied.every((m) => m.executedAt instanceof Date)).toBe(true);
        expect(applied).toEqual(await listed(handle.db, schema, true));
        expect(await tableNames(own)).toEqual(await tableNames(handle.db));
        expect(await tableNames(own)).toContain('kysely_migration');
        expect(await schemaNames(own)).toEqual(await schemaNames(handle.db));
      } finally {
        await handle.close();
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
    180_000,
  );

  it.runIf(pgUrl)(
    'looks at its own schema only: other schemas dropped meanwhile do not make it fail',
    async () => {
      const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      let done = false;
      const churn = churnSchemas(`m_churn_${suffix}`, () => done);
      const schemas: string[] = [];
      try {
        for (let run = 0; run < 4; run += 1) {
          const schema = `m_ours_${suffix}_${run}`;
          schemas.push(schema);
          const handle = await freshSchema(admin, schema);
          try {
            expect(await migrateToLatest(handle.db)).toContain('0800-change-notifications');
            expect(await migrateToLatest(handle.db)).toEqual([]);
          } finally {
            await handle.close();
          }
        }
      } finally {
        done = true;
        expect(await churn).toBeGreaterThan(0);
        for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
    180_000,
  );
});

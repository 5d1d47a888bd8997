import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/** Helpers for migrations, so one migration file produces the same schema on both engines. */

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Adds an integer identity primary key named `id`. */
export function withId<T extends string>(
  db: Kysely<any>,
  table: CreateTableBuilder<T, any>,
): CreateTableBuilder<T, any> {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** Creates a tenant table: `id` identity and `organization_id` not null, then the given columns. */
export function createTenantTable(db: Kysely<any>, name: string) {
  return withId(db, db.schema.createTable(name)).addColumn('organization_id', 'integer', (col) => col.notNull());
}

/** A column type for fractional numbers (hours) that is double precision on both engines. */
export const DOUBLE = sql`double precision`;

/** Creates the index `name` of `table` on `columns`. */
export function createIndexOn(db: Kysely<any>, name: string, table: string, columns: string[]): Promise<void> {
  return db.schema.createIndex(name).on(table).columns(columns).execute();
}

/** Creates the unique index `name` of `table` on `columns`. */
export function createUniqueIndexOn(db: Kysely<any>, name: string, table: string, columns: string[]): Promise<void> {
  return db.schema.createIndex(name).on(table).columns(columns).unique().execute();
}

import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from './types.js';
import { isPostgres } from './schema.js';

export type Db = Kysely<Database>;

/** Runs fn in one transaction: everything it wrote is committed together or not at all. */
export function withTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}

/**
 * Locks the selected rows until the transaction ends (PostgreSQL `FOR UPDATE`).
 * SQLite needs no row lock: Kysely runs every SQLite transaction on the one connection, one at a
 * time, so a transaction that reads then writes cannot interleave with another.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate() : query;
}

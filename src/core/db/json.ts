import type { Kysely, RawBuilder } from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import { isPostgres } from './schema.js';

/**
 * A correlated subquery's rows as one JSON array column, in the engine's own JSON functions: lets a
 * loader fetch rows with their children in one statement instead of one per child table.
 * Read the column back with {@link parseJsonArray} (SQLite returns it as text, PostgreSQL parsed).
 */
export function jsonArrayFrom(
  db: Kysely<any>,
  subquery: Parameters<typeof sqliteJsonArrayFrom>[0],
): RawBuilder<unknown> {
  return isPostgres(db) ? postgresJsonArrayFrom(subquery) : sqliteJsonArrayFrom(subquery);
}

export function parseJsonArray<T>(value: unknown): T[] {
  if (value === null || value === undefined) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}

/**
 * The row type of what a query function builds: what {@link parseJsonArray} reads back of a
 * {@link jsonArrayFrom} column of that query.
 */
export type RowOf<F extends (...args: never[]) => { execute(): Promise<unknown[]> }> = Awaited<
  ReturnType<ReturnType<F>['execute']>
>[number];

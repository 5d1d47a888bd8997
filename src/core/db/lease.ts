import type { ExpressionBuilder } from 'kysely';
import type { Db } from './transaction.js';
import type { Database } from './types.js';

/**
 * Leases in the database: a background worker owns a row (a webhook endpoint, a callback) until
 * the instant in its `lease_until` column, so that several processes never work on the same row at
 * once. A crashed owner's lease simply runs out. Instants are UTC ISO strings, compared as text.
 */
export type LeasedTable = 'webhook_endpoint' | 'callback';

/** Rows no worker holds at `now` (a where clause for the worker's selection). */
export function leaseFree(now: string) {
  return (eb: ExpressionBuilder<Database, LeasedTable>) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]);
}

/** Takes the row for this worker until `until`; false when another worker got it first. */
export async function claimLease(db: Db, table: LeasedTable, row: { organization_id: number; id: number }, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable(table as 'callback')
    .set({ lease_until: until })
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .where(leaseFree(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Hands the row back at once. */
export async function releaseLease(db: Db, table: LeasedTable, row: { organization_id: number; id: number }): Promise<void> {
  await db
    .updateTable(table as 'callback')
    .set({ lease_until: null })
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .execute();
}

import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import type { Db } from './transaction.js';
import type { Database } from './types.js';

/**
 * Leases in the database: a background worker owns a row (a webhook endpoint, a callback) until
 * the instant in its `lease_until` column, so that several processes never work on the same row at
 * once. A crashed owner's lease simply runs out. Instants are UTC ISO strings, compared as text.
 */
export type LeasedTable = 'webhook_endpoint' | 'callback' | 'callback_auto_start';

type LeaseCondition = (eb: ExpressionBuilder<Database, LeasedTable>) => Expression<SqlBool>;

/** Rows no worker holds at `now` (a where clause for the worker's selection). */
export function leaseFree(now: string): LeaseCondition {
  return (eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]);
}

/**
 * Takes the row for this worker until `until` and answers it as it is at the claim; undefined when
 * another worker holds it, or it no longer meets `still` (the worker's selection, checked again).
 * One statement (`update … where free … returning *`): the row answered is the one the previous
 * owner handed back, never the copy the worker's selection read before the claim. A worker
 * works from the row answered here: the earlier copy may be stale (another worker may have
 * claimed, worked on and released the row in between), and working from it would do that work
 * twice (a webhook event sent twice).
 */
export async function claimLease<TB extends LeasedTable>(
  db: Db,
  table: TB,
  row: { organization_id: number; id: number },
  now: string,
  until: string,
  still?: (eb: ExpressionBuilder<Database, TB>) => Expression<SqlBool>,
): Promise<Selectable<Database[TB]> | undefined> {
  const claimed = await db
    .updateTable(table as LeasedTable)
    .set({ lease_until: until })
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .where(leaseFree(now))
    .$if(still !== undefined, (qb) => qb.where(still as unknown as LeaseCondition))
    .returningAll()
    .executeTakeFirst();
  return claimed as Selectable<Database[TB]> | undefined;
}

/**
 * The row is still this worker's: its lease is the one the claim set (`held.lease_until`, the
 * claimed row's). A worker that stalled past its lease, and so may have been replaced, writes nothing.
 */
export function leaseHeld(held: { lease_until: string | null }): LeaseCondition {
  return (eb) => eb('lease_until', '=', held.lease_until as string);
}

/** Hands the row back at once, if this worker still holds it (`held` is the claimed row). */
export async function releaseLease(
  db: Db,
  table: LeasedTable,
  held: { organization_id: number; id: number; lease_until: string | null },
): Promise<void> {
  await db
    .updateTable(table as 'callback')
    .set({ lease_until: null })
    .where('organization_id', '=', held.organization_id)
    .where('id', '=', held.id)
    .where(leaseHeld(held))
    .execute();
}

import type { Insertable, Updateable } from 'kysely';
import { orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';
import type { OffLimitRow, OffLimitTable } from './table.js';

export function listOffLimits(db: Db, orgId: number): Promise<OffLimitRow[]> {
  return orgRows(db, 'off_limit', orgId).orderBy('id').execute();
}

export function findOffLimitOrThrow(db: Db, orgId: number, id: number): Promise<OffLimitRow> {
  return orNotFound(orgRows(db, 'off_limit', orgId).where('id', '=', id).executeTakeFirst(), 'OffLimit');
}

/** Whether the organization has any off limit (the lock is taken only then). */
export async function hasOffLimits(db: Db, orgId: number): Promise<boolean> {
  return (await orgRows(db, 'off_limit', orgId).select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function insertOffLimit(db: Db, values: Insertable<OffLimitTable>): Promise<number> {
  const { id } = await db.insertInto('off_limit').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateOffLimit(db: Db, orgId: number, id: number, values: Updateable<OffLimitTable>) {
  await updateOrgRow(db, 'off_limit', orgId, id, values);
}

export async function deleteOffLimitRow(db: Db, orgId: number, id: number): Promise<void> {
  await db.deleteFrom('off_limit').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

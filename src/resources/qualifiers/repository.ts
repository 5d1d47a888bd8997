import type { Updateable } from 'kysely';
import { orgRows, rowsById, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import type { QualifierRow, QualifierTable } from './table.js';

export function listActiveQualifiers(db: Db, orgId: number): Promise<QualifierRow[]> {
  return orgRows(db, 'qualifier', orgId).where('deleted_at', 'is', null).orderBy('name').orderBy('id').execute();
}

/** Finds a qualifier whether or not it is deleted (the single form shows `deleted_at`). */
export async function findQualifierOrThrow(db: Db, orgId: number, id: number): Promise<QualifierRow> {
  return orgRows(db, 'qualifier', orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('Qualifier'));
}

/** Loads the active qualifiers named by ids in one query; 422 when one is missing or deleted. */
export async function findActiveQualifiersOrInvalid(
  db: Db,
  orgId: number,
  ids: number[],
): Promise<Map<number, QualifierRow>> {
  return rowsById(
    ids,
    (unique) => orgRows(db, 'qualifier', orgId).where('id', 'in', unique).where('deleted_at', 'is', null).execute(),
    () => invalidParams('The selected qualifier id is invalid.'),
  );
}

export async function insertQualifier(db: Db, values: Omit<QualifierRow, 'id'>): Promise<number> {
  const { id } = await db.insertInto('qualifier').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateQualifier(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<QualifierTable>,
): Promise<void> {
  await updateOrgRow(db, 'qualifier', orgId, id, values);
}

/** Active users holding the qualifier, best ranked first. */
export function listQualifierUsers(db: Db, orgId: number, qualifierId: number) {
  return db
    .selectFrom('user_qualifier')
    .innerJoin('user_account', 'user_account.id', 'user_qualifier.user_id')
    .select(['user_account.id', 'user_account.first_name', 'user_account.last_name', 'user_qualifier.ranking'])
    .where('user_qualifier.organization_id', '=', orgId)
    .where('user_account.organization_id', '=', orgId)
    .where('user_qualifier.qualifier_id', '=', qualifierId)
    .where('user_account.deleted_at', 'is', null)
    .where('user_account.active', '=', 1)
    .orderBy('user_qualifier.ranking')
    .orderBy('user_account.last_name')
    .orderBy('user_account.first_name')
    .execute();
}

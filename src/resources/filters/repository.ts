import { assertOrgIds, orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { SpecialtyFilterRow } from './table.js';

export function listActiveFilters(db: Db, orgId: number): Promise<SpecialtyFilterRow[]> {
  return orgRows(db, 'specialty_filter', orgId).where('deleted_at', 'is', null).orderBy('id').execute();
}

/** Finds a filter whether or not it is deleted (the single form shows `deleted`). */
export async function findFilterOrThrow(db: Db, orgId: number, id: number): Promise<SpecialtyFilterRow> {
  return orgRows(db, 'specialty_filter', orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('Filter'));
}

export async function insertFilter(
  db: Db,
  orgId: number,
  values: { label: string; created_by: number | null; created_at: string },
) {
  const { id } = await db
    .insertInto('specialty_filter')
    .values({ ...values, organization_id: orgId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateFilter(db: Db, orgId: number, id: number, values: { label?: string; deleted_at?: string }) {
  await updateOrgRow(db, 'specialty_filter', orgId, id, values);
}

export const assertActiveFiltersExist = (db: Db, orgId: number, ids: number[]) =>
  assertOrgIds(db, 'specialty_filter', orgId, ids, 'filter id', true);

export function listFiltersOfUser(db: Db, orgId: number, userId: number): Promise<SpecialtyFilterRow[]> {
  return db
    .selectFrom('user_filter')
    .innerJoin('specialty_filter', 'specialty_filter.id', 'user_filter.filter_id')
    .selectAll('specialty_filter')
    .where('user_filter.organization_id', '=', orgId)
    .where('specialty_filter.organization_id', '=', orgId)
    .where('user_filter.user_id', '=', userId)
    .where('specialty_filter.deleted_at', 'is', null)
    .orderBy('specialty_filter.id')
    .execute();
}

export async function replaceFiltersOfUser(db: Db, orgId: number, userId: number, filterIds: number[]): Promise<void> {
  await db.deleteFrom('user_filter').where('organization_id', '=', orgId).where('user_id', '=', userId).execute();
  const unique = [...new Set(filterIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('user_filter')
    .values(unique.map((filter_id) => ({ organization_id: orgId, user_id: userId, filter_id })))
    .execute();
}

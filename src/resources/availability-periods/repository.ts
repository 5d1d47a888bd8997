import type { Insertable } from 'kysely';
import { orgRows, rowsById, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import type { AvailabilityPeriodRow, AvailabilityPeriodTable, UnavailabilityReasonRow } from './table.js';

/** Periods overlapping [start, end), by start. */
export function listPeriods(db: Db, orgId: number, start: string, end: string): Promise<AvailabilityPeriodRow[]> {
  return orgRows(db, 'availability_period', orgId)
    .where('deleted_at', 'is', null)
    .where('start', '<', end)
    .where('end', '>', start)
    .orderBy('start')
    .orderBy('id')
    .execute();
}

export async function findPeriodOrThrow(db: Db, orgId: number, id: number): Promise<AvailabilityPeriodRow> {
  return orgRows(db, 'availability_period', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('AvailabilityPeriod'));
}

export async function insertPeriod(db: Db, values: Insertable<AvailabilityPeriodTable>): Promise<number> {
  const { id } = await db.insertInto('availability_period').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function softDeletePeriod(db: Db, orgId: number, id: number, at: string): Promise<void> {
  await db
    .updateTable('availability_period')
    .set({ deleted_at: at })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export function listReasons(db: Db, orgId: number): Promise<UnavailabilityReasonRow[]> {
  return orgRows(db, 'unavailability_reason', orgId).where('deleted_at', 'is', null).orderBy('id').execute();
}

/** Reasons by id, deleted ones included (old periods keep their reason). */
export async function findReasonsByIds(
  db: Db,
  orgId: number,
  ids: Iterable<number>,
): Promise<Map<number, UnavailabilityReasonRow>> {
  return rowsById(ids, (unique) => orgRows(db, 'unavailability_reason', orgId).where('id', 'in', unique).execute());
}

export async function findReasonOrInvalid(db: Db, orgId: number, id: number): Promise<UnavailabilityReasonRow> {
  const row = await orgRows(db, 'unavailability_reason', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw invalidParams('The selected unavailability reason id is invalid.');
  return row;
}

export async function findReasonOrThrow(db: Db, orgId: number, id: number): Promise<UnavailabilityReasonRow> {
  return orgRows(db, 'unavailability_reason', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('UnavailabilityReason'));
}

export async function insertReason(db: Db, orgId: number, name: string): Promise<number> {
  const { id } = await db
    .insertInto('unavailability_reason')
    .values({ organization_id: orgId, name, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateReason(
  db: Db,
  orgId: number,
  id: number,
  values: { name?: string; deleted_at?: string },
): Promise<void> {
  await updateOrgRow(db, 'unavailability_reason', orgId, id, values);
}

import type { Insertable, Updateable } from 'kysely';
import { orgRows, rowsById, updateOrgRow } from '../../core/db/org-rows.js';
import { forUpdate, type Db } from '../../core/db/transaction.js';
import { invalidParams, orNotFound } from '../../core/errors.js';
import type { TimeOffTypeRow, TimeOffTypeTable } from './table.js';

export function findTimeOffType(db: Db, orgId: number, id: number): Promise<TimeOffTypeRow | undefined> {
  return orgRows(db, 'time_off_type', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findTimeOffTypeOrThrow(db: Db, orgId: number, id: number): Promise<TimeOffTypeRow> {
  return orNotFound(findTimeOffType(db, orgId, id), 'TimeOffType');
}

/** For a time off type id named in a body: 422 when it names no usable type. */
export async function findTimeOffTypeOrInvalid(db: Db, orgId: number, id: number): Promise<TimeOffTypeRow> {
  const row = await findTimeOffType(db, orgId, id);
  if (!row) throw invalidParams('The selected time off type id is invalid.');
  return row;
}

/** Types by id, deleted ones included (old entries keep showing their type). */
export async function findTimeOffTypesByIds(
  db: Db,
  orgId: number,
  ids: Iterable<number>,
): Promise<Map<number, TimeOffTypeRow>> {
  return rowsById(ids, (unique) => orgRows(db, 'time_off_type', orgId).where('id', 'in', unique).execute());
}

export function listTimeOffTypes(db: Db, orgId: number): Promise<TimeOffTypeRow[]> {
  return orgRows(db, 'time_off_type', orgId).where('deleted_at', 'is', null).orderBy('label').orderBy('id').execute();
}

export async function insertTimeOffType(db: Db, values: Insertable<TimeOffTypeTable>): Promise<number> {
  const { id } = await db.insertInto('time_off_type').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateTimeOffType(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<TimeOffTypeTable>,
): Promise<void> {
  await updateOrgRow(db, 'time_off_type', orgId, id, values);
}

/**
 * Makes `id` the organization's sick leave type (or not, with `sick` false). Setting it takes it
 * off the other types. The organization's row is locked first (PostgreSQL), so of two requests at
 * once the later one wins and exactly one type keeps the flag, new types included.
 */
export async function setSickLeave(trx: Db, orgId: number, id: number, sick: boolean): Promise<void> {
  await forUpdate(trx, trx.selectFrom('organization').select('id').where('id', '=', orgId)).execute();
  if (sick)
    await trx
      .updateTable('time_off_type')
      .set({ sick_leave: 0 })
      .where('organization_id', '=', orgId)
      .where('sick_leave', '=', 1)
      .where('id', '!=', id)
      .execute();
  await updateOrgRow(trx, 'time_off_type', orgId, id, { sick_leave: sick ? 1 : 0 });
}

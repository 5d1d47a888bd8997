import type { Insertable, Updateable } from 'kysely';
import { orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import { forUpdate, type Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';
import type { TimeOffTypeRow, TimeOffTypeTable } from './table.js';

// reads the banks need too: kept with them (accruals/repository.ts), whose reconciliation a type's edit calls
export {
  bankTypeOrInvalid as findTimeOffTypeOrInvalid,
  bankTypesByIds as findTimeOffTypesByIds,
  liveBankTypes as listTimeOffTypes,
} from '../accruals/repository.js';

export function findTimeOffType(db: Db, orgId: number, id: number): Promise<TimeOffTypeRow | undefined> {
  return orgRows(db, 'time_off_type', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findTimeOffTypeOrThrow(db: Db, orgId: number, id: number): Promise<TimeOffTypeRow> {
  return orNotFound(findTimeOffType(db, orgId, id), 'TimeOffType');
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

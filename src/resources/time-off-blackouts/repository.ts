import type { Insertable } from 'kysely';
import { orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';
import type { TimeOffBlackoutRow, TimeOffBlackoutTable } from './table.js';

export function listBlackouts(db: Db, orgId: number, typeId?: number): Promise<TimeOffBlackoutRow[]> {
  return orgRows(db, 'time_off_blackout', orgId)
    .$if(typeId !== undefined, (qb) => qb.where('time_off_type_id', '=', typeId!))
    .orderBy('start_date')
    .orderBy('id')
    .execute();
}

export function findBlackoutOrThrow(db: Db, orgId: number, id: number): Promise<TimeOffBlackoutRow> {
  return orNotFound(orgRows(db, 'time_off_blackout', orgId).where('id', '=', id).executeTakeFirst(), 'TimeOffBlackout');
}

/** The type's blackouts meeting the dates [first, last]. */
export function blackoutsMeeting(db: Db, orgId: number, typeId: number, first: string, last: string) {
  return orgRows(db, 'time_off_blackout', orgId)
    .where('time_off_type_id', '=', typeId)
    .where('start_date', '<=', last)
    .where('end_date', '>=', first)
    .orderBy('start_date')
    .orderBy('id')
    .execute();
}

export async function insertBlackout(db: Db, values: Insertable<TimeOffBlackoutTable>): Promise<number> {
  const { id } = await db.insertInto('time_off_blackout').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function deleteBlackoutRow(db: Db, orgId: number, id: number): Promise<void> {
  await db.deleteFrom('time_off_blackout').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

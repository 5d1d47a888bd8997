import { sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import type { MiscHourRow, MiscHourTable } from './table.js';

/** A misc-hours entry's own fields: what its writers give (the organization and creation time are added). */
export type MiscHourValues = Omit<MiscHourTable, 'id' | 'organization_id' | 'created_at'>;

/** Adds a misc-hours entry (callers validate the ids and write their own log line). */
export async function insertMiscHour(trx: Db, orgId: number, values: MiscHourValues): Promise<number> {
  const { id } = await trx
    .insertInto('misc_hour')
    .values({ ...values, organization_id: orgId, created_at: nowUtc() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Changes the entries a source wrote (a sign-up event's): they follow it (callers write their own log line). */
export async function updateMiscHoursOfSource(
  trx: Db,
  orgId: number,
  source: { source: string; id: number },
  values: Partial<MiscHourValues>,
): Promise<void> {
  await trx
    .updateTable('misc_hour')
    .set(values)
    .where('organization_id', '=', orgId)
    .where('source', '=', source.source)
    .where('source_id', '=', source.id)
    .execute();
}

export async function deleteMiscHour(trx: Db, orgId: number, id: number): Promise<void> {
  await trx.deleteFrom('misc_hour').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

export type MiscHourWithType = MiscHourRow & { work_type: string | null };

function selectWithType(db: Db, orgId: number) {
  return db
    .selectFrom('misc_hour')
    .leftJoin('work_type', sameOrg('work_type.id', 'misc_hour.work_type_id'))
    .selectAll('misc_hour')
    .select('work_type.label as work_type')
    .where('misc_hour.organization_id', '=', orgId);
}

/** Misc hours dated in [startDate, endDate] with their work type name, optionally of one user. */
export function miscForRange(
  db: Db,
  orgId: number,
  startDate: string,
  endDate: string,
  userId?: number,
): Promise<MiscHourWithType[]> {
  return selectWithType(db, orgId)
    .where('misc_hour.date', '>=', startDate)
    .where('misc_hour.date', '<=', endDate)
    .$if(userId !== undefined, (qb) => qb.where('misc_hour.user_id', '=', userId!))
    .orderBy('misc_hour.date')
    .orderBy('misc_hour.id')
    .execute();
}

/** Misc hours dated in [startDate, endDate] as GET /schedule shows them (read with its other items at once). */
export function scheduleMiscQuery(db: Db, orgId: number, startDate: string, endDate: string) {
  return db
    .selectFrom('misc_hour')
    .leftJoin('work_type', sameOrg('work_type.id', 'misc_hour.work_type_id'))
    .select(['misc_hour.id', 'misc_hour.user_id', 'misc_hour.date', 'misc_hour.length', 'work_type.label as work_type'])
    .where('misc_hour.organization_id', '=', orgId)
    .where('misc_hour.date', '>=', startDate)
    .where('misc_hour.date', '<=', endDate)
    .orderBy('misc_hour.date')
    .orderBy('misc_hour.id');
}

export async function findMiscHourOrThrow(db: Db, orgId: number, id: number): Promise<MiscHourWithType> {
  return orNotFound(selectWithType(db, orgId).where('misc_hour.id', '=', id).executeTakeFirst(), 'MiscHour');
}

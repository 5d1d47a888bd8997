import type { Insertable } from 'kysely';
import { orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';
import { APPROVED, PENDING, type TimeOffRow, type TimeOffTable } from './table.js';

export function findTimeOff(db: Db, orgId: number, id: number): Promise<TimeOffRow | undefined> {
  return orgRows(db, 'time_off', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findTimeOffOrThrow(db: Db, orgId: number, id: number): Promise<TimeOffRow> {
  return orNotFound(findTimeOff(db, orgId, id), 'TimeOff');
}

export interface TimeOffFilter {
  /** local datetimes; entries with an occurrence overlapping [start, end) */
  start: string;
  end: string;
  statuses: number[];
  userId?: number;
}

/**
 * Entries that may have an occurrence overlapping the range: `until` is the end of the last
 * occurrence (the entry's own end when it does not recur; null for a rule without end).
 */
export function listTimeOffsOverlapping(db: Db, orgId: number, filter: TimeOffFilter): Promise<TimeOffRow[]> {
  return orgRows(db, 'time_off', orgId)
    .where('deleted_at', 'is', null)
    .where('status', 'in', filter.statuses)
    .where('start', '<', filter.end)
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', filter.start)]))
    .$if(filter.userId !== undefined, (qb) => qb.where('user_id', '=', filter.userId!))
    .orderBy('start')
    .orderBy('id')
    .execute();
}

/** Pending and approved entries of a type for a user starting within the year (for instance_limit). */
export async function countEntriesInYear(
  db: Db,
  orgId: number,
  filter: { userId: number; typeId: number; year: number; exceptId?: number },
): Promise<number> {
  const row = await db
    .selectFrom('time_off')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where('user_id', '=', filter.userId)
    .where('time_off_type_id', '=', filter.typeId)
    .where('status', 'in', [PENDING, APPROVED])
    .where('start', '>=', `${filter.year}-01-01 00:00:00`)
    .where('start', '<', `${filter.year + 1}-01-01 00:00:00`)
    .$if(filter.exceptId !== undefined, (qb) => qb.where('id', '!=', filter.exceptId!))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The user's pending and approved entries that may overlap [start, end) (recurring ones by their whole reach). */
export function entriesMeeting(
  db: Db,
  orgId: number,
  filter: { userId: number; start: string; end: string; exceptId?: number },
): Promise<TimeOffRow[]> {
  return orgRows(db, 'time_off', orgId)
    .where('deleted_at', 'is', null)
    .where('user_id', '=', filter.userId)
    .where('status', 'in', [PENDING, APPROVED])
    .where('start', '<', filter.end)
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', filter.start)]))
    .$if(filter.exceptId !== undefined, (qb) => qb.where('id', '!=', filter.exceptId!))
    .orderBy('start')
    .execute();
}

export async function insertTimeOff(db: Db, values: Insertable<TimeOffTable>): Promise<number> {
  const { id } = await db.insertInto('time_off').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

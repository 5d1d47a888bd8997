import type { Insertable, Updateable } from 'kysely';
import { deleteOrgRows, orgColumns, orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound, orNotFound } from '../../core/errors.js';
import { nowUtc, Temporal } from '../../core/time.js';
import { expandWork } from '../../scheduling/index.js';
import type {
  RecurringShiftExceptionRow,
  RecurringShiftRow,
  RecurringShiftTable,
  RotationRow,
  RotationTable,
} from './table.js';

export function listRotations(db: Db, orgId: number): Promise<RotationRow[]> {
  return orgRows(db, 'rotation', orgId).where('deleted_at', 'is', null).orderBy('id').execute();
}

export function findRotationsByIds(db: Db, orgId: number, ids: number[]): Promise<RotationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('rotation').selectAll().where('organization_id', '=', orgId).where('id', 'in', ids).execute();
}

async function findRotation(db: Db, orgId: number, id: number): Promise<RotationRow | undefined> {
  return orgRows(db, 'rotation', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findRotationOrThrow(db: Db, orgId: number, id: number): Promise<RotationRow> {
  return orNotFound(findRotation(db, orgId, id), 'Rotation');
}

export async function findRotationOrInvalid(db: Db, orgId: number, id: number): Promise<RotationRow> {
  const rotation = await findRotation(db, orgId, id);
  if (!rotation) throw invalidParams('The selected rotation id is invalid.');
  return rotation;
}

export async function insertRotation(db: Db, values: Insertable<RotationTable>): Promise<number> {
  const { id } = await db.insertInto('rotation').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateRotation(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<RotationTable>,
): Promise<void> {
  await updateOrgRow(db, 'rotation', orgId, id, values);
}

/** Members of the rotation still scheduled on or after the date. */
export async function countActiveMembers(db: Db, orgId: number, rotationId: number, fromDate: string): Promise<number> {
  const rows = await orgColumns(db, 'recurring_shift', orgId, ['id'])
    .where('rotation_id', '=', rotationId)
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', fromDate)]))
    .execute();
  return rows.length;
}

export function listRecurringShifts(
  db: Db,
  orgId: number,
  filter: { userId?: number; rotationId?: number },
): Promise<RecurringShiftRow[]> {
  return orgRows(db, 'recurring_shift', orgId)
    .$if(filter.userId !== undefined, (qb) => qb.where('user_id', '=', filter.userId!))
    .$if(filter.rotationId !== undefined, (qb) => qb.where('rotation_id', '=', filter.rotationId!))
    .orderBy('start_date')
    .orderBy('id')
    .execute();
}

export async function findRecurringShiftOrThrow(db: Db, orgId: number, id: number): Promise<RecurringShiftRow> {
  return orgRows(db, 'recurring_shift', orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('RecurringShift'));
}

export async function insertRecurringShift(db: Db, values: Insertable<RecurringShiftTable>): Promise<number> {
  const { id } = await db.insertInto('recurring_shift').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateRecurringShift(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<RecurringShiftTable>,
): Promise<void> {
  await updateOrgRow(db, 'recurring_shift', orgId, id, values);
}

/** Removes a series and its exceptions (only for a series that has not started). */
export async function deleteRecurringShift(db: Db, orgId: number, id: number): Promise<void> {
  await deleteOrgRows(db, 'recurring_shift_exception', orgId).where('recurring_shift_id', '=', id).execute();
  await db.deleteFrom('recurring_shift').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

export function exceptionsOf(
  db: Db,
  orgId: number,
  recurringShiftIds: number[],
): Promise<RecurringShiftExceptionRow[]> {
  if (recurringShiftIds.length === 0) return Promise.resolve([]);
  return orgRows(db, 'recurring_shift_exception', orgId)
    .where('recurring_shift_id', 'in', recurringShiftIds)
    .orderBy('date')
    .execute();
}

export interface ExceptionValues {
  recurringShiftId: number;
  date: string;
  kind: 'removed' | 'moved';
  assignmentId: number | null;
  start: string | null;
  end: string | null;
  reason: string | null;
}

/** Writes the exception of one date, replacing an earlier one of the same date. */
export async function upsertException(db: Db, orgId: number, values: ExceptionValues): Promise<void> {
  await deleteException(db, orgId, values.recurringShiftId, values.date);
  await db
    .insertInto('recurring_shift_exception')
    .values({
      organization_id: orgId,
      recurring_shift_id: values.recurringShiftId,
      date: values.date,
      kind: values.kind,
      assignment_id: values.assignmentId,
      start: values.start,
      end: values.end,
      reason: values.reason,
      created_at: nowUtc(),
    })
    .execute();
}

export async function deleteException(db: Db, orgId: number, recurringShiftId: number, date: string): Promise<number> {
  const result = await deleteOrgRows(db, 'recurring_shift_exception', orgId)
    .where('recurring_shift_id', '=', recurringShiftId)
    .where('date', '=', date)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * An exception that takes one rotation occurrence off a user (a trade gives it away): every series
 * of the user that works the assignment on that date loses that date.
 */
export async function removeOccurrence(
  trx: Db,
  orgId: number,
  values: { userId: number; assignmentId: number; date: string; reason: string },
): Promise<void> {
  const next = Temporal.PlainDate.from(values.date).add({ days: 1 });
  const items = await expandWork(trx, orgId, {
    start: `${values.date} 00:00:00`,
    end: `${next.toString()} 00:00:00`,
    userIds: [values.userId],
    assignmentIds: [values.assignmentId],
  });
  for (const item of items.filter((i) => i.kind === 'recurring' && i.date === values.date)) {
    await upsertException(trx, orgId, {
      recurringShiftId: item.id,
      date: values.date,
      kind: 'removed',
      assignmentId: null,
      start: null,
      end: null,
      reason: values.reason,
    });
  }
}

import { assertOrgIds, deleteOrgRows, orgColumns, orgRows } from '../../core/db/org-rows.js';
import type { Insertable, Updateable } from 'kysely';
import { compiledOnce } from '../../core/db/compiled-once.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import type { ShiftRow, ShiftTable } from './table.js';

/** What callbacks, trades and POST /shifts write (callers write their own log line). */
export type NewShift = Pick<
  ShiftRow,
  | 'assignment_id'
  | 'user_id'
  | 'date'
  | 'start'
  | 'end'
  | 'work_type_id'
  | 'work_subtype_id'
  | 'notes'
  | 'from_callback'
  | 'traded_with'
  | 'scheduled_by'
> &
  Partial<Pick<ShiftRow, 'break_start' | 'break_end' | 'hold_over'>> & {
    /** worked even where approved time off covers it */
    overrides_time_off?: boolean;
  };

export async function insertShift(trx: Db, orgId: number, values: NewShift): Promise<number> {
  return (await insertShiftRow(trx, orgId, values)).id;
}

/** Inserts a shift and returns the row as stored, without reading it back. */
export async function insertShiftRow(trx: Db, orgId: number, values: NewShift): Promise<ShiftRow> {
  const now = nowUtc();
  const row = {
    organization_id: orgId,
    assignment_id: values.assignment_id,
    user_id: values.user_id,
    date: values.date,
    start: values.start,
    end: values.end,
    work_type_id: values.work_type_id,
    work_subtype_id: values.work_subtype_id,
    break_start: values.break_start ?? null,
    break_end: values.break_end ?? null,
    hold_over: values.hold_over ?? 0,
    overrides_time_off: values.overrides_time_off ? 1 : 0,
    notes: values.notes,
    from_callback: values.from_callback,
    traded_with: values.traded_with,
    scheduled_by: values.scheduled_by,
    created_at: now,
    updated_at: now,
  };
  const [{ id }] = (await insertShiftQuery(trx, row)) as [{ id: number }];
  return { id, ...row };
}

const insertShiftQuery = compiledOnce((db: Db, row: Insertable<ShiftTable>) =>
  db.insertInto('shift').values(row).returning('id'),
);

export async function updateShift(trx: Db, orgId: number, id: number, values: Updateable<ShiftTable>): Promise<void> {
  await trx
    .updateTable('shift')
    .set({ ...values, updated_at: nowUtc() })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function deleteShift(trx: Db, orgId: number, id: number): Promise<void> {
  await trx.deleteFrom('shift_label').where('organization_id', '=', orgId).where('shift_id', '=', id).execute();
  await trx.deleteFrom('shift_qualifier').where('organization_id', '=', orgId).where('shift_id', '=', id).execute();
  await trx.deleteFrom('shift').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

export async function findShiftOrThrow(db: Db, orgId: number, id: number): Promise<ShiftRow> {
  const row = await orgRows(db, 'shift', orgId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Shift');
  return row;
}

export function listShiftsOfUser(
  db: Db,
  orgId: number,
  userId: number,
  range: { start?: string; end?: string },
): Promise<ShiftRow[]> {
  return orgRows(db, 'shift', orgId)
    .where('user_id', '=', userId)
    .$if(range.end !== undefined, (qb) => qb.where('start', '<', range.end!))
    .$if(range.start !== undefined, (qb) => qb.where('end', '>', range.start!))
    .orderBy('start')
    .orderBy('id')
    .execute();
}

export const assertLabelsExist = (db: Db, orgId: number, ids: number[]) =>
  assertOrgIds(db, 'label', orgId, ids, 'label id', true);
export const assertQualifiersExist = (db: Db, orgId: number, ids: number[]) =>
  assertOrgIds(db, 'qualifier', orgId, ids, 'qualifier id', true);

export async function replaceShiftLabels(trx: Db, orgId: number, shiftId: number, labelIds: number[]): Promise<void> {
  await trx.deleteFrom('shift_label').where('organization_id', '=', orgId).where('shift_id', '=', shiftId).execute();
  const unique = [...new Set(labelIds)];
  if (unique.length)
    await trx
      .insertInto('shift_label')
      .values(unique.map((label_id) => ({ organization_id: orgId, shift_id: shiftId, label_id })))
      .execute();
}

export async function replaceShiftQualifiers(
  trx: Db,
  orgId: number,
  shiftId: number,
  qualifierIds: number[],
): Promise<void> {
  await deleteOrgRows(trx, 'shift_qualifier', orgId).where('shift_id', '=', shiftId).execute();
  const unique = [...new Set(qualifierIds)];
  if (unique.length) {
    await trx
      .insertInto('shift_qualifier')
      .values(unique.map((qualifier_id) => ({ organization_id: orgId, shift_id: shiftId, qualifier_id })))
      .execute();
  }
}

/** Removes one label from a shift; false when the shift did not carry it. */
export async function removeShiftLabel(trx: Db, orgId: number, shiftId: number, labelId: number): Promise<boolean> {
  const result = await deleteOrgRows(trx, 'shift_label', orgId)
    .where('shift_id', '=', shiftId)
    .where('label_id', '=', labelId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function removeShiftQualifier(
  trx: Db,
  orgId: number,
  shiftId: number,
  qualifierId: number,
): Promise<boolean> {
  const result = await deleteOrgRows(trx, 'shift_qualifier', orgId)
    .where('shift_id', '=', shiftId)
    .where('qualifier_id', '=', qualifierId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function assertCallbackExists(db: Db, orgId: number, id: number): Promise<void> {
  const row = await orgColumns(db, 'callback', orgId, ['id']).where('id', '=', id).executeTakeFirst();
  if (!row) throw invalidParams('The selected from callback is invalid.');
}

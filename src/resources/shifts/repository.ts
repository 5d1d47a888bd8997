import { assertOrgIds, deleteOrgRows, orgColumns, orgRows, sameOrg } from '../../core/db/org-rows.js';
import type { Insertable, Updateable } from 'kysely';
import { compiledOnce } from '../../core/db/compiled-once.js';
import { jsonArrayFrom, parseJsonArray } from '../../core/db/json.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import type { WorkTypeRow } from '../work-types/table.js';
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

export interface LabelOfShift {
  shift_id: number;
  id: number;
  label: string;
  color: string;
  text_color: string;
}

export interface QualifierOfShift {
  shift_id: number;
  id: number;
  name: string;
  shortcode: string | null;
  color: string | null;
  text_color: string | null;
}

/** Labels of several shifts in one query, in label order. */
export function labelsOfShifts(db: Db, orgId: number, shiftIds: number[]): Promise<LabelOfShift[]> {
  if (shiftIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('shift_label')
    .innerJoin('label', sameOrg('label.id', 'shift_label.label_id'))
    .select(['shift_label.shift_id', 'label.id', 'label.label', 'label.color', 'label.text_color'])
    .where('shift_label.organization_id', '=', orgId)
    .where('shift_label.shift_id', 'in', shiftIds)
    .where('label.deleted_at', 'is', null)
    .orderBy('label.position')
    .orderBy('label.id')
    .execute();
}

/** Qualifiers of several shifts in one query. */
export function qualifiersOfShifts(db: Db, orgId: number, shiftIds: number[]): Promise<QualifierOfShift[]> {
  if (shiftIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('shift_qualifier')
    .innerJoin('qualifier', sameOrg('qualifier.id', 'shift_qualifier.qualifier_id'))
    .select([
      'shift_qualifier.shift_id',
      'qualifier.id',
      'qualifier.name',
      'qualifier.shortcode',
      'qualifier.color',
      'qualifier.text_color',
    ])
    .where('shift_qualifier.organization_id', '=', orgId)
    .where('shift_qualifier.shift_id', 'in', shiftIds)
    .where('qualifier.deleted_at', 'is', null)
    .orderBy('qualifier.name')
    .orderBy('qualifier.id')
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

export interface SubtypeOfType {
  id: number;
  work_type_id: number;
  label: string;
  work_code: string | null;
}

/** Work types keyed by id, and their live subtypes, in one query. */
export async function workTypesByIds(
  db: Db,
  orgId: number,
  ids: number[],
): Promise<{ types: Map<number, WorkTypeRow>; subtypes: SubtypeOfType[] }> {
  const unique = [...new Set(ids)];
  // no early return when there is none: GET /schedule runs the same statements whatever it holds
  const rows = await db
    .selectFrom('work_type')
    .leftJoin('work_subtype', (join) =>
      join
        .onRef('work_subtype.work_type_id', '=', 'work_type.id')
        .onRef('work_subtype.organization_id', '=', 'work_type.organization_id')
        .on('work_subtype.deleted_at', 'is', null),
    )
    .selectAll('work_type')
    .select([
      'work_subtype.id as subtype_id',
      'work_subtype.label as subtype_label',
      'work_subtype.work_code as subtype_work_code',
    ])
    .where('work_type.organization_id', '=', orgId)
    .where('work_type.id', 'in', unique.length ? unique : [0])
    .orderBy('work_subtype.id')
    .execute();
  const types = new Map<number, WorkTypeRow>();
  const subtypes: SubtypeOfType[] = [];
  for (const { subtype_id, subtype_label, subtype_work_code, ...type } of rows) {
    types.set(type.id, type);
    if (subtype_id !== null && subtype_label !== null) {
      subtypes.push({ id: subtype_id, work_type_id: type.id, label: subtype_label, work_code: subtype_work_code });
    }
  }
  return { types, subtypes };
}

export interface ShiftTags {
  labels: Map<number, LabelOfShift[]>;
  qualifiers: Map<number, QualifierOfShift[]>;
}

/** One-off shifts' ids with their labels and qualifiers, as JSON array columns. */
function tagsQuery(db: Db, orgId: number) {
  return db
    .selectFrom('shift')
    .select('shift.id')
    .select((eb) => [
      jsonArrayFrom(
        db,
        eb
          .selectFrom('shift_label as sl')
          .innerJoin('label as l', sameOrg('l.id', 'sl.label_id'))
          .select(['sl.shift_id', 'l.id', 'l.label', 'l.color', 'l.text_color'])
          .where('sl.organization_id', '=', orgId)
          .whereRef('sl.shift_id', '=', 'shift.id')
          .where('l.deleted_at', 'is', null)
          .orderBy('l.position')
          .orderBy('l.id'),
      ).as('labels'),
      jsonArrayFrom(
        db,
        eb
          .selectFrom('shift_qualifier as sq')
          .innerJoin('qualifier as q', sameOrg('q.id', 'sq.qualifier_id'))
          .select(['sq.shift_id', 'q.id', 'q.name', 'q.shortcode', 'q.color', 'q.text_color'])
          .where('sq.organization_id', '=', orgId)
          .whereRef('sq.shift_id', '=', 'shift.id')
          .where('q.deleted_at', 'is', null)
          .orderBy('q.name')
          .orderBy('q.id'),
      ).as('qualifiers'),
    ])
    .where('shift.organization_id', '=', orgId);
}

function tagsOfRows(rows: Array<{ id: number; labels: unknown; qualifiers: unknown }>): ShiftTags {
  const tags: ShiftTags = { labels: new Map(), qualifiers: new Map() };
  for (const row of rows) {
    const labels = parseJsonArray<LabelOfShift>(row.labels);
    const qualifiers = parseJsonArray<QualifierOfShift>(row.qualifiers);
    if (labels.length > 0) tags.labels.set(row.id, labels);
    if (qualifiers.length > 0) tags.qualifiers.set(row.id, qualifiers);
  }
  return tags;
}

/** Labels and qualifiers of one-off shifts, in one statement. */
export async function tagsOfShifts(db: Db, orgId: number, shiftIds: number[]): Promise<ShiftTags> {
  // no early return when there is none: GET /schedule runs the same statements whatever it holds
  const ids = shiftIds.length ? [...new Set(shiftIds)] : [0];
  return tagsOfRows(await tagsQuery(db, orgId).where('shift.id', 'in', ids).execute());
}

const tagsOfUsersQuery = compiledOnce((db: Db, orgId: number, start: string, end: string, userIds: number[]) =>
  tagsQuery(db, orgId)
    .where('shift.start', '<', end)
    .where('shift.end', '>', start)
    .where('shift.user_id', 'in', userIds),
);

/**
 * Labels and qualifiers of the users' one-off shifts overlapping [start, end), with the ids of
 * every such shift (tagged or not), in one statement: read without waiting for the shifts' ids.
 */
export async function tagsOfUsersShifts(
  db: Db,
  orgId: number,
  userIds: number[],
  span: { start: string; end: string },
): Promise<ShiftTags & { shiftIds: Set<number> }> {
  const rows = await tagsOfUsersQuery(db, orgId, span.start, span.end, userIds.length ? userIds : [0]);
  return { ...tagsOfRows(rows), shiftIds: new Set(rows.map((row) => row.id)) };
}

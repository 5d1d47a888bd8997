import type { Insertable, Updateable } from 'kysely';
import { deleteOrgRows, lastLivePosition, orgColumns, orgRows, sameOrg, updateOrgRow } from '../../core/db/org-rows.js';
import { findAssignmentsByIds, mayOccurBetween, type QualifierNeeded } from '../../scheduling/reads.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, orNotFound } from '../../core/errors.js';
import type { AssignmentGroupRow, AssignmentRow, AssignmentTable } from './table.js';

/** The reads of assignments the engine runs too live in the engine (src/scheduling/reads.ts). */
export { findAssignmentsByIds, type QualifierNeeded };

export function findAssignment(db: Db, orgId: number, id: number): Promise<AssignmentRow | undefined> {
  return orgRows(db, 'assignment', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findAssignmentOrThrow(db: Db, orgId: number, id: number): Promise<AssignmentRow> {
  return orNotFound(findAssignment(db, orgId, id), 'Assignment');
}

/** Non-deleted assignments that may have occurrences dated in [startDate, endDate], in their order. */
export function listAssignmentsForRange(
  db: Db,
  orgId: number,
  startDate: string,
  endDate: string,
): Promise<AssignmentRow[]> {
  return orgRows(db, 'assignment', orgId)
    .where((eb) => mayOccurBetween(eb, startDate, endDate))
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Assignments that are not archived: the until date is not past, and a one-off has not ended. */
export function listCurrentAssignments(
  db: Db,
  orgId: number,
  today: string,
  nowLocal: string,
): Promise<AssignmentRow[]> {
  return orgRows(db, 'assignment', orgId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('until_date', 'is', null), eb('until_date', '>=', today)]))
    .where((eb) => eb.or([eb('rrule', 'is not', null), eb('end', '>', nowLocal)]))
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function nextAssignmentPosition(db: Db, orgId: number): Promise<number> {
  return ((await lastLivePosition(db, 'assignment', orgId)) ?? 0) + 1;
}

export async function insertAssignment(db: Db, values: Insertable<AssignmentTable>): Promise<number> {
  const { id } = await db.insertInto('assignment').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateAssignment(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<AssignmentTable>,
): Promise<void> {
  await updateOrgRow(db, 'assignment', orgId, id, values);
}

// Qualifiers needed -------------------------------------------------------------------------------

/** Qualifier minimums of several assignments in one query, keyed by assignment id. */
export async function qualifiersNeededOf(
  db: Db,
  orgId: number,
  assignmentIds: number[],
): Promise<Map<number, QualifierNeeded[]>> {
  const byAssignment = new Map<number, QualifierNeeded[]>();
  if (assignmentIds.length === 0) return byAssignment;
  const rows = await db
    .selectFrom('assignment_qualifier')
    .innerJoin('qualifier', sameOrg('qualifier.id', 'assignment_qualifier.qualifier_id'))
    .select([
      'assignment_qualifier.assignment_id',
      'qualifier.id',
      'qualifier.name',
      'qualifier.shortcode',
      'qualifier.color',
      'qualifier.text_color',
      'assignment_qualifier.minimum_staffing',
    ])
    .where('assignment_qualifier.organization_id', '=', orgId)
    .where('assignment_qualifier.assignment_id', 'in', [...new Set(assignmentIds)])
    .where('qualifier.deleted_at', 'is', null)
    .orderBy('assignment_qualifier.id')
    .execute();
  for (const { assignment_id, ...qualifier } of rows) {
    byAssignment.set(assignment_id, [...(byAssignment.get(assignment_id) ?? []), qualifier]);
  }
  return byAssignment;
}

export async function assertQualifiersExist(db: Db, orgId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await orgColumns(db, 'qualifier', orgId, ['id'])
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  if (found.length !== new Set(ids).size) throw invalidParams('The selected qualifier id is invalid.');
}

export async function replaceQualifiersNeeded(
  db: Db,
  orgId: number,
  assignmentId: number,
  needed: Array<{ id: number; minimum_staffing: number }>,
): Promise<void> {
  await deleteOrgRows(db, 'assignment_qualifier', orgId).where('assignment_id', '=', assignmentId).execute();
  if (needed.length === 0) return;
  await db
    .insertInto('assignment_qualifier')
    .values(
      needed.map((q) => ({
        organization_id: orgId,
        assignment_id: assignmentId,
        qualifier_id: q.id,
        minimum_staffing: q.minimum_staffing,
      })),
    )
    .execute();
}

// Group labels ------------------------------------------------------------------------------------

export function listGroupLabels(db: Db, orgId: number): Promise<AssignmentGroupRow[]> {
  return orgRows(db, 'assignment_group', orgId).where('deleted_at', 'is', null).orderBy('name').orderBy('id').execute();
}

export function findGroupLabel(db: Db, orgId: number, id: number): Promise<AssignmentGroupRow | undefined> {
  return orgRows(db, 'assignment_group', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function insertGroupLabel(db: Db, orgId: number, name: string, color: string): Promise<number> {
  const { id } = await db
    .insertInto('assignment_group')
    .values({ organization_id: orgId, name, color, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function softDeleteGroupLabel(db: Db, orgId: number, id: number, deletedAt: string): Promise<void> {
  await db
    .updateTable('assignment_group')
    .set({ deleted_at: deletedAt })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
  await deleteOrgRows(db, 'assignment_group_member', orgId).where('group_id', '=', id).execute();
}

export async function assertGroupLabelsExist(db: Db, orgId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await orgColumns(db, 'assignment_group', orgId, ['id'])
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  if (found.length !== new Set(ids).size) throw invalidParams('The selected group id is invalid.');
}

export function groupLabelsOf(db: Db, orgId: number, assignmentId: number): Promise<AssignmentGroupRow[]> {
  return db
    .selectFrom('assignment_group_member')
    .innerJoin('assignment_group', sameOrg('assignment_group.id', 'assignment_group_member.group_id'))
    .selectAll('assignment_group')
    .where('assignment_group_member.organization_id', '=', orgId)
    .where('assignment_group_member.assignment_id', '=', assignmentId)
    .where('assignment_group.deleted_at', 'is', null)
    .orderBy('assignment_group_member.id')
    .execute();
}

export async function replaceGroupLabels(
  db: Db,
  orgId: number,
  assignmentId: number,
  groupIds: number[],
): Promise<void> {
  await removeGroupLabels(db, orgId, assignmentId);
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('assignment_group_member')
    .values(unique.map((groupId) => ({ organization_id: orgId, assignment_id: assignmentId, group_id: groupId })))
    .execute();
}

/** Removes every group label of the assignment, or only `groupId`; returns how many were removed. */
export async function removeGroupLabels(
  db: Db,
  orgId: number,
  assignmentId: number,
  groupId?: number,
): Promise<number> {
  const result = await deleteOrgRows(db, 'assignment_group_member', orgId)
    .where('assignment_id', '=', assignmentId)
    .$if(groupId !== undefined, (qb) => qb.where('group_id', '=', groupId!))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// Admins ------------------------------------------------------------------------------------------

export async function adminIdsOf(db: Db, orgId: number, assignmentId: number): Promise<number[]> {
  const rows = await orgColumns(db, 'assignment_admin', orgId, ['user_id'])
    .where('assignment_id', '=', assignmentId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.user_id);
}

export async function replaceAdmins(db: Db, orgId: number, assignmentId: number, userIds: number[]): Promise<void> {
  await deleteOrgRows(db, 'assignment_admin', orgId).where('assignment_id', '=', assignmentId).execute();
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('assignment_admin')
    .values(unique.map((userId) => ({ organization_id: orgId, assignment_id: assignmentId, user_id: userId })))
    .execute();
}

// Finalization ------------------------------------------------------------------------------------

/**
 * Finalizes the assignment on the date; false when it already was. The unique index with
 * `on conflict do nothing` makes concurrent identical requests finalize exactly once.
 */
export async function insertFinalization(
  db: Db,
  orgId: number,
  values: { assignmentId: number; date: string; adminId: number; createdAt: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('assignment_finalization')
    .values({
      organization_id: orgId,
      assignment_id: values.assignmentId,
      date: values.date,
      admin_id: values.adminId,
      created_at: values.createdAt,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'assignment_id', 'date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Removes the finalization of the assignment on the date; false when there was none. */
export async function deleteFinalization(db: Db, orgId: number, assignmentId: number, date: string): Promise<boolean> {
  const result = await deleteOrgRows(db, 'assignment_finalization', orgId)
    .where('assignment_id', '=', assignmentId)
    .where('date', '=', date)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every finalized assignment date in [startDate, endDate], as `${assignmentId}|${date}`. */
export async function finalizedDates(db: Db, orgId: number, startDate: string, endDate: string): Promise<Set<string>> {
  const rows = await orgColumns(db, 'assignment_finalization', orgId, ['assignment_id', 'date'])
    .where('date', '>=', startDate)
    .where('date', '<=', endDate)
    .execute();
  return new Set(rows.map((row) => `${row.assignment_id}|${row.date}`));
}

/** For an assignment id named in a body: a missing one is a 422. */
export async function findAssignmentOrInvalid(db: Db, orgId: number, id: number): Promise<AssignmentRow> {
  const assignment = await findAssignment(db, orgId, id);
  if (!assignment) throw invalidParams('The selected assignment id is invalid.');
  return assignment;
}

/** Checks that every id names a live assignment of the organization. */
export async function assertAssignmentsExist(
  db: Db,
  orgId: number,
  ids: number[],
  field = 'assignment id',
): Promise<Map<number, AssignmentRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const found = await findAssignmentsByIds(db, orgId, unique);
  if (found.size !== unique.length) throw invalidParams(`The selected ${field} is invalid.`);
  return found;
}

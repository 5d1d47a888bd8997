import type { FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import type { AuthContext } from '../../core/auth/context.js';
import { writeLog, logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams, notFound } from '../../core/errors.js';
import { checkRule, ruleBody } from '../../core/recurrence.js';
import { assertPeriod, formatDate, normalizeLocalDateTime, nowLocal, nowUtc, todayIn } from '../../core/time.js';
import { findUser, findUsersByIds } from '../users/repository.js';
import { DEFAULT_RRULE } from '../../scheduling/recurrence.js';
import { reconcileAssignment } from '../accruals/reconcile.js';
import {
  adminIdsOf,
  assertGroupLabelsExist,
  assertQualifiersExist,
  deleteFinalization,
  findAssignmentOrThrow,
  groupLabelsOf,
  insertAssignment,
  insertFinalization,
  listCurrentAssignments,
  nextAssignmentPosition,
  qualifiersNeededOf,
  removeGroupLabels,
  replaceAdmins,
  replaceGroupLabels,
  replaceQualifiersNeeded,
  updateAssignment,
} from './repository.js';
import type { CreateAssignmentBody, UpdateAssignmentBody } from './schemas.js';
import { locationToStore, serializeAdmin, serializeAssignment, serializeGroupLabel } from './serialize.js';
import type { AssignmentRow, AssignmentTable } from './table.js';

const DEFAULT_COLOR = '#F5F4F2';

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** Stored rule text: RRULE body without the prefix; null for "does not recur". */
function ruleToStore(rrule: string | null | undefined): string | null | undefined {
  if (rrule === undefined || rrule === null) return rrule;
  if (rrule.trim() === '') return null;
  const { problem } = checkRule(rrule);
  if (problem) throw invalidParams(problem);
  return ruleBody(rrule);
}

async function assertAdmin(db: Db, orgId: number, adminId: number | undefined) {
  if (adminId !== undefined && !(await findUser(db, orgId, adminId)))
    throw invalidParams('The selected admin id is invalid.');
}

/**
 * The period, the rule and the ids the body names: one 422 naming every failing field (checkAll).
 * A start or end left undefined (refused by the schema) leaves the period unchecked.
 */
async function checkFields(
  db: Db,
  orgId: number,
  body: UpdateAssignmentBody,
  period: { start?: string; end?: string; until: string | null },
) {
  const { start, end, until } = period;
  await checkAll([
    () => (start !== undefined && end !== undefined ? assertPeriod(start, end) : undefined),
    () =>
      start !== undefined && until !== null
        ? assertPeriod(start.slice(0, 10), until, { allowEqual: true, fields: { start: 'start', end: 'until' } })
        : undefined,
    () => ruleToStore(body.rrule),
    () => assertAdmin(db, orgId, body.admin_id),
    () =>
      assertQualifiersExist(
        db,
        orgId,
        (body.qualifiers_needed ?? []).map((q) => q.id),
      ),
  ] as const);
}

/** The rules on the fields of an assignment's body that its schema accepted, when it refused others (ruleChecks). */
export function checkAssignmentFields(db: Db, orgId: number, accepted: UpdateAssignmentBody): Promise<void> {
  const local = (value: string | undefined) => (value === undefined ? undefined : normalizeLocalDateTime(value));
  return checkFields(db, orgId, accepted, {
    start: local(accepted.start),
    end: local(accepted.end),
    until: accepted.until ?? null,
  });
}

function writableColumns(body: UpdateAssignmentBody): Updateable<AssignmentTable> {
  const columns: Updateable<AssignmentTable> = {
    name: body.name,
    position: body.position,
    positions_to_fill: body.positions_to_fill,
    is_work_shift: flag(body.is_work_shift),
    self_scheduling: flag(body.self_scheduling),
    self_scheduling_requires_approval: flag(body.self_scheduling_requires_approval),
    service_eligible: flag(body.service_eligible),
    hide_open_slots: flag(body.hide_open_slots),
    color: body.color,
    location: body.location === undefined ? undefined : locationToStore(body.location),
    rrule: ruleToStore(body.rrule),
    until_date: body.until,
    notes: body.notes,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

export async function createAssignment(trx: Db, auth: AuthContext, body: CreateAssignmentBody): Promise<number> {
  const start = normalizeLocalDateTime(body.start);
  const end = normalizeLocalDateTime(body.end);
  await checkFields(trx, auth.orgId, body, { start, end, until: body.until ?? null });
  const now = nowUtc();
  const id = await insertAssignment(trx, {
    ...writableColumns(body),
    organization_id: auth.orgId,
    name: body.name,
    positions_to_fill: body.positions_to_fill,
    is_work_shift: flag(body.is_work_shift ?? true)!,
    self_scheduling: flag(body.self_scheduling ?? false)!,
    self_scheduling_requires_approval: flag(body.self_scheduling_requires_approval ?? false)!,
    service_eligible: flag(body.service_eligible ?? false)!,
    hide_open_slots: flag(body.hide_open_slots ?? false)!,
    color: body.color ?? DEFAULT_COLOR,
    position: body.position ?? (await nextAssignmentPosition(trx, auth.orgId)),
    date: start.slice(0, 10),
    start,
    end,
    rrule: body.rrule === undefined ? DEFAULT_RRULE : ruleToStore(body.rrule),
    created_by: body.admin_id ?? null,
    created_at: now,
    updated_at: now,
  });
  if (body.qualifiers_needed) await replaceQualifiersNeeded(trx, auth.orgId, id, body.qualifiers_needed);
  if (body.admin_id) await replaceAdmins(trx, auth.orgId, id, [body.admin_id]);
  await logAction(trx, auth, 'assignment.created', id, {
    description: `created assignment ${body.name} (${start} to ${end}).`,
    actorUserId: body.admin_id,
    after: { ...body, start, end },
  });
  return id;
}

export async function changeAssignment(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: UpdateAssignmentBody,
): Promise<void> {
  const before = await findAssignmentOrThrow(trx, auth.orgId, id);
  const start = body.start === undefined ? before.start : normalizeLocalDateTime(body.start);
  const end = body.end === undefined ? before.end : normalizeLocalDateTime(body.end);
  const until = body.until === undefined ? before.until_date : body.until;
  await checkFields(trx, auth.orgId, body, { start, end, until });
  await updateAssignment(trx, auth.orgId, id, {
    ...writableColumns(body),
    date: start.slice(0, 10),
    start,
    end,
    updated_at: nowUtc(),
  });
  if (body.qualifiers_needed) await replaceQualifiersNeeded(trx, auth.orgId, id, body.qualifiers_needed);
  await logAction(trx, auth, 'assignment.updated', id, {
    description: `updated assignment ${body.name ?? before.name}.`,
    actorUserId: body.admin_id,
    before,
    after: body,
  });
  // the bank follows the charge (docs/time-off.md): the work of the assignment's people moved or changed kind
  const after = await findAssignmentOrThrow(trx, auth.orgId, id);
  if (WORK_SHAPING.some((column) => after[column] !== before[column]))
    await reconcileAssignment(trx, auth, id, `${[before.date, after.date].sort()[0]} 00:00:00`);
}

/** The columns that decide when and whether an assignment's occurrences are work. */
const WORK_SHAPING = ['start', 'end', 'rrule', 'until_date', 'is_work_shift'] as const;

export async function deleteAssignment(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await findAssignmentOrThrow(trx, auth.orgId, id);
  await updateAssignment(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'assignment.deleted', id, {
    description: `deleted assignment ${before.name}.`,
    before,
  });
}

export async function currentAssignments(db: Db, auth: AuthContext) {
  const rows = await listCurrentAssignments(
    db,
    auth.orgId,
    formatDate(todayIn(auth.timezone)),
    nowLocal(auth.timezone),
  );
  const needed = await qualifiersNeededOf(
    db,
    auth.orgId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => serializeAssignment(row, needed.get(row.id) ?? []));
}

export async function loadAssignment(db: Db, orgId: number, id: number) {
  const row = await findAssignmentOrThrow(db, orgId, id);
  const needed = await qualifiersNeededOf(db, orgId, [id]);
  return serializeAssignment(row, needed.get(id) ?? [], true);
}

// Group labels and admins -------------------------------------------------------------------------

export async function groupLabelsOfAssignment(db: Db, orgId: number, id: number) {
  await findAssignmentOrThrow(db, orgId, id);
  return (await groupLabelsOf(db, orgId, id)).map(serializeGroupLabel);
}

export async function setGroupLabels(trx: Db, auth: AuthContext, id: number, groupIds: number[]) {
  const assignment = await findAssignmentOrThrow(trx, auth.orgId, id);
  await assertGroupLabelsExist(trx, auth.orgId, groupIds);
  await replaceGroupLabels(trx, auth.orgId, id, groupIds);
  await logAction(trx, auth, 'assignment.groups_updated', id, {
    description: `set the group labels of assignment ${assignment.name}.`,
    after: { group_ids: groupIds },
  });
}

/** Removes every group label, or the one named; 404 when the named one is not on the assignment. */
export async function removeAssignmentGroupLabels(trx: Db, auth: AuthContext, id: number, groupId?: number) {
  const assignment = await findAssignmentOrThrow(trx, auth.orgId, id);
  const removed = await removeGroupLabels(trx, auth.orgId, id, groupId);
  if (groupId !== undefined && removed === 0) throw notFound('AssignmentGroup');
  await logAction(trx, auth, 'assignment.groups_removed', id, {
    description:
      groupId === undefined
        ? `removed all group labels of assignment ${assignment.name}.`
        : `removed group label #${groupId} of assignment ${assignment.name}.`,
    before: { group_id: groupId ?? 'all' },
  });
}

export async function adminsOfAssignment(db: Db, request: FastifyRequest, id: number) {
  await findAssignmentOrThrow(db, request.auth.orgId, id);
  const ids = await adminIdsOf(db, request.auth.orgId, id);
  const users = await findUsersByIds(db, request.auth.orgId, ids);
  return ids.flatMap((userId) => {
    const user = users.get(userId);
    return user ? [serializeAdmin(request, user)] : [];
  });
}

export async function setAdmins(trx: Db, auth: AuthContext, id: number, userIds: number[]) {
  const assignment = await findAssignmentOrThrow(trx, auth.orgId, id);
  const users = await findUsersByIds(trx, auth.orgId, userIds);
  if (userIds.some((userId) => !users.get(userId) || users.get(userId)!.deleted_at))
    throw invalidParams('The selected admin id is invalid.');
  await replaceAdmins(trx, auth.orgId, id, userIds);
  await updateAssignment(trx, auth.orgId, id, { created_by: userIds[0] ?? null, updated_at: nowUtc() });
  await logAction(trx, auth, 'assignment.admins_updated', id, {
    description: `set the admins of assignment ${assignment.name}.`,
    before: { created_by: assignment.created_by },
    after: { admin_ids: userIds },
  });
}

// Finalization ------------------------------------------------------------------------------------

export const futureDateMessage = (id: number) =>
  `Assignment (#${id}) Finalization is only allowed on past and current dates.`;

export function isFutureDate(auth: AuthContext, date: string): boolean {
  return date > formatDate(todayIn(auth.timezone));
}

export async function finalizeAssignment(trx: Db, auth: AuthContext, id: number, date: string, adminId: number) {
  const assignment = await findAssignmentOrThrow(trx, auth.orgId, id);
  await assertAdmin(trx, auth.orgId, adminId);
  if (isFutureDate(auth, date)) throw invalidParams(futureDateMessage(id));
  if (!(await insertFinalization(trx, auth.orgId, { assignmentId: id, date, adminId, createdAt: nowUtc() }))) {
    throw invalidParams(`Assignment (#${id}) has already been finalized on ${date}.`);
  }
  await logFinalization(trx, auth, assignment, [date], adminId, true);
}

export async function unfinalizeAssignment(
  trx: Db,
  auth: AuthContext,
  id: number,
  date: string | undefined,
  adminId: number | undefined,
) {
  const assignment = await findAssignmentOrThrow(trx, auth.orgId, id);
  if (!date) throw invalidParams('The date field is required.');
  await assertAdmin(trx, auth.orgId, adminId);
  if (!(await deleteFinalization(trx, auth.orgId, id, date)))
    throw invalidParams(`Assignment (#${id}) is not finalized on ${date}.`);
  await logFinalization(trx, auth, assignment, [date], adminId, false);
}

export async function logFinalization(
  trx: Db,
  auth: AuthContext,
  assignment: Pick<AssignmentRow, 'id' | 'name'>,
  dates: string[],
  adminId: number | undefined,
  finalized: boolean,
) {
  await writeLog(trx, auth, {
    action: finalized ? 'assignment.finalized' : 'assignment.unfinalized',
    description: `${finalized ? 'finalized' : 'unfinalized'} assignment ${assignment.name} on ${dates.join(', ')}.`,
    actorUserId: adminId,
    entityType: 'assignment',
    entityId: assignment.id,
    after: { dates, finalized },
  });
}

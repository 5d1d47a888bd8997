import type { AuthContext } from '../../core/auth/context.js';
import { writeLog } from '../../core/audit.js';
import { reconcileBank } from '../accruals/reconcile.js';
import { lockRowsThenUsers, lockUsers } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams, notFound } from '../../core/errors.js';
import { assertPeriod, normalizeLocalDateTime } from '../../core/time.js';
import { availabilityOf, refusalMessage, type Reason } from '../../scheduling/index.js';
import { assertAssignmentsExist } from '../assignments/repository.js';
import { assertWorkType } from '../work-types/repository.js';
import { overrideFatigue } from '../fatigue-rules/repository.js';
import { findUserOrInvalid, findUsersByIds, liveUserIn } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { AssignmentRow } from '../assignments/table.js';
import type { WorkTypeRow } from '../work-types/table.js';
import type { ShiftContext } from './serialize.js';
import {
  assertCallbackExists,
  assertLabelsExist,
  assertQualifiersExist,
  deleteShift,
  findShiftOrThrow,
  insertShiftRow,
  removeShiftLabel,
  removeShiftQualifier,
  replaceShiftLabels,
  replaceShiftQualifiers,
  updateShift,
} from './repository.js';
import { tagsOfShifts } from '../../scheduling/index.js';
import { assertVacancyOpen } from './for-vacancy.js';
import type { CreateShiftBody, UpdateShiftBody } from './schemas.js';
import type { ShiftRow } from './table.js';

type ShiftValues = Omit<ShiftRow, 'id' | 'organization_id' | 'created_at' | 'updated_at' | 'overrides_time_off'>;

const short = (datetime: string) => datetime.slice(0, 16);

function timesOf(body: { start: string; end: string; break_start?: string | null; break_end?: string | null }) {
  const start = normalizeLocalDateTime(body.start);
  const end = normalizeLocalDateTime(body.end);
  assertPeriod(start, end, { within: 'shift' });
  const breakStart = body.break_start ? normalizeLocalDateTime(body.break_start) : null;
  const breakEnd = body.break_end ? normalizeLocalDateTime(body.break_end) : null;
  if ((breakStart === null) !== (breakEnd === null))
    throw invalidParams('The break start and break end fields must be given together.');
  if (breakStart && breakEnd && (breakEnd <= breakStart || breakStart < start || breakEnd > end)) {
    throw invalidParams('The break must lie within the shift.');
  }
  return { start, end, break_start: breakStart, break_end: breakEnd };
}

/** What the references of a shift name, read while checking them: enough to answer with the shift. */
interface References {
  user: UserRow;
  /** the shift's user, the admin and the user traded with, when named */
  users: Map<number, UserRow>;
  workType: WorkTypeRow;
  /** the shift's assignment, when named */
  assignments: Map<number, AssignmentRow>;
}

/** What validateReferences checks; an id left undefined (refused by the schema) is not checked. */
type ReferenceValues = Pick<ShiftValues, 'work_subtype_id' | 'traded_with' | 'from_callback'> &
  Partial<Pick<ShiftValues, 'assignment_id' | 'user_id' | 'work_type_id'>>;

/**
 * Every referenced id must exist in the organization: one 422 naming each unknown one (checkAll),
 * with the times' problems (an end before its start, a break outside the shift) when `times` gives them.
 */
async function validateReferences(
  trx: Db,
  auth: AuthContext,
  values: ReferenceValues,
  body: Partial<CreateShiftBody>,
  times: () => ReturnType<typeof timesOf> | undefined,
): Promise<Partial<References> & { times?: ReturnType<typeof timesOf> }> {
  const named = [values.user_id, values.traded_with, body.admin_id].filter(
    (id): id is number => typeof id === 'number',
  );
  const users = await findUsersByIds(trx, auth.orgId, named);
  const [checkedTimes, assignments, user, workType] = await checkAll([
    times,
    () =>
      values.assignment_id !== undefined ? assertAssignmentsExist(trx, auth.orgId, [values.assignment_id]) : undefined,
    () => (values.user_id !== undefined ? liveUserIn(users, values.user_id, 'user id') : undefined),
    () =>
      values.work_type_id !== undefined
        ? assertWorkType(trx, auth.orgId, values.work_type_id, values.work_subtype_id)
        : undefined,
    () => (values.traded_with !== null ? liveUserIn(users, values.traded_with, 'traded with') : undefined),
    () => (values.from_callback !== null ? assertCallbackExists(trx, auth.orgId, values.from_callback) : undefined),
    () => (body.admin_id !== undefined ? liveUserIn(users, body.admin_id, 'admin id') : undefined),
    () => (body.labels ? assertLabelsExist(trx, auth.orgId, body.labels) : undefined),
    () => (body.qualifiers ? assertQualifiersExist(trx, auth.orgId, body.qualifiers) : undefined),
  ] as const);
  return { user, users, workType, assignments, times: checkedTimes };
}

/**
 * The rules on the fields of a shift's body that its schema accepted, when it refused others (the
 * routes' ruleChecks): each id given must exist, and the end come after the start. The break is
 * checked only when both of its fields are there: one of them may have been refused.
 */
export async function checkShiftFields(db: Db, auth: AuthContext, accepted: Partial<CreateShiftBody>): Promise<void> {
  const { start, end, break_start: breakStart, break_end: breakEnd } = accepted;
  const breaks =
    breakStart !== undefined && breakEnd !== undefined ? { break_start: breakStart, break_end: breakEnd } : {};
  await validateReferences(
    db,
    auth,
    {
      assignment_id: accepted.assignment_id,
      user_id: accepted.user_id,
      work_type_id: accepted.work_type_id,
      work_subtype_id: accepted.work_subtype_id ?? null,
      traded_with: accepted.traded_with ?? null,
      from_callback: accepted.from_callback ?? null,
    },
    accepted,
    () => (start !== undefined && end !== undefined ? timesOf({ start, end, ...breaks }) : undefined),
  );
}

/**
 * A user is never double-booked: 422 when the shift overlaps work the user will do (the engine's
 * availability: scheduled work less approved time off). Approved time off over the shift is a 422
 * too, unless the request says `force: true`: the shift is then worked over the time off. A
 * department's fatigue rule the shift would break is a 422 with the rule's words, unless an admin
 * gives `override_reason` (logged). Answers whether the shift meets approved time off.
 */
async function assertUserIsFree(
  trx: Db,
  auth: AuthContext,
  user: UserRow,
  values: ShiftValues,
  body: { force?: boolean; override_reason?: string; admin_id?: number },
  known: { assignments?: Map<number, AssignmentRow>; exceptShiftId?: number },
): Promise<boolean> {
  const force = body.force === true;
  // under the user's lock until the transaction ends: the check and the write it allows are one step
  await lockUsers(trx, [values.user_id]);
  const { reasons } = (
    await availabilityOf(trx, auth.orgId, {
      start: values.start,
      end: values.end,
      userIds: [values.user_id],
      timezone: auth.timezone,
      except: (item) => item.kind === 'one_off' && item.id === known.exceptShiftId,
      knownAssignments: known.assignments,
    })
  ).get(values.user_id)!;
  const refusal = (reason: Reason) => invalidParams(refusalMessage(fullName(user), 'this shift', reason));
  const working = reasons.find((reason) => reason.kind === 'working');
  if (working) throw refusal(working);
  const timeOff = reasons.find((reason) => reason.kind === 'time_off');
  if (timeOff && !force) throw refusal(timeOff);
  await overrideFatigue(trx, auth, reasons, {
    override: body.override_reason,
    refusal,
    who: `${fullName(user)} (${short(values.start)} to ${short(values.end)})`,
    entity: { type: 'user', id: user.id },
    actorUserId: body.admin_id,
  });
  return timeOff !== undefined;
}

async function describeShift(trx: Db, auth: AuthContext, values: ShiftValues, knownUser?: UserRow): Promise<string> {
  const user = knownUser ?? (await findUserOrInvalid(trx, auth.orgId, values.user_id));
  return `${fullName(user)}, ${short(values.start)} to ${short(values.end)}`;
}

/** The new shift as stored, and what its response shows of the records it names. */
export interface CreatedShift {
  row: ShiftRow;
  context: Omit<ShiftContext, 'timezone'>;
}

export async function createShift(trx: Db, auth: AuthContext, body: CreateShiftBody): Promise<CreatedShift> {
  const references = {
    assignment_id: body.assignment_id,
    user_id: body.user_id,
    date: body.date,
    work_type_id: body.work_type_id,
    work_subtype_id: body.work_subtype_id ?? null,
    hold_over: body.hold_over ?? 0,
    notes: body.notes ?? null,
    from_callback: body.from_callback ?? null,
    traded_with: body.traded_with ?? null,
    scheduled_by: body.admin_id ?? null,
  };
  const checked = await validateReferences(trx, auth, references, body, () => timesOf(body));
  const [user, users, workType] = [checked.user!, checked.users!, checked.workType!];
  const values: ShiftValues = { ...references, ...checked.times! };
  if (body.for_vacancy) await assertVacancyOpen(trx, auth, body.assignment_id, body.for_vacancy);
  const overTimeOff = await assertUserIsFree(trx, auth, user, values, body, { assignments: checked.assignments });
  const row = await insertShiftRow(trx, auth.orgId, { ...values, overrides_time_off: overTimeOff });
  const tagged = Boolean(body.labels?.length || body.qualifiers?.length);
  if (body.labels) await replaceShiftLabels(trx, auth.orgId, row.id, body.labels);
  if (body.qualifiers) await replaceShiftQualifiers(trx, auth.orgId, row.id, body.qualifiers);
  await writeLog(trx, auth, {
    action: 'shift.created',
    description: `scheduled a shift for ${await describeShift(trx, auth, values, user)}.`,
    actorUserId: body.admin_id,
    actorName: body.admin_id === undefined ? undefined : users.get(body.admin_id),
    entityType: 'shift',
    entityId: row.id,
    after: { ...values, labels: body.labels ?? [], qualifiers: body.qualifiers ?? [] },
  });
  if (overTimeOff) await reconcileBank(trx, auth, bankChange('shift.created', values));
  const tags = tagged ? await tagsOfShifts(trx, auth.orgId, [row.id]) : undefined;
  return {
    row,
    context: {
      users,
      workTypes: new Map([[workType.id, workType]]),
      labels: tags?.labels.get(row.id) ?? [],
      qualifiers: tags?.qualifiers.get(row.id) ?? [],
    },
  };
}

/**
 * The shift's row, then its user's lock (and the new user's, when it changes hands): the order of
 * every write to schedules (lockRowsThenUsers), taken at once since the leave bank is reconciled for both.
 */
async function lockShift(trx: Db, auth: AuthContext, id: number, newUserId?: number): Promise<ShiftRow> {
  const [row] = await lockRowsThenUsers(
    trx,
    { table: 'shift', orgId: auth.orgId },
    async () => [id],
    (rows) => rows.flatMap((r) => [r.user_id, newUserId ?? r.user_id]),
  );
  if (!row) throw notFound('Shift');
  return row;
}

const pick = <T>(given: T | undefined, current: T): T => (given === undefined ? current : given);

export async function changeShift(trx: Db, auth: AuthContext, id: number, body: UpdateShiftBody): Promise<void> {
  // read under the row's lock, then its users' (before and after): an edit racing a deletion finds the
  // shift whole or answers 404; a trade moving it queues on the same locks in the same order
  const current = await lockShift(trx, auth, id, body.user_id);
  const keepBreak = body.break_start === undefined && body.break_end === undefined;
  const references = {
    assignment_id: pick(body.assignment_id, current.assignment_id),
    user_id: pick(body.user_id, current.user_id),
    date: body.date,
    work_type_id: pick(body.work_type_id, current.work_type_id),
    work_subtype_id: pick(body.work_subtype_id, body.work_type_id !== undefined ? null : current.work_subtype_id),
    hold_over: pick(body.hold_over, current.hold_over),
    notes: pick(body.notes, current.notes),
    from_callback: pick(body.from_callback, current.from_callback),
    traded_with: pick(body.traded_with, current.traded_with),
    scheduled_by: pick(body.admin_id, current.scheduled_by),
  };
  const { user, times, assignments } = await validateReferences(trx, auth, references, body, () =>
    timesOf({
      start: body.start,
      end: body.end,
      break_start: keepBreak ? current.break_start : body.break_start,
      break_end: keepBreak ? current.break_end : body.break_end,
    }),
  );
  const values: ShiftValues = { ...references, ...times! };
  const overTimeOff = await assertUserIsFree(trx, auth, user!, values, body, { assignments, exceptShiftId: id });
  await updateShift(trx, auth.orgId, id, { ...values, overrides_time_off: overTimeOff ? 1 : 0 });
  if (body.labels !== undefined) await replaceShiftLabels(trx, auth.orgId, id, body.labels ?? []);
  if (body.qualifiers !== undefined) await replaceShiftQualifiers(trx, auth.orgId, id, body.qualifiers ?? []);
  await writeLog(trx, auth, {
    action: 'shift.updated',
    description: `changed the shift of ${await describeShift(trx, auth, values, user)}.`,
    actorUserId: body.admin_id,
    entityType: 'shift',
    entityId: id,
    before: current,
    after: values,
  });
  // the time off under the shift as it was and as it is charges again (a recall moved, ended or begun; work
  // moved out from under a vacation or into it)
  const before = bankChange('shift.updated', current);
  const after = bankChange('shift.updated', values);
  await reconcileBank(trx, auth, { ...after, userIds: [...before.userIds, ...after.userIds] });
  if (before.start !== after.start || before.end !== after.end) await reconcileBank(trx, auth, before);
}

export async function removeShift(trx: Db, auth: AuthContext, id: number): Promise<void> {
  // read under the row's lock, then its user's: of concurrent deletions, one finds the shift and the rest a 404
  const current = await lockShift(trx, auth, id);
  await deleteShift(trx, auth.orgId, id);
  await writeLog(trx, auth, {
    action: 'shift.deleted',
    description: `deleted the shift of ${await describeShift(trx, auth, current)}.`,
    entityType: 'shift',
    entityId: id,
    before: current,
  });
  // time off over the shift charges again: a recall's hours go back to it, the work it charged is gone
  await reconcileBank(trx, auth, bankChange('shift.deleted', current));
}

/** The work a shift booked over time off touches: its user's time off under it charges again. */
function bankChange(action: string, shift: Pick<ShiftRow, 'user_id' | 'start' | 'end' | 'assignment_id'>) {
  return { action, userIds: [shift.user_id], start: shift.start, end: shift.end, assignmentIds: [shift.assignment_id] };
}

type Catalog = 'labels' | 'qualifiers';

/** Replaces (ids), removes all (ids = []) of the shift's labels or qualifiers. */
export async function replaceCatalog(
  trx: Db,
  auth: AuthContext,
  shiftId: number,
  catalog: Catalog,
  ids: number[],
): Promise<void> {
  const shift = await findShiftOrThrow(trx, auth.orgId, shiftId);
  if (catalog === 'labels') {
    await assertLabelsExist(trx, auth.orgId, ids);
    await replaceShiftLabels(trx, auth.orgId, shiftId, ids);
  } else {
    await assertQualifiersExist(trx, auth.orgId, ids);
    await replaceShiftQualifiers(trx, auth.orgId, shiftId, ids);
  }
  await writeLog(trx, auth, {
    action: `shift.${catalog}_replaced`,
    description: ids.length
      ? `set the ${catalog} of the shift of ${await describeShift(trx, auth, shift)} to ${ids.join(', ')}.`
      : `removed every ${catalog === 'labels' ? 'label' : 'qualifier'} from the shift of ` +
        `${await describeShift(trx, auth, shift)}.`,
    entityType: 'shift',
    entityId: shiftId,
    after: { [catalog]: ids },
  });
}

export async function removeFromCatalog(
  trx: Db,
  auth: AuthContext,
  shiftId: number,
  catalog: Catalog,
  id: number,
): Promise<void> {
  const shift = await findShiftOrThrow(trx, auth.orgId, shiftId);
  const removed =
    catalog === 'labels'
      ? await removeShiftLabel(trx, auth.orgId, shiftId, id)
      : await removeShiftQualifier(trx, auth.orgId, shiftId, id);
  if (!removed) throw notFound(catalog === 'labels' ? 'Label' : 'Qualifier');
  await writeLog(trx, auth, {
    action: `shift.${catalog === 'labels' ? 'label' : 'qualifier'}_removed`,
    description:
      `removed ${catalog === 'labels' ? 'label' : 'qualifier'} ${id} from the shift of ` +
      `${await describeShift(trx, auth, shift)}.`,
    entityType: 'shift',
    entityId: shiftId,
  });
}

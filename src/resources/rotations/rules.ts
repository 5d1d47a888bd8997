import { assertAssignmentsExist } from '../assignments/repository.js';
import { assertWorkType, defaultWorkTypeId } from '../work-types/repository.js';
import type { AuthContext } from '../../core/auth/context.js';
import { writeLog, logAction } from '../../core/audit.js';
import { parseJsonArray } from '../../core/db/json.js';
import { reconcileBank } from '../accruals/reconcile.js';
import { enforceOffLimitsOfChange, offDaysBeforeChange, type OffLimitNotice } from '../time-offs/limits.js';
import { lockUsers } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { hasChanges, sentFields } from '../../core/fields.js';
import { assertPeriod, formatLocalDateTime, nowUtc, parseLocalDateTime, Temporal, todayIn } from '../../core/time.js';
import { findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { availabilityOf, expandWork, refusalMessage, seriesClash, seriesFatigue } from '../../scheduling/index.js';
import { overrideFatigue } from '../fatigue-rules/repository.js';
import { PRESETS } from '../../scheduling/rotation-pattern.js';
import {
  countActiveMembers,
  deleteException,
  deleteRecurringShift,
  findRecurringShiftOrThrow,
  findRotationOrInvalid,
  findRotationOrThrow,
  insertRecurringShift,
  insertRotation,
  updateRecurringShift,
  updateRotation,
  upsertException,
} from './repository.js';
import type {
  ExceptionBody,
  RecurringShiftBody,
  RecurringShiftPatchBody,
  RotationBody,
  RotationPatchBody,
} from './schemas.js';
import type { RecurringShiftRow, RotationRow } from './table.js';

const dayBefore = (date: string) => Temporal.PlainDate.from(date).subtract({ days: 1 }).toString();
const later = (a: string, b: string) => (a > b ? a : b);
const dayAfter = (date: string) => Temporal.PlainDate.from(date).add({ days: 1 }).toString();

/** How far ahead a series without an end date is checked against the user's other work. */
const BOOKING_HORIZON_DAYS = 366;

/**
 * A user is never double-booked: 422 when an occurrence of the series in [start, end) (local
 * datetimes) overlaps other work of the user (another series' occurrence or a one-off shift), as
 * POST /shifts refuses it. Runs after the write, inside its transaction, so the series is read
 * exactly as it will be stored; the error rolls the write back.
 */
async function assertSeriesIsFree(
  trx: Db,
  auth: AuthContext,
  seriesId: number,
  userId: number,
  start: string,
  end: string,
  what = 'this series',
): Promise<void> {
  const clash = await seriesClash(trx, auth.orgId, { id: seriesId, userId, start, end, timezone: auth.timezone });
  if (!clash) return;
  const user = await findUserOrInvalid(trx, auth.orgId, userId);
  throw invalidParams(refusalMessage(fullName(user), what, clash));
}

/**
 * The series' occurrences keep to the department's fatigue rules (docs/contract-rules.md#fatigue-rules):
 * 422 with the first breaking occurrence and the rule's words, unless an admin gives `override_reason`
 * (logged). Runs after the write, like assertSeriesIsFree, under the user's lock.
 */
async function assertSeriesIsRested(
  trx: Db,
  auth: AuthContext,
  series: { id: number; userId: number; start: string; end: string },
  body: { override_reason?: string; admin_id?: number },
): Promise<void> {
  await lockUsers(trx, [series.userId]);
  const breach = await seriesFatigue(trx, auth.orgId, { ...series, timezone: auth.timezone });
  if (!breach) return;
  const user = await findUserOrInvalid(trx, auth.orgId, series.userId);
  const what = `the ${breach.date} occurrence of this series`;
  await overrideFatigue(trx, auth, breach.reasons, {
    override: body.override_reason,
    refusal: (reason) => invalidParams(refusalMessage(fullName(user), what, reason)),
    who: `${fullName(user)} (${what}, recurring shift ${series.id})`,
    entity: { type: 'recurring_shift', id: series.id },
    actorUserId: body.admin_id,
  });
}

/** The series' occurrences from `fromDate` to its end date, or for a year when it has none. */
function seriesWindow(fromDate: string, endDate: string | null): { start: string; end: string } {
  const horizon = Temporal.PlainDate.from(fromDate).add({ days: BOOKING_HORIZON_DAYS }).toString();
  const lastDate = endDate !== null && endDate < horizon ? endDate : horizon;
  return { start: `${fromDate} 00:00:00`, end: `${dayAfter(lastDate)} 00:00:00` };
}

function rotationShape(body: RotationBody): {
  pattern: number[];
  crews: Record<string, number>;
  kellyEvery: number | null;
} {
  const preset = body.preset ? PRESETS[body.preset] : undefined;
  const pattern = body.pattern ?? preset?.pattern;
  if (!pattern) throw invalidParams('The pattern field is required when preset is not present.');
  if (!pattern.some((entry) => entry > 0)) throw invalidParams('The pattern must have at least one on-duty day.');
  const crews = body.crews ?? (body.pattern ? {} : (preset?.crews ?? {}));
  if (Object.values(crews).some((offset) => offset >= pattern.length))
    throw invalidParams('Every crew offset must be smaller than the pattern length.');
  const kellyEvery = body.kelly_every !== undefined ? body.kelly_every : (preset?.kellyEvery ?? null);
  return { pattern, crews, kellyEvery };
}

export async function createRotation(trx: Db, auth: AuthContext, body: RotationBody): Promise<number> {
  const shape = rotationShape(body);
  const now = nowUtc();
  const id = await insertRotation(trx, {
    organization_id: auth.orgId,
    name: body.name,
    anchor_date: body.anchor_date,
    pattern: JSON.stringify(shape.pattern),
    crews: JSON.stringify(shape.crews),
    kelly_every: shape.kellyEvery,
    ...(body.kelly_code !== undefined ? { kelly_code: body.kelly_code } : {}),
    ...(body.kelly_name !== undefined ? { kelly_name: body.kelly_name } : {}),
    deleted_at: null,
    created_at: now,
    updated_at: now,
  });
  await logAction(trx, auth, 'rotation.created', id, {
    description: `created rotation ${body.name} (${shape.pattern.length}-day cycle from ${body.anchor_date}).`,
    after: { ...body, ...shape },
  });
  return id;
}

/**
 * A PATCH changes only the fields sent (the name, the Kelly day's code and name; the pattern never changes); `{}` is a
 * logged no-op.
 */
export async function renameRotation(trx: Db, auth: AuthContext, id: number, body: RotationPatchBody): Promise<void> {
  const rotation = await findRotationOrThrow(trx, auth.orgId, id);
  const changes = sentFields(body, ['name', 'kelly_code', 'kelly_name']);
  if (hasChanges(changes)) await updateRotation(trx, auth.orgId, id, { ...changes, updated_at: nowUtc() });
  const fields = Object.keys(changes).join(', ');
  await logAction(trx, auth, 'rotation.updated', id, {
    description:
      changes.name !== undefined
        ? `renamed rotation ${rotation.name} to ${changes.name}.`
        : `updated rotation ${rotation.name}: ${fields || 'no fields'}.`,
    before: { name: rotation.name, kelly_code: rotation.kelly_code, kelly_name: rotation.kelly_name },
    after: changes,
  });
}

export async function deleteRotation(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const rotation = await findRotationOrThrow(trx, auth.orgId, id);
  if ((await countActiveMembers(trx, auth.orgId, id, todayIn(auth.timezone).toString())) > 0) {
    throw invalidParams('The rotation still has scheduled members: end their recurring shifts first.');
  }
  await updateRotation(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'rotation.deleted', id, {
    description: `deleted rotation ${rotation.name}.`,
  });
}

type MemberInput = Partial<RecurringShiftBody> & Partial<RecurringShiftPatchBody>;

function crewOffsetOf(rotation: RotationRow, input: MemberInput, fallback: number): number {
  if (input.crew !== undefined) {
    const crews = JSON.parse(rotation.crews) as Record<string, number>;
    if (!(input.crew in crews)) throw invalidParams('The selected crew is invalid.');
    return crews[input.crew]!;
  }
  const offset = input.crew_offset ?? fallback;
  if (offset >= (JSON.parse(rotation.pattern) as number[]).length)
    throw invalidParams('The crew offset must be smaller than the pattern length.');
  return offset;
}

function assertEnoughAssignments(rotation: RotationRow, ids: number[] | undefined): void {
  const slots = Math.max(...(JSON.parse(rotation.pattern) as number[]));
  if (ids && ids.length < slots) throw invalidParams(`The rotation needs ${slots} assignment ids.`);
}

/**
 * Validates a member's fields against the rotation and the organization: one 422 naming every
 * failing field (checkAll); returns the stored values.
 */
async function memberValues(trx: Db, auth: AuthContext, input: MemberInput, current?: RecurringShiftRow) {
  const assignmentIds =
    input.assignment_ids ??
    (input.assignment_id !== undefined
      ? [input.assignment_id]
      : current
        ? (JSON.parse(current.assignment_ids) as number[])
        : undefined);
  const subtypeId =
    input.work_subtype_id !== undefined
      ? input.work_subtype_id
      : input.work_type_id !== undefined
        ? null
        : (current?.work_subtype_id ?? null);
  const [member, , workTypeId] = await checkAll([
    // the crew and the number of assignments are judged against the rotation, when it exists
    async () => {
      const rotation = await findRotationOrInvalid(trx, auth.orgId, input.rotation_id ?? current!.rotation_id);
      const fallback = input.rotation_id === undefined ? (current?.crew_offset ?? 0) : 0;
      const [, crewOffset] = await checkAll([
        () => assertEnoughAssignments(rotation, assignmentIds),
        () => crewOffsetOf(rotation, input, fallback),
      ] as const);
      return { rotation, crewOffset };
    },
    () => {
      if (!assignmentIds) throw invalidParams('The assignment id field is required.');
      return assertAssignmentsExist(trx, auth.orgId, assignmentIds);
    },
    async () => {
      const id =
        input.work_type_id ?? current?.work_type_id ?? (await defaultWorkTypeId(trx, auth.orgId, 'Regular Time'));
      await assertWorkType(trx, auth.orgId, id, subtypeId);
      return id;
    },
    () => (input.admin_id !== undefined ? findUserOrInvalid(trx, auth.orgId, input.admin_id, 'admin id') : undefined),
  ] as const);
  const { rotation, crewOffset } = member;
  const breakStart = input.break_start !== undefined ? input.break_start : (current?.break_start ?? null);
  return {
    rotation,
    values: {
      rotation_id: rotation.id,
      assignment_ids: JSON.stringify(assignmentIds),
      crew_offset: crewOffset,
      kelly_offset: input.kelly_offset ?? current?.kelly_offset ?? 0,
      end_date: input.end_date !== undefined ? input.end_date : (current?.end_date ?? null),
      work_type_id: workTypeId,
      work_subtype_id: subtypeId,
      break_start: breakStart && breakStart.length === 5 ? `${breakStart}:00` : breakStart,
      break_length: breakStart ? (input.break_length ?? current?.break_length ?? 0) : 0,
      notes: input.notes !== undefined ? input.notes : (current?.notes ?? null),
      scheduled_by: input.admin_id ?? current?.scheduled_by ?? null,
    },
  };
}

/** A written series and the off limits its tours under approved leave go past (warnings). */
export interface SeriesWrite {
  id: number;
  warnings: OffLimitNotice[];
}

export async function createRecurringShift(trx: Db, auth: AuthContext, body: RecurringShiftBody): Promise<SeriesWrite> {
  const [user, { rotation, values }] = await checkAll([
    () => findUserOrInvalid(trx, auth.orgId, body.user_id),
    () => memberValues(trx, auth, body),
    () =>
      body.end_date
        ? assertPeriod(body.start_date, body.end_date, {
            allowEqual: true,
            fields: { start: 'start date', end: 'end date' },
          })
        : undefined,
  ] as const);
  const change = seriesChange('recurring_shift.created', body.user_id, body.start_date, values.end_date, [values]);
  const offBefore = await offDaysBeforeChange(trx, auth, { userId: body.user_id, ...change });
  const now = nowUtc();
  const id = await insertRecurringShift(trx, {
    organization_id: auth.orgId,
    user_id: body.user_id,
    start_date: body.start_date,
    previous_id: null,
    created_at: now,
    updated_at: now,
    ...values,
  });
  const window = seriesWindow(body.start_date, values.end_date);
  await assertSeriesIsFree(trx, auth, id, body.user_id, window.start, window.end);
  await assertSeriesIsRested(trx, auth, { id, userId: body.user_id, ...window }, body);
  await logAction(trx, auth, 'recurring_shift.created', id, {
    description:
      `placed ${fullName(user)} on rotation ${rotation.name} from ` +
      `${body.start_date}${values.end_date ? ` to ${values.end_date}` : ''}.`,
    actorUserId: body.admin_id,
    after: { user_id: body.user_id, start_date: body.start_date, ...values },
  });
  await reconcileBank(trx, auth, change);
  return { id, warnings: await enforceOffLimitsOfChange(trx, auth, offBefore) };
}

/**
 * The work a change of a member's series touches, from a date on (to its end, or without end): the
 * member's approved time off there charges again (docs/time-off.md, "The bank follows the charge").
 */
function seriesChange(
  action: string,
  userId: number,
  from: string,
  to: string | null,
  series: Array<Pick<RecurringShiftRow, 'assignment_ids'>>,
) {
  return {
    action,
    userIds: [userId],
    start: `${from} 00:00:00`,
    end: to === null ? null : `${dayAfter(to)} 00:00:00`,
    assignmentIds: series.flatMap((s) => parseJsonArray<number>(s.assignment_ids)),
  };
}

/** "the recurring shift 5 of John Doe", for log lines. */
async function seriesName(trx: Db, auth: AuthContext, series: RecurringShiftRow): Promise<string> {
  const user = (await findUsersByIds(trx, auth.orgId, [series.user_id])).get(series.user_id);
  return `the recurring shift ${series.id} of ${user ? fullName(user) : `user ${series.user_id}`}`;
}

function effectiveDateOf(auth: AuthContext, requested: string | undefined): string {
  const today = todayIn(auth.timezone).toString();
  const date = requested ?? today;
  if (date < today) throw invalidParams('The effective date must be today or later: past occurrences never change.');
  return date;
}

/** The fields of a PATCH that change when or where the person works: the fatigue rules are checked again. */
const PLACEMENT_FIELDS = [
  'rotation_id',
  'assignment_id',
  'assignment_ids',
  'crew',
  'crew_offset',
  'kelly_offset',
  'end_date',
] as const;

/** The fields of a PATCH that change a series; with none of them the PATCH is a no-op (no split). */
const SERIES_FIELDS = [
  ...PLACEMENT_FIELDS,
  'work_type_id',
  'work_subtype_id',
  'break_start',
  'break_length',
  'notes',
] as const;

/**
 * "This and following": the series ends the day before the effective date and a new series with the
 * changes starts on it (exceptions from that date move along). A series that has not started by then
 * is changed in place. Returns the id of the series that holds the change.
 */
export async function editRecurringShift(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: RecurringShiftPatchBody,
): Promise<SeriesWrite> {
  const current = await findRecurringShiftOrThrow(trx, auth.orgId, id);
  if (!hasChanges(sentFields(body, SERIES_FIELDS))) {
    await logAction(trx, auth, 'recurring_shift.updated', id, {
      description: `changed nothing of ${await seriesName(trx, auth, current)}.`,
      actorUserId: body.admin_id,
    });
    return { id, warnings: [] };
  }
  const [effective, { values }] = await checkAll([
    () => {
      const date = effectiveDateOf(auth, body.effective_date);
      if (current.end_date !== null && date > current.end_date)
        throw invalidParams('The effective date is after the end of the series.');
      return date;
    },
    () => memberValues(trx, auth, body, current),
  ] as const);
  const startDate = effective > current.start_date ? effective : current.start_date;
  if (values.end_date !== null)
    assertPeriod(startDate, values.end_date, {
      allowEqual: true,
      fields: { start: 'effective date', end: 'end date' },
    });
  const through =
    current.end_date === null || values.end_date === null ? null : later(current.end_date, values.end_date);
  const change = seriesChange('recurring_shift.updated', current.user_id, startDate, through, [current, values]);
  const offBefore = await offDaysBeforeChange(trx, auth, { userId: current.user_id, ...change });
  const now = nowUtc();
  let targetId = id;
  if (effective <= current.start_date) {
    await updateRecurringShift(trx, auth.orgId, id, { ...values, updated_at: now });
  } else {
    await updateRecurringShift(trx, auth.orgId, id, { end_date: dayBefore(effective), updated_at: now });
    targetId = await insertRecurringShift(trx, {
      organization_id: auth.orgId,
      user_id: current.user_id,
      start_date: effective,
      previous_id: id,
      created_at: now,
      updated_at: now,
      ...values,
    });
    await trx
      .updateTable('recurring_shift_exception')
      .set({ recurring_shift_id: targetId })
      .where('organization_id', '=', auth.orgId)
      .where('recurring_shift_id', '=', id)
      .where('date', '>=', effective)
      .execute();
  }
  const window = seriesWindow(startDate, values.end_date);
  await assertSeriesIsFree(trx, auth, targetId, current.user_id, window.start, window.end);
  if (hasChanges(sentFields(body, PLACEMENT_FIELDS)))
    await assertSeriesIsRested(trx, auth, { id: targetId, userId: current.user_id, ...window }, body);
  await logAction(trx, auth, 'recurring_shift.updated', targetId, {
    description: `changed ${await seriesName(trx, auth, current)} from ${startDate} on.`,
    actorUserId: body.admin_id,
    before: current,
    after: { start_date: startDate, ...values },
  });
  await reconcileBank(trx, auth, change);
  return { id: targetId, warnings: await enforceOffLimitsOfChange(trx, auth, offBefore) };
}

/** Ends the series before the effective date; a series that starts on or after it is removed. */
export async function endRecurringShift(
  trx: Db,
  auth: AuthContext,
  id: number,
  query: { effective_date?: string; admin_id?: number },
) {
  const current = await findRecurringShiftOrThrow(trx, auth.orgId, id);
  const effective = effectiveDateOf(auth, query.effective_date);
  if (effective <= current.start_date) {
    await deleteRecurringShift(trx, auth.orgId, id);
  } else if (current.end_date === null || current.end_date >= effective) {
    await updateRecurringShift(trx, auth.orgId, id, { end_date: dayBefore(effective), updated_at: nowUtc() });
  }
  await logAction(trx, auth, 'recurring_shift.ended', id, {
    description: `ended ${await seriesName(trx, auth, current)} from ${effective} on.`,
    actorUserId: query.admin_id,
    before: current,
  });
  const from = later(effective, current.start_date);
  await reconcileBank(
    trx,
    auth,
    seriesChange('recurring_shift.ended', current.user_id, from, current.end_date, [current]),
  );
}

/**
 * A moved occurrence keeps to the department's fatigue rules (docs/contract-rules.md#fatigue-rules):
 * 422 with the rule's words unless an admin gives `override_reason` (logged). Runs after the write,
 * like assertSeriesIsFree; the occurrence itself is left out of the person's other work.
 */
async function assertMoveIsRested(
  trx: Db,
  auth: AuthContext,
  occurrence: { id: number; userId: number; date: string },
  moved: { start: string; end: string },
  body: ExceptionBody,
): Promise<void> {
  await lockUsers(trx, [occurrence.userId]);
  const { reasons } = (
    await availabilityOf(trx, auth.orgId, {
      ...moved,
      userIds: [occurrence.userId],
      timezone: auth.timezone,
      except: (item) => item.kind === 'recurring' && item.id === occurrence.id && item.date === occurrence.date,
    })
  ).get(occurrence.userId)!;
  if (!reasons.some((reason) => reason.kind === 'fatigue')) return;
  const user = await findUserOrInvalid(trx, auth.orgId, occurrence.userId);
  await overrideFatigue(trx, auth, reasons, {
    override: body.override_reason,
    refusal: (reason) => invalidParams(refusalMessage(fullName(user), 'this occurrence', reason)),
    who: `${fullName(user)} (the ${occurrence.date} occurrence moved to ${moved.start.slice(0, 16)})`,
    entity: { type: 'recurring_shift', id: occurrence.id },
    actorUserId: body.admin_id,
  });
}

/** "This occurrence": removes or moves the series' occurrence on one date. */
export async function addException(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: ExceptionBody,
): Promise<OffLimitNotice[]> {
  const series = await findRecurringShiftOrThrow(trx, auth.orgId, id);
  // one 422 naming every failing field; the user's other work once every field is sound
  const [, , moved] = await checkAll([
    async () => {
      const hasOccurrence = (
        await expandWork(trx, auth.orgId, {
          start: `${body.date} 00:00:00`,
          end: `${dayAfter(body.date)} 00:00:00`,
          userIds: [series.user_id],
          timezone: auth.timezone,
        })
      ).some((item) => item.kind === 'recurring' && item.id === id && item.date === body.date);
      // in the request's transaction: a refused request puts the exception back
      const existing = await deleteException(trx, auth.orgId, id, body.date);
      if (!hasOccurrence && existing === 0) throw invalidParams('The recurring shift has no occurrence on that date.');
    },
    () => (body.admin_id !== undefined ? findUserOrInvalid(trx, auth.orgId, body.admin_id, 'admin id') : undefined),
    () => (body.action === 'move' ? movedValues(trx, auth, body) : { assignmentId: null, start: null, end: null }),
  ] as const);
  // the occurrence dated that day (it may reach into the next) and where it moves to
  const dated = seriesChange(
    `recurring_shift.occurrence_${body.action === 'move' ? 'moved' : 'removed'}`,
    series.user_id,
    body.date,
    dayAfter(body.date),
    [series],
  );
  const change = {
    ...dated,
    start: moved.start && moved.start < dated.start ? moved.start : dated.start,
    end: moved.end && moved.end > dated.end! ? moved.end : dated.end,
    assignmentIds: [...dated.assignmentIds, ...(moved.assignmentId === null ? [] : [moved.assignmentId])],
  };
  const offBefore = await offDaysBeforeChange(trx, auth, { userId: series.user_id, ...change });
  await upsertException(trx, auth.orgId, {
    recurringShiftId: id,
    date: body.date,
    kind: body.action === 'move' ? 'moved' : 'removed',
    ...moved,
    reason: body.reason ?? null,
  });
  if (moved.start && moved.end) {
    await assertSeriesIsFree(trx, auth, id, series.user_id, moved.start, moved.end, 'this occurrence');
    await assertMoveIsRested(trx, auth, { id, userId: series.user_id, date: body.date }, moved, body);
  }
  await writeLog(trx, auth, {
    action: body.action === 'move' ? 'recurring_shift.occurrence_moved' : 'recurring_shift.occurrence_removed',
    description:
      `${body.action === 'move' ? 'moved' : 'removed'} the ${body.date} occurrence of ` +
      `${(await seriesName(trx, auth, series)).replace(/^the /, '')}.`,
    actorUserId: body.admin_id,
    entityType: 'recurring_shift',
    entityId: id,
    after: body,
  });
  await reconcileBank(trx, auth, change);
  return enforceOffLimitsOfChange(trx, auth, offBefore);
}

async function movedValues(trx: Db, auth: AuthContext, body: ExceptionBody) {
  if (!body.start || !body.end) throw invalidParams('The start and end fields are required to move an occurrence.');
  const start = formatLocalDateTime(parseLocalDateTime(body.start)!);
  const end = formatLocalDateTime(parseLocalDateTime(body.end)!);
  await checkAll([
    () => assertPeriod(start, end, { within: 'occurrence' }),
    () =>
      body.assignment_id !== undefined ? assertAssignmentsExist(trx, auth.orgId, [body.assignment_id]) : undefined,
  ] as const);
  return { assignmentId: body.assignment_id ?? null, start, end };
}

export async function removeException(trx: Db, auth: AuthContext, id: number, date: string): Promise<OffLimitNotice[]> {
  const series = await findRecurringShiftOrThrow(trx, auth.orgId, id);
  // a moved occurrence may have been anywhere within a few days of its date
  const change = seriesChange('recurring_shift.occurrence_restored', series.user_id, dayBefore(date), dayAfter(date), [
    series,
  ]);
  const offBefore = await offDaysBeforeChange(trx, auth, { userId: series.user_id, ...change });
  if ((await deleteException(trx, auth.orgId, id, date)) === 0)
    throw invalidParams('The recurring shift has no exception on that date.');
  await logAction(trx, auth, 'recurring_shift.occurrence_restored', id, {
    description: `restored the ${date} occurrence of ${(await seriesName(trx, auth, series)).replace(/^the /, '')}.`,
  });
  await reconcileBank(trx, auth, change);
  return enforceOffLimitsOfChange(trx, auth, offBefore);
}

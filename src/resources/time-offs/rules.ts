import type { Updateable } from 'kysely';
import type { AuthContext } from '../../core/auth/context.js';
import { writeLog, logAction } from '../../core/audit.js';
import { lockUsers, transition } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams, notFound } from '../../core/errors.js';
import { assertPeriod, addDays, hoursBetween, nowLocal, nowUtc, round } from '../../core/time.js';
import { assertRequestCovered, chargeTimeOff, refundTimeOff } from '../accruals/ledger.js';
import { findTimeOffTypeOrInvalid, findTimeOffTypesByIds } from '../time-off-types/repository.js';
import type { TimeOffTypeRow } from '../time-off-types/table.js';
import { assertUsersExist, findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { lastOccurrenceEnd, normalizeRule } from '../../scheduling/recurrence.js';
import { type LeaveDates, workSpanOfDates } from './dates.js';
import { assertNoBlackout, enforceOffLimits, type OffLimitNotice } from './limits.js';
import { closeMinute } from '../../scheduling/index.js';
import { countEntriesInYear, entriesMeeting, insertTimeOff } from './repository.js';
import { lastOccurrenceEnd as reachOf, occurrencesInRange } from '../../scheduling/recurrence.js';
import { chargedHours } from '../../scheduling/index.js';
import { APPROVED, DENIED, PENDING, type TimeOffRow, type TimeOffTable } from './table.js';

export interface TimeOffInput {
  userId: number;
  adminIds: number[];
  start: string;
  end: string;
  typeId: number;
  status: number;
  userNote: string | null;
  rrule: string | null;
  /** a request made by the user (POST /users/{id}/time_offs) rather than entered by an admin */
  requestedByUser: boolean;
  /** leave entered as dates (leaveInput): start and end become the span of the person's work on them */
  dates?: LeaveDates | null;
}

const short = (local: string) => local.slice(0, 16);
const span = (entry: Pick<TimeOffRow, 'start' | 'end'>) => `${short(entry.start)} to ${short(entry.end)}`;
const STATUS_WORD: Record<number, string> = { [PENDING]: 'pending', [APPROVED]: 'approved', [DENIED]: 'denied' };

/**
 * The end after the start, within MAX_SPAN_DAYS. Leave entered as dates ends the day after the last
 * date (leaveInput): after 9999-12-31 that day is past the calendar (an extended year, `+010000-…`).
 */
function assertOrdered(start: string, end: string) {
  if (!/^\d{4}-/.test(end))
    throw invalidParams('The end date is out of range: leave entered as dates may end on 9999-12-30 at the latest.');
  assertPeriod(start, end, { fields: { start: 'start date', end: 'end date' }, within: 'time off' });
}

/** required_buffer: a request must reach the admins that many hours before the time off starts. */
function assertBuffer(type: TimeOffTypeRow, start: string, timeZone: string) {
  if (type.required_buffer <= 0) return;
  if (hoursBetween(nowLocal(timeZone), start, timeZone) < type.required_buffer) {
    throw invalidParams(
      `Time off of type ${type.label} must be requested at least ${round(type.required_buffer)} hours before ` +
        'it starts.',
    );
  }
}

/** instance_limit: pending and approved entries of the type per user and calendar year of the start. */
async function assertInstanceLimit(
  trx: Db,
  orgId: number,
  type: TimeOffTypeRow,
  userId: number,
  start: string,
  exceptId?: number,
) {
  if (type.instance_limit <= 0) return;
  const year = Number(start.slice(0, 4));
  const count = await countEntriesInYear(trx, orgId, { userId, typeId: type.id, year, exceptId });
  if (count >= type.instance_limit) {
    throw invalidParams(
      `The ${type.label} time off type allows at most ${type.instance_limit} per year; the limit for ${year} ` +
        'is reached.',
    );
  }
}

/**
 * A user's pending and approved entries never overlap (an end at hh:mm:59 closes its minute):
 * 422 naming the other entry. Recurring entries are compared occurrence by occurrence.
 */
async function assertNoOverlap(
  trx: Db,
  auth: AuthContext,
  entry: { userId: number; start: string; end: string; rrule: string | null },
  exceptId?: number,
) {
  // a rule that never ends is compared over its first 400 days
  const reach = reachOf(entry.rrule, entry.start, entry.end) ?? `${addDays(entry.start.slice(0, 10), 400)} 00:00:00`;
  const mine = occurrencesInRange(entry, entry.start, reach).map((o) => ({ start: o.start, end: closeMinute(o.end) }));
  if (mine.length === 0) return;
  const others = await entriesMeeting(trx, auth.orgId, {
    userId: entry.userId,
    start: entry.start,
    end: reach,
    exceptId,
  });
  for (const other of others) {
    const clash = occurrencesInRange(other, entry.start, reach).find((o) =>
      mine.some((m) => m.start < closeMinute(o.end) && o.start < m.end),
    );
    if (clash) {
      throw invalidParams(
        `The time off overlaps ${STATUS_WORD[other.status]} time off #${other.id} of the same user, ` +
          `${short(clash.start)} to ${short(clash.end)}.`,
      );
    }
  }
}

async function checkRequest(
  trx: Db,
  auth: AuthContext,
  type: TimeOffTypeRow,
  input: Pick<TimeOffInput, 'userId' | 'start' | 'end' | 'status' | 'rrule' | 'dates'>,
  exceptId?: number,
) {
  if (input.status === PENDING) assertBuffer(type, input.start, auth.timezone);
  await assertNoBlackout(trx, auth.orgId, type, input);
  await assertInstanceLimit(trx, auth.orgId, type, input.userId, input.start, exceptId);
  await assertNoOverlap(trx, auth, input, exceptId);
}

async function deductIfBanked(trx: Db, auth: AuthContext, entry: TimeOffRow, type: TimeOffTypeRow) {
  const user = await findUserOrInvalid(trx, auth.orgId, entry.user_id);
  const hours = await chargedHours(trx, auth.orgId, entry, auth.timezone);
  await chargeTimeOff(trx, auth, { user, type, timeOffId: entry.id, hours, adminId: entry.admin_id });
}

/** A pending request the type's overdraft rule would refuse at approval is refused now (422). */
async function assertBankAllows(trx: Db, auth: AuthContext, entry: TimeOffRow, type: TimeOffTypeRow) {
  const user = await findUserOrInvalid(trx, auth.orgId, entry.user_id);
  const hours = await chargedHours(trx, auth.orgId, entry, auth.timezone);
  await assertRequestCovered(trx, auth, { user, type, hours });
}

/**
 * The rules on a new entry's own fields, every failing one named in one 422 (checkAll). A field
 * left undefined (one the request's schema refused: the route's ruleChecks) is not checked.
 */
export async function checkNewTimeOff(
  trx: Db,
  auth: AuthContext,
  input: Partial<Pick<TimeOffInput, 'userId' | 'adminIds' | 'start' | 'end' | 'typeId' | 'rrule'>>,
) {
  const [, user, , type, rrule] = await checkAll([
    () => (input.start !== undefined && input.end !== undefined ? assertOrdered(input.start, input.end) : undefined),
    () => (input.userId !== undefined ? findUserOrInvalid(trx, auth.orgId, input.userId) : undefined),
    () => (input.adminIds !== undefined ? assertUsersExist(trx, auth.orgId, input.adminIds, 'admin id') : undefined),
    () => (input.typeId !== undefined ? findTimeOffTypeOrInvalid(trx, auth.orgId, input.typeId) : undefined),
    () => (input.rrule ? normalizeRule(input.rrule) : null),
  ] as const);
  return { user, type, rrule: rrule ?? null };
}

export async function createTimeOff(trx: Db, auth: AuthContext, input: TimeOffInput): Promise<number> {
  return (await createTimeOffWithNotices(trx, auth, input)).id;
}

/** createTimeOff, with the off limits the entry goes past (warn, require_approval: docs/contract-rules.md). */
export async function createTimeOffWithNotices(
  trx: Db,
  auth: AuthContext,
  input: TimeOffInput,
): Promise<{ id: number; warnings: OffLimitNotice[] }> {
  // the yearly limit and the bank are checked, then written, under the user's lock
  await lockUsers(trx, [input.userId]);
  const checked = await checkNewTimeOff(trx, auth, input);
  const user = checked.user!;
  const type = checked.type!;
  const rrule = checked.rrule;
  if (input.dates)
    input = { ...input, ...(await workSpanOfDates(trx, auth.orgId, user.id, input.dates, auth.timezone)) };
  await checkRequest(trx, auth, type, { ...input, rrule });

  const now = nowUtc();
  const approved = input.status === APPROVED;
  const values = {
    organization_id: auth.orgId,
    user_id: input.userId,
    time_off_type_id: type.id,
    start: input.start,
    end: input.end,
    rrule,
    until: lastOccurrenceEnd(rrule, input.start, input.end),
    status: input.status,
    admin_ids: JSON.stringify(input.adminIds),
    admin_id: input.adminIds[0] ?? null,
    requested_by_user: input.requestedByUser ? 1 : 0,
    user_note: input.userNote,
    traded_with: null,
    request_date: now,
    approval_date: approved ? now : null,
    denial_date: null,
    acknowledgement_date: null,
    deleted_at: null,
    first_date: input.dates?.first ?? null,
    last_date: input.dates?.last ?? null,
  };
  const id = await insertTimeOff(trx, values);
  // who else is off, counted with this entry, under the off-limits lock: a refusal rolls the insert back
  const warnings = await enforceOffLimits(trx, auth, { ...values, id }, approved ? 'approval' : 'request');
  if (approved) await deductIfBanked(trx, auth, { ...values, id }, type);
  else if (input.status === PENDING) await assertBankAllows(trx, auth, { ...values, id }, type);
  await logAction(trx, auth, 'time_off.created', id, {
    description:
      `${input.requestedByUser ? 'requested' : `created ${STATUS_WORD[input.status]}`} time off ` +
      `(${type.label}) for ${fullName(user)}, ${span(input)}.`,
    actorUserId: input.requestedByUser ? input.userId : input.adminIds[0],
    after: { ...values, organization_id: undefined },
  });
  return { id, warnings };
}

/** One decision on pending time off; a concurrent decision finds it decided (422). */
async function decide(
  trx: Db,
  auth: AuthContext,
  id: number,
  adminId: number | undefined,
  outcome: typeof APPROVED | typeof DENIED,
): Promise<OffLimitNotice[]> {
  let warnings: OffLimitNotice[] = [];
  const verb = outcome === APPROVED ? 'approved' : 'denied';
  const now = nowUtc();
  const { before: entry, changes } = await transition(
    trx,
    { table: 'time_off', orgId: auth.orgId, id, model: 'TimeOff', softDeleted: true },
    async (entry) => {
      if (entry.status !== PENDING) {
        throw invalidParams(`Only pending time off can be ${verb}; this time off is ${STATUS_WORD[entry.status]}.`);
      }
      if (adminId !== undefined) await assertUsersExist(trx, auth.orgId, [adminId], 'admin id');
      let respan = {};
      if (outcome === APPROVED) {
        // the entry's row, then its user, then the off limits: the order every path takes them in
        await lockUsers(trx, [entry.user_id]);
        // date-only leave covers the work that starts on its dates as the schedule stands now
        if (entry.first_date !== null && entry.last_date !== null) {
          const dates = { first: entry.first_date, last: entry.last_date };
          const { start, end } = await workSpanOfDates(trx, auth.orgId, entry.user_id, dates, auth.timezone);
          respan = { start, end, until: lastOccurrenceEnd(entry.rrule, start, end) };
        }
        warnings = await enforceOffLimits(trx, auth, { ...entry, ...respan }, 'approval');
      }
      return {
        ...respan,
        status: outcome,
        admin_id: adminId ?? entry.admin_id,
        ...(outcome === APPROVED ? { approval_date: now } : { denial_date: now }),
      };
    },
  );
  const types = await findTimeOffTypesByIds(trx, auth.orgId, [entry.time_off_type_id]);
  const type = types.get(entry.time_off_type_id)!;
  // the debit belongs to the approving transition: written once, by the one request that approved
  if (outcome === APPROVED) await deductIfBanked(trx, auth, { ...entry, ...changes } as TimeOffRow, type);
  const users = await findUsersByIds(trx, auth.orgId, [entry.user_id]);
  await writeLog(trx, auth, {
    action: `time_off.${verb}`,
    description: `${verb} time off (${type.label}) for ${fullName(users.get(entry.user_id)!)}, ${span(entry)}.`,
    actorUserId: changes.admin_id ?? null,
    entityType: 'time_off',
    entityId: id,
    before: { status: entry.status },
    after: changes,
  });
  return warnings;
}

export const approveTimeOff = (trx: Db, auth: AuthContext, id: number, adminId?: number) =>
  decide(trx, auth, id, adminId, APPROVED);
export const denyTimeOff = (trx: Db, auth: AuthContext, id: number, adminId?: number) =>
  decide(trx, auth, id, adminId, DENIED);

/** Removes the entry from every read; hours an approved entry took from a bank are given back. */
export async function deleteTimeOff(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const { before: entry } = await transition(
    trx,
    { table: 'time_off', orgId: auth.orgId, id, model: 'TimeOff', softDeleted: true },
    () => ({ deleted_at: nowUtc() }),
  );
  // under the entry's lock: a concurrent delete finds it gone (404) and gives nothing back
  await refundTimeOff(trx, auth.orgId, id);
  const [types, users] = await Promise.all([
    findTimeOffTypesByIds(trx, auth.orgId, [entry.time_off_type_id]),
    findUsersByIds(trx, auth.orgId, [entry.user_id]),
  ]);
  const user = users.get(entry.user_id);
  await logAction(trx, auth, 'time_off.deleted', id, {
    description:
      `removed time off (${types.get(entry.time_off_type_id)?.label ?? 'unknown type'}) for ` +
      `${user ? fullName(user) : `user #${entry.user_id}`}, ${span(entry)}.`,
    before: entry,
  });
}

export interface RequestChanges {
  start?: string;
  end?: string;
  /** both ends sent as dates: the work that starts on them (docs/time-off.md#date-only-leave) */
  dates?: LeaveDates | null;
  typeId?: number;
  userNote?: string | null;
  rrule?: string | null;
  adminIds?: number[];
}

/**
 * A user edits their own pending request; the type's rules are checked again on the result. Answers
 * the off limits the request as changed goes past (warn, require_approval), as createTimeOffWithNotices.
 */
export async function editRequest(
  trx: Db,
  auth: AuthContext,
  userId: number,
  id: number,
  changes: RequestChanges,
): Promise<OffLimitNotice[]> {
  let type: TimeOffTypeRow | undefined;
  const { before: entry, changes: values } = await transition(
    trx,
    { table: 'time_off', orgId: auth.orgId, id, model: 'TimeOff', softDeleted: true },
    async (entry) => {
      if (entry.user_id !== userId) throw notFound('TimeOff');
      if (entry.status !== PENDING)
        throw invalidParams(`Only pending time off can be changed; this time off is ${STATUS_WORD[entry.status]}.`);
      let start = changes.start ?? entry.start;
      let end = changes.end ?? entry.end;
      // one 422 naming every failing field; the type's own rules once every field is sound
      const [, , checkedType, rrule] = await checkAll([
        () => assertOrdered(start, end),
        () => (changes.adminIds ? assertUsersExist(trx, auth.orgId, changes.adminIds, 'admin id') : undefined),
        () => findTimeOffTypeOrInvalid(trx, auth.orgId, changes.typeId ?? entry.time_off_type_id),
        () => (changes.rrule === undefined ? entry.rrule : changes.rrule ? normalizeRule(changes.rrule) : null),
      ] as const);
      type = checkedType;
      await lockUsers(trx, [userId]);
      if (changes.dates)
        ({ start, end } = await workSpanOfDates(trx, auth.orgId, userId, changes.dates, auth.timezone));
      await checkRequest(trx, auth, type, { userId, start, end, status: PENDING, rrule, dates: changes.dates }, id);
      return {
        start,
        end,
        time_off_type_id: type.id,
        rrule,
        until: lastOccurrenceEnd(rrule, start, end),
        ...(changes.start !== undefined || changes.end !== undefined || changes.dates
          ? { first_date: changes.dates?.first ?? null, last_date: changes.dates?.last ?? null }
          : {}),
        ...(changes.userNote !== undefined ? { user_note: changes.userNote } : {}),
        ...(changes.adminIds
          ? { admin_ids: JSON.stringify(changes.adminIds), admin_id: changes.adminIds[0] ?? null }
          : {}),
      } satisfies Updateable<TimeOffTable>;
    },
  );
  await assertBankAllows(trx, auth, { ...entry, ...values } as TimeOffRow, type!);
  // the request as changed against the off limits (a refusal is a 422; other breaches are answered as warnings)
  const warnings = await enforceOffLimits(trx, auth, { ...entry, ...values } as TimeOffRow, 'request');
  const users = await findUsersByIds(trx, auth.orgId, [userId]);
  await logAction(trx, auth, 'time_off.updated', id, {
    description:
      `changed a time off request (${type!.label}) of ${fullName(users.get(userId)!)}, now ` +
      `${span({ start: values.start!, end: values.end! })}.`,
    actorUserId: userId,
    before: entry,
    after: values,
  });
  return warnings;
}

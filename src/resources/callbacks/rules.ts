import { defaultWorkTypeId, findWorkTypeOrInvalid } from '../work-types/repository.js';
import { findAssignmentOrInvalid } from '../assignments/repository.js';
import { findCallbackList, findListOrInvalid } from '../lists/repository.js';
import type { AuthContext } from '../../core/auth/context.js';
import { writeLog, logAction } from '../../core/audit.js';
import { reconcileBank } from '../accruals/reconcile.js';
import { lockRowOrThrow, lockUsers, transition } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams, notADateTime, notFound } from '../../core/errors.js';
import {
  assertGivenPeriod,
  assertPeriod,
  normalizeLocalDateTime,
  nowLocal,
  nowUtc,
  parseInstantInput,
} from '../../core/time.js';
import { hoursBetween } from '../../core/time.js';
import { occurrenceStaffing, type Reason } from '../../scheduling/index.js';
import { overrideFatigue } from '../fatigue-rules/repository.js';
import { findUserOrInvalid } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import { allIneligibilityReasons, selectCandidates, type SkippedCandidate } from './ordering/candidates.js';
import { assertVacancyOpen, insertShift, lockAssignment } from './contracts.js';
import { recordAnswer, recordStart } from './decisions/records.js';
import {
  findCallbackOrThrow,
  findCallbackUser,
  findOpenOffer,
  insertCallback,
  insertCallbackUsers,
  revokeOffer,
  updateCallbackUser,
} from './repository.js';
import type { CallbackVacancy, RecordResponseBody, StartCallbackBody } from './schemas.js';
import type { CallbackOrdering, CallbackRow } from './table.js';

export type CallbackStatus = 'active' | 'filled' | 'partially filled' | 'not filled' | 'cancelled';

/**
 * Status machine: `active` from the start until all positions are accepted (`filled`), the deadline
 * passes (`partially filled` with some acceptances, `not filled` with none) or an admin cancels
 * (`cancelled`). The deadline statuses are derived on read; the others are stored.
 */
export function callbackStatus(callback: CallbackRow, nowInstant: string): CallbackStatus {
  if (callback.status !== 'active') return callback.status;
  if (callback.deadline > nowInstant) return 'active';
  return callback.accepted_count > 0 ? 'partially filled' : 'not filled';
}

/** When the callback closed: when filled or cancelled, or the deadline once it has passed. */
export function endedAt(callback: CallbackRow, nowInstant: string): string | null {
  if (callback.ended_at) return callback.ended_at;
  return callback.deadline <= nowInstant ? callback.deadline : null;
}

function instantOrInvalid(value: string, field: string, timeZone: string): string {
  const instant = parseInstantInput(value, timeZone);
  if (!instant) throw notADateTime(field);
  return instant;
}

export interface StartedCallback {
  id: number;
  candidates: Array<{ user_id: number; position: number }>;
  skipped: SkippedCandidate[];
  vacancy: CallbackVacancy | null;
}

/** The qualifiers whoever fills the callback's vacancy must hold: every one it is short of. */
export function requiredOf(callback: Pick<CallbackRow, 'vacancy'>) {
  const vacancy = callback.vacancy ? (JSON.parse(callback.vacancy) as CallbackVacancy) : null;
  if (!vacancy?.qualifier_shortfalls.length) return undefined;
  return {
    date: vacancy.date,
    qualifiers: vacancy.qualifier_shortfalls.map((q) => ({ id: q.id, shortcode: q.shortcode ?? `#${q.id}` })),
  };
}

/**
 * The vacancy a callback on an assignment fills: the assignment's occurrence the callback's span
 * overlaps most, with its staffing from the engine. `extra_staffing` when nothing is short there.
 */
async function vacancyOf(
  trx: Db,
  auth: AuthContext,
  assignmentId: number,
  span: { start: string; end: string },
): Promise<CallbackVacancy | null> {
  const occurrences = await occurrenceStaffing(trx, auth.orgId, span, auth.timezone, [assignmentId]);
  const overlap = (o: { start: string; end: string }) =>
    hoursBetween(o.start > span.start ? o.start : span.start, o.end < span.end ? o.end : span.end, auth.timezone);
  const best = occurrences.sort((a, b) => overlap(b) - overlap(a))[0];
  if (!best) return null;
  const { staffing } = best;
  return {
    assignment_id: assignmentId,
    date: best.date,
    start: best.start,
    end: best.end,
    needed: staffing.needed,
    scheduled: staffing.scheduled,
    open: staffing.open,
    qualifier_shortfalls: staffing.qualifier_shortfalls,
    extra_staffing: staffing.open === 0 && staffing.qualifier_shortfalls.length === 0,
  };
}

/**
 * The rules on a new callback's fields, one 422 naming every failing field (checkAll). A field left
 * undefined (refused by the schema: the route's ruleChecks) is not checked.
 */
export function checkCallbackFields(trx: Db, auth: AuthContext, body: Partial<StartCallbackBody>) {
  const { orgId, timezone } = auth;
  const { initiated_by: adminId, list_id: listId, start, end, deadline } = body;
  return checkAll([
    () => (adminId !== undefined ? findUserOrInvalid(trx, orgId, adminId, 'initiated by') : undefined),
    () => (listId !== undefined ? findListOrInvalid(trx, orgId, listId) : undefined),
    () => assertGivenPeriod(start, end, { within: 'callback' }),
    () => (deadline !== undefined ? instantOrInvalid(deadline, 'deadline', timezone) : undefined),
    () => (body.scheduled_to ? instantOrInvalid(body.scheduled_to, 'scheduled to', timezone) : nowUtc()),
    () => (body.assignment_id ? findAssignmentOrInvalid(trx, orgId, body.assignment_id) : undefined),
    () => (body.work_type_id ? findWorkTypeOrInvalid(trx, orgId, body.work_type_id) : undefined),
  ] as const);
}

export async function startCallback(trx: Db, auth: AuthContext, body: StartCallbackBody): Promise<StartedCallback> {
  const { orgId, timezone } = auth;
  const start = normalizeLocalDateTime(body.start);
  const end = normalizeLocalDateTime(body.end);
  const assignmentId = body.assignment_id ?? null;
  const [found, foundList, , foundDeadline, scheduledTo] = await checkCallbackFields(trx, auth, body);
  const [admin, list, deadline] = [found!, foundList!, foundDeadline!];
  const workTypeId = body.work_type_id ?? (await defaultWorkTypeId(trx, orgId, 'Callback'));
  const ordering: CallbackOrdering = body.ordering ?? list.ordering;

  const vacancy = assignmentId === null ? null : await vacancyOf(trx, auth, assignmentId, { start, end });
  const required = requiredOf({ vacancy: vacancy ? JSON.stringify(vacancy) : null });
  const selection = await selectCandidates(
    trx,
    orgId,
    list,
    { start, end, ordering, assignmentId },
    timezone,
    required,
  );
  const now = nowUtc();
  const id = await insertCallback(trx, {
    organization_id: orgId,
    list_id: list.id,
    assignment_id: assignmentId,
    work_type_id: workTypeId,
    initiated_by: admin.id,
    ordering,
    start,
    end,
    positions_to_fill: body.positions_to_fill,
    accepted_count: 0,
    status: 'active',
    scheduled_to: scheduledTo,
    started_at: now,
    ended_at: null,
    deadline,
    notes: body.notes ?? null,
    vacancy: vacancy ? JSON.stringify(vacancy) : null,
    cancelled_by: null,
    created_at: now,
  });
  const candidates = selection.userIds.map((userId, index) => ({ user_id: userId, position: index + 1 }));
  await insertCallbackUsers(
    trx,
    candidates.map((c) => ({
      organization_id: orgId,
      callback_id: id,
      user_id: c.user_id,
      position: c.position,
      status: 'pending' as const,
      contact_method: null,
      contact_time: null,
      response_time: null,
      start_time: null,
      end_time: null,
      uses_opportunity: 0,
      do_not_disturb: 0,
      auto_accepted: 0,
      shift_id: null,
      updated_at: now,
    })),
  );
  await recordStart(trx, auth, { id, list_id: list.id, ordering }, selection, now);
  await logAction(trx, auth, 'callback.started', id, {
    description:
      `started callback #${id} on list ${list.name} for ${start} to ${end}: ${body.positions_to_fill} ` +
      `position(s), ${candidates.length} candidate(s), ${selection.skipped.length} skipped.`,
    actorUserId: admin.id,
    after: { ...body, candidates, skipped: selection.skipped },
  });
  return { id, candidates, skipped: selection.skipped, vacancy };
}

function partOfCallback(callback: CallbackRow, body: RecordResponseBody) {
  const start = body.start_time ? normalizeLocalDateTime(body.start_time) : null;
  const end = body.end_time ? normalizeLocalDateTime(body.end_time) : null;
  const from = start ?? callback.start;
  const to = end ?? callback.end;
  assertPeriod(from, to, { fields: { start: 'start time', end: 'end time' } });
  if (from < callback.start || to > callback.end)
    throw invalidParams('The start time and end time must lie within the callback.');
  return { start, end, from, to };
}

async function placeShift(
  trx: Db,
  auth: AuthContext,
  callback: CallbackRow,
  userId: number,
  span: { from: string; to: string },
) {
  if (callback.assignment_id === null) return null;
  const vacancy = callback.vacancy ? (JSON.parse(callback.vacancy) as CallbackVacancy) : null;
  return insertShift(trx, auth.orgId, {
    assignment_id: callback.assignment_id,
    user_id: userId,
    // under the occurrence it fills, so the schedule and its staffing count it there
    date: vacancy?.date ?? span.from.slice(0, 10),
    // someone on time off that does not exclude them from callbacks works the hours they accepted
    overrides_time_off: true,
    start: span.from,
    end: span.to,
    work_type_id: callback.work_type_id,
    work_subtype_id: null,
    notes: `Callback #${callback.id}`,
    from_callback: callback.id,
    traded_with: null,
    scheduled_by: callback.initiated_by,
  });
}

/**
 * An acceptance placing someone on the callback's assignment takes the assignment's row lock, as a
 * board Fill of a seat does (POST /shifts `for_vacancy`), before the user's lock (rows first, then
 * users). While it fills a seat that was open when the callback started, that seat must still be open
 * (409 otherwise): of a Fill and an acceptance of the last seat at once, one is placed. Acceptances
 * past those seats (a callback asking for extra staff) only queue on the lock.
 */
async function holdSeat(trx: Db, auth: AuthContext, callback: CallbackRow): Promise<void> {
  if (callback.assignment_id === null) return;
  const vacancy = callback.vacancy ? (JSON.parse(callback.vacancy) as CallbackVacancy) : null;
  const seats =
    !vacancy || vacancy.extra_staffing ? 0 : Math.max(vacancy.open, vacancy.qualifier_shortfalls.length ? 1 : 0);
  if (vacancy && callback.accepted_count < seats) await assertVacancyOpen(trx, auth, callback.assignment_id, vacancy);
  else await lockAssignment(trx, auth, callback.assignment_id);
}

/** Work, time off or hours taken on since the callback started can make a candidate ineligible. */
async function assertStillEligible(
  trx: Db,
  auth: AuthContext,
  callback: CallbackRow,
  user: UserRow,
  span: { from: string; to: string },
  override: string | undefined,
) {
  const list = await findCallbackList(trx, auth.orgId, callback.list_id);
  const all = await allIneligibilityReasons(
    trx,
    auth.orgId,
    list,
    { start: span.from, end: span.to, assignmentId: callback.assignment_id },
    [user.id],
    auth.timezone,
    requiredOf(callback),
  );
  const reasons = all.get(user.id) ?? [];
  const refusal = (reason: Reason) =>
    invalidParams(`${fullName(user)} can no longer take callback #${callback.id}: ${reason.text}.`);
  // an admin's override_reason goes over the fatigue rules only (logged); every other reason still refuses
  const [reason] = override?.trim() ? reasons.filter((r) => r.kind !== 'fatigue') : reasons;
  if (reason) throw refusal(reason);
  await overrideFatigue(trx, auth, reasons, {
    override,
    refusal,
    who: `${fullName(user)} (callback #${callback.id}, ${span.from} to ${span.to})`,
    entity: { type: 'callback', id: callback.id },
    actorUserId: callback.initiated_by,
  });
}

/**
 * Records a contacted user's answer, as a transition of the callback's row: concurrent answers
 * queue on its lock and no more than positions_to_fill of them are taken. `beforeAccept` runs
 * once the user's schedule is locked and their eligibility re-checked (the runner's auto-accept
 * limits); it throws to refuse.
 */
export async function recordResponse(
  trx: Db,
  auth: AuthContext,
  callbackId: number,
  body: RecordResponseBody,
  beforeAccept?: (callback: CallbackRow) => Promise<void>,
) {
  let result: { name: string; callbackStatus: CallbackStatus; shiftId: number | null } | undefined;
  await transition(
    trx,
    { table: 'callback', orgId: auth.orgId, id: callbackId, model: 'Callback' },
    async (callback) => {
      const user = await findUserOrInvalid(trx, auth.orgId, body.user_id);
      const candidate = await findCallbackUser(trx, auth.orgId, callbackId, body.user_id);
      if (!candidate)
        throw invalidParams(`User #${body.user_id} is not on the contact list of callback #${callbackId}.`);
      if (candidate.status === 'accepted')
        throw invalidParams(`User #${body.user_id} has already accepted callback #${callbackId}.`);
      const status = callbackStatus(callback, nowUtc());
      if (status !== 'active') throw invalidParams(`Callback #${callbackId} is ${status}.`);

      const now = nowLocal(auth.timezone);
      const span = partOfCallback(callback, body);
      const accepted = body.status === 'accepted';
      if (accepted) {
        // the seat's assignment, then the user's schedule, stay as checked until the shift is placed
        await holdSeat(trx, auth, callback);
        await lockUsers(trx, [user.id]);
        await assertStillEligible(trx, auth, callback, user, span, body.override_reason);
        await beforeAccept?.(callback);
      }
      const shiftId = accepted ? await placeShift(trx, auth, callback, user.id, span) : null;
      await updateCallbackUser(trx, auth.orgId, candidate.id, {
        status: body.status,
        contact_method: body.contact_method ?? candidate.contact_method,
        contact_time: body.contact_time ? normalizeLocalDateTime(body.contact_time) : (candidate.contact_time ?? now),
        response_time: body.response_time
          ? normalizeLocalDateTime(body.response_time)
          : body.status === 'no answer'
            ? null
            : now,
        start_time: accepted ? span.start : null,
        end_time: accepted ? span.end : null,
        uses_opportunity: 1,
        do_not_disturb: body.do_not_disturb ? 1 : 0,
        auto_accepted: body.auto_accepted ? 1 : 0,
        shift_id: shiftId,
        updated_at: nowUtc(),
      });
      await recordAnswer(trx, auth, callbackId, nowUtc(), {
        user_id: user.id,
        verdict: body.status === 'no answer' ? 'no_answer' : body.status,
        position: candidate.position,
        reason_code: body.auto_accepted ? 'auto_accepted' : null,
        reason: body.auto_accepted ? 'auto-accepted within their limits' : (body.contact_method ?? null),
      });
      const acceptedCount = callback.accepted_count + (accepted ? 1 : 0);
      const filled = accepted && acceptedCount >= callback.positions_to_fill;
      const callbackStatusAfter: CallbackStatus = filled ? 'filled' : status;
      const name = fullName(user);
      const verb = accepted ? (body.auto_accepted ? 'auto-accepted' : 'accepted') : undefined;
      await writeLog(trx, auth, {
        action: `callback.${body.status.replace(' ', '_')}`,
        description:
          `${verb ?? (body.status === 'denied' ? 'denied' : 'did not answer')} callback ` +
          `#${callbackId} (${callback.start} to ` +
          `${callback.end})${callbackStatusAfter === 'filled' ? '; the callback is filled' : ''}.`,
        actorUserId: user.id,
        entityType: 'callback',
        entityId: callbackId,
        before: candidate,
        after: { ...body, shift_id: shiftId },
      });
      // a callback worked over the user's own time off: the time off no longer covers those hours
      if (shiftId !== null && callback.assignment_id !== null)
        await reconcileBank(trx, auth, {
          action: `callback.${body.status.replace(' ', '_')}`,
          userIds: [user.id],
          start: span.from,
          end: span.to,
          assignmentIds: [callback.assignment_id],
        });
      result = { name, callbackStatus: callbackStatusAfter, shiftId };
      return { accepted_count: acceptedCount, ...(filled ? { status: 'filled' as const, ended_at: nowUtc() } : {}) };
    },
  );
  return result!;
}

export async function cancelCallback(trx: Db, auth: AuthContext, callbackId: number, adminId: number): Promise<void> {
  const { before: callback } = await transition(
    trx,
    { table: 'callback', orgId: auth.orgId, id: callbackId, model: 'Callback' },
    async (callback) => {
      await findUserOrInvalid(trx, auth.orgId, adminId, 'admin id');
      const status = callbackStatus(callback, nowUtc());
      if (status !== 'active') throw invalidParams(`Callback #${callbackId} is ${status}.`);
      return { status: 'cancelled' as const, cancelled_by: adminId, ended_at: nowUtc() };
    },
  );
  await logAction(trx, auth, 'callback.cancelled', callbackId, {
    description:
      `cancelled callback #${callbackId} (${callback.start} to ${callback.end}, ${callback.accepted_count} of ` +
      `${callback.positions_to_fill} accepted).`,
    actorUserId: adminId,
  });
}

/**
 * DELETE /callbacks/{id}/users/{user_id}/offer: revokes the user's open offer link (and SMS reply)
 * at once; the runner still waits out the offer's window before moving on. 404 without an open offer.
 */
export async function revokeOpenOffer(
  trx: Db,
  auth: AuthContext,
  callbackId: number,
  userId: number,
  adminId: number | undefined,
): Promise<void> {
  await findCallbackOrThrow(trx, auth.orgId, callbackId);
  if (adminId !== undefined) await findUserOrInvalid(trx, auth.orgId, adminId, 'admin id');
  const now = nowUtc();
  const offer = await findOpenOffer(trx, auth.orgId, callbackId, userId, now);
  if (!offer || !(await revokeOffer(trx, offer, adminId ?? 0, now))) throw notFound('CallbackOffer');
  await logAction(trx, auth, 'callback.offer_revoked', callbackId, {
    description: `revoked the callback #${callbackId} offer link of user #${userId}.`,
    actorUserId: adminId,
    after: { offer_id: offer.id, user_id: userId },
  });
}

/**
 * POST /callbacks/{id}/users/{user_id}/resend (admins): the user's open offer link (if any) is
 * revoked and they are not contacted any more, so the runner offers to them again at once, with a
 * fresh link and window. Only for someone already offered who has not accepted or declined (an
 * open offer, or one that lapsed without an answer) on an active callback. Under the callback's
 * row lock: of parallel re-sends, one wins and the others find nothing to re-send.
 */
export async function resendOffer(trx: Db, auth: AuthContext, callbackId: number, userId: number, adminId: number) {
  const callback = await lockRowOrThrow(trx, {
    table: 'callback',
    orgId: auth.orgId,
    id: callbackId,
    model: 'Callback',
  });
  await findUserOrInvalid(trx, auth.orgId, adminId, 'admin id');
  const status = callbackStatus(callback, nowUtc());
  if (status !== 'active') throw invalidParams(`Callback #${callbackId} is ${status}.`);
  const candidate = await findCallbackUser(trx, auth.orgId, callbackId, userId);
  if (!candidate) throw invalidParams(`User #${userId} is not on the contact list of callback #${callbackId}.`);
  const offered = candidate.contact_time !== null && candidate.status === 'pending';
  if (!offered && candidate.status !== 'no answer')
    throw invalidParams(
      candidate.contact_time === null
        ? `User #${userId} has not been offered callback #${callbackId} yet: there is nothing to re-send.`
        : `User #${userId} has already answered callback #${callbackId} (${candidate.status}).`,
    );
  const now = nowUtc();
  const open = await findOpenOffer(trx, auth.orgId, callbackId, userId, now);
  if (open) await revokeOffer(trx, open, adminId, now);
  await updateCallbackUser(trx, auth.orgId, candidate.id, {
    status: 'pending',
    contact_method: null,
    contact_time: null,
    response_time: null,
    offer_expires_at: null,
    updated_at: now,
  });
  await logAction(trx, auth, 'callback.offer_resent', callbackId, {
    description: `re-sent the callback #${callbackId} offer to user #${userId}.`,
    actorUserId: adminId,
    after: { user_id: userId, revoked_offer_id: open?.id ?? null },
  });
}

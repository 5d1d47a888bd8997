import { assertWorkType } from '../work-types/repository.js';
import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { sanitize } from '../../core/html.js';
import { assertGivenPeriod, hoursBetween, normalizeLocalDateTime, nowUtc } from '../../core/time.js';
import { lockUsers } from '../../core/db/locks.js';
import { availabilityOf, refusalMessage } from '../../scheduling/index.js';
import { overrideFatigue } from '../fatigue-rules/repository.js';
import { deleteMiscHour, insertMiscHour, updateMiscHoursOfSource } from '../misc-hours/repository.js';
import type { UserRow } from '../users/table.js';
import { findUser, findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import {
  deleteEventUser,
  findEventUser,
  insertEventUser,
  insertSignupEvent,
  listEventUsers,
  lockSignupEventOrThrow,
  updateSignupEvent,
} from './repository.js';
import type { ReplaceSignupEventBody, SignupEventBody, SignupStatus } from './schemas.js';
import type { SignupEventRow } from './table.js';

/**
 * The status is computed, never stored: deleted when soft-deleted; filled once the sign-ups reach
 * employees_needed; otherwise active until the event starts, then partially_filled (some sign-ups)
 * or not_filled (none).
 */
export function signupStatus(event: SignupEventRow, nowLocal: string): SignupStatus {
  if (event.deleted_at) return 'deleted';
  if (event.signed_up_count >= event.employees_needed) return 'filled';
  if (event.start > nowLocal) return 'active';
  return event.signed_up_count > 0 ? 'partially_filled' : 'not_filled';
}

/**
 * The rules on an event's fields, one 422 naming every failing field (checkAll). A field left
 * undefined (refused by the schema: the routes' ruleChecks) is not checked.
 */
export async function checkSignupEventFields(trx: Db, orgId: number, body: Partial<SignupEventBody>): Promise<void> {
  const { admin_id: adminId, start, end, work_type_id: workTypeId } = body;
  await checkAll([
    () => (adminId !== undefined ? findUserOrInvalid(trx, orgId, adminId, 'admin id') : undefined),
    () => assertGivenPeriod(start, end, { within: 'event' }),
    () => (workTypeId !== undefined ? assertWorkType(trx, orgId, workTypeId, body.work_subtype_id ?? null) : undefined),
  ] as const);
}

async function checkedFields(trx: Db, orgId: number, body: SignupEventBody) {
  const start = normalizeLocalDateTime(body.start);
  const end = normalizeLocalDateTime(body.end);
  const workSubtypeId = body.work_subtype_id ?? null;
  await checkSignupEventFields(trx, orgId, body);
  return {
    title: body.title.trim(),
    start,
    end,
    description: sanitize(body.description ?? ''),
    work_type_id: body.work_type_id,
    work_subtype_id: workSubtypeId,
    employees_needed: body.employees_needed,
  };
}

export async function createSignupEvent(trx: Db, auth: AuthContext, body: SignupEventBody): Promise<number> {
  const fields = await checkedFields(trx, auth.orgId, body);
  const now = nowUtc();
  const id = await insertSignupEvent(trx, {
    organization_id: auth.orgId,
    ...fields,
    signed_up_count: 0,
    created_by: body.admin_id,
    modified_by: body.admin_id,
    created_at: now,
    modified_at: now,
    deleted_by: null,
    deleted_at: null,
  });
  await logAction(trx, auth, 'signup_event.created', id, {
    description:
      `added signup event ${fields.title} (${fields.start} to ${fields.end}, ` + `${fields.employees_needed} needed).`,
    actorUserId: body.admin_id,
    after: fields,
  });
  return id;
}

/** The misc-hours entry a sign-up writes for the event (a change of the event rewrites it). */
function signupMiscValues(
  auth: AuthContext,
  event: Pick<SignupEventRow, 'title' | 'start' | 'end'> & {
    work_type_id: number;
    work_subtype_id: number | null;
  },
) {
  return {
    date: event.start.slice(0, 10),
    start: event.start,
    end: event.end,
    length: hoursBetween(event.start, event.end, auth.timezone),
    work_type_id: event.work_type_id,
    work_subtype_id: event.work_subtype_id,
    notes: `Signup event: ${event.title}`,
  };
}

/**
 * PUT replaces every field: an omitted work_subtype_id or description is cleared. The sign-ups'
 * misc hours follow the event's times, title and work type; new times keep each signed-up person to
 * the fatigue rules (assertRested, with the admin's `override_reason`).
 */
export async function replaceSignupEvent(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: ReplaceSignupEventBody,
): Promise<string> {
  const before = await lockSignupEventOrThrow(trx, auth.orgId, id);
  if (before.deleted_at) throw invalidParams(`Signup event #${id} is deleted.`);
  const fields = await checkedFields(trx, auth.orgId, body);
  await updateSignupEvent(trx, auth.orgId, id, { ...fields, modified_by: body.admin_id, modified_at: nowUtc() });
  await updateMiscHoursOfSource(trx, auth.orgId, { source: 'signup_event', id }, signupMiscValues(auth, fields));
  if (fields.start !== before.start || fields.end !== before.end) {
    const signups = await listEventUsers(trx, auth.orgId, id);
    const users = await findUsersByIds(
      trx,
      auth.orgId,
      signups.map((signup) => signup.user_id),
    );
    for (const user of users.values())
      await assertRested(trx, auth, { ...before, ...fields }, user, body.override_reason);
  }
  await logAction(trx, auth, 'signup_event.updated', id, {
    description:
      `updated signup event ${fields.title} (${fields.start} to ${fields.end}, ` +
      `${fields.employees_needed} needed).`,
    actorUserId: body.admin_id,
    before,
    after: fields,
  });
  return fields.title;
}

export async function deleteSignupEvent(
  trx: Db,
  auth: AuthContext,
  id: number,
  adminId: number | undefined,
): Promise<string> {
  const event = await lockSignupEventOrThrow(trx, auth.orgId, id);
  if (event.deleted_at) throw invalidParams(`Signup event #${id} is already deleted.`);
  if (adminId !== undefined) await findUserOrInvalid(trx, auth.orgId, adminId, 'admin id');
  // deleted_by is never null on a deleted event (the spec): without admin_id, the event's creator
  await updateSignupEvent(trx, auth.orgId, id, { deleted_by: adminId ?? event.created_by, deleted_at: nowUtc() });
  await logAction(trx, auth, 'signup_event.deleted', id, {
    description: `deleted signup event ${event.title}.`,
    actorUserId: adminId,
    before: event,
  });
  return event.title;
}

/**
 * Signs a user up: the event row is locked first, so concurrent sign-ups of one event run one
 * after the other and the count check below cannot be passed by more than employees_needed.
 */
export async function signUpUser(trx: Db, auth: AuthContext, eventId: number, userId: number, overrideReason?: string) {
  const event = await lockSignupEventOrThrow(trx, auth.orgId, eventId);
  const user = await findUserOrInvalid(trx, auth.orgId, userId);
  if (event.deleted_at) throw invalidParams(`Signup event #${eventId} is deleted.`);
  if (await findEventUser(trx, auth.orgId, eventId, userId)) {
    throw invalidParams(`User #${userId} is already signed up for event #${eventId}`);
  }
  if (event.signed_up_count >= event.employees_needed)
    throw invalidParams(`Signup event #${eventId} is already filled.`);
  await assertRested(trx, auth, event, user, overrideReason);

  const miscHourId = await insertMiscHour(trx, auth.orgId, {
    user_id: userId,
    ...signupMiscValues(auth, event),
    source: 'signup_event',
    source_id: eventId,
  });
  await insertEventUser(trx, {
    organization_id: auth.orgId,
    event_id: eventId,
    user_id: userId,
    misc_hour_id: miscHourId,
    created_at: nowUtc(),
  });
  await updateSignupEvent(trx, auth.orgId, eventId, { signed_up_count: event.signed_up_count + 1 });
  const name = fullName(user);
  await logAction(trx, auth, 'signup_event.user_added', eventId, {
    description: `signed up for event ${event.title} (${event.start} to ${event.end}).`,
    actorUserId: userId,
    after: { user_id: userId, misc_hour_id: miscHourId },
  });
  return { name, title: event.title };
}

/**
 * The department's fatigue rules (docs/contract-rules.md#fatigue-rules) apply to a sign-up: 422 with
 * the rule's words unless an admin overrides (logged). Only the fatigue rules: a sign-up was never
 * refused for other work or time off, and is not now.
 */
async function assertRested(
  trx: Db,
  auth: AuthContext,
  event: SignupEventRow,
  user: UserRow,
  overrideReason: string | undefined,
) {
  // under the user's lock until the transaction ends: the check and the sign-up it allows are one step
  await lockUsers(trx, [user.id]);
  const request = { start: event.start, end: event.end, userIds: [user.id], timezone: auth.timezone };
  const { reasons } = (await availabilityOf(trx, auth.orgId, request)).get(user.id)!;
  await overrideFatigue(trx, auth, reasons, {
    override: overrideReason,
    refusal: (reason) => invalidParams(refusalMessage(fullName(user), `event ${event.title}`, reason)),
    who: `${fullName(user)} (event ${event.title}, ${event.start.slice(0, 16)} to ${event.end.slice(0, 16)})`,
    entity: { type: 'signup_event', id: event.id },
  });
}

export async function removeSignedUpUser(trx: Db, auth: AuthContext, eventId: number, userId: number) {
  const event = await lockSignupEventOrThrow(trx, auth.orgId, eventId);
  const signup = await findEventUser(trx, auth.orgId, eventId, userId);
  if (!signup) throw invalidParams(`User #${userId} not found in Signup Event.`);
  if (signup.misc_hour_id !== null) await deleteMiscHour(trx, auth.orgId, signup.misc_hour_id);
  await deleteEventUser(trx, auth.orgId, signup.id);
  await updateSignupEvent(trx, auth.orgId, eventId, { signed_up_count: Math.max(0, event.signed_up_count - 1) });
  const user = await findUser(trx, auth.orgId, userId);
  const name = user ? fullName(user) : `User #${userId}`;
  await logAction(trx, auth, 'signup_event.user_removed', eventId, {
    description: `was removed from event ${event.title}.`,
    actorUserId: userId,
    before: { user_id: userId, misc_hour_id: signup.misc_hour_id },
  });
  return { name, title: event.title };
}

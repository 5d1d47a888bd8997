import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll } from '../../core/errors.js';
import { hasChanges, sentFields } from '../../core/fields.js';
import { assertGivenPeriod, normalizeLocalDateTime, nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import {
  findPeriodOrThrow,
  findReasonOrInvalid,
  findReasonOrThrow,
  insertPeriod,
  insertReason,
  softDeletePeriod,
  updateReason,
} from './repository.js';
import type { CreatePeriodBody, ReasonPatchBody } from './schemas.js';

/**
 * The rules on a new period's fields, one 422 naming every failing field (checkAll). A field left
 * undefined (refused by the schema: the route's ruleChecks) is not checked.
 */
export function checkPeriodFields(trx: Db, orgId: number, body: Partial<CreatePeriodBody>) {
  const { start, end, user_id: userId } = body;
  return checkAll([
    () => assertGivenPeriod(start, end, { within: 'period' }),
    () => (userId !== undefined ? findUserOrInvalid(trx, orgId, userId) : undefined),
    () => (body.admin_id ? findUserOrInvalid(trx, orgId, body.admin_id, 'admin id') : null),
    () => (body.unavailability_reason_id ? findReasonOrInvalid(trx, orgId, body.unavailability_reason_id) : null),
  ] as const);
}

/** Without admin_id the period is entered by the user: the user is recorded as its admin. */
export async function createPeriod(trx: Db, auth: AuthContext, body: CreatePeriodBody): Promise<number> {
  const start = normalizeLocalDateTime(body.start);
  const end = normalizeLocalDateTime(body.end);
  const [, found, namedAdmin, reason] = await checkPeriodFields(trx, auth.orgId, body);
  const user = found!;
  const admin = namedAdmin ?? user;
  const values = {
    organization_id: auth.orgId,
    user_id: user.id,
    start,
    end,
    admin_id: admin.id,
    notes: body.notes ?? null,
    unavailability_reason_id: reason?.id ?? null,
    created_at: nowUtc(),
    deleted_at: null,
  };
  const id = await insertPeriod(trx, values);
  await logAction(trx, auth, 'availability_period.created', id, {
    description:
      `entered unavailability${reason ? ` (${reason.name})` : ''} for ${fullName(user)}, ${start.slice(0, 16)} ` +
      `to ${end.slice(0, 16)}.`,
    actorUserId: admin.id,
    after: { ...values, organization_id: undefined },
  });
  return id;
}

export async function deletePeriod(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await findPeriodOrThrow(trx, auth.orgId, id);
  await softDeletePeriod(trx, auth.orgId, id, nowUtc());
  await logAction(trx, auth, 'availability_period.deleted', id, {
    description: `removed an availability period, ${before.start.slice(0, 16)} to ${before.end.slice(0, 16)}.`,
    before,
  });
}

export async function createReason(trx: Db, auth: AuthContext, name: string): Promise<number> {
  const id = await insertReason(trx, auth.orgId, name);
  await logAction(trx, auth, 'unavailability_reason.created', id, {
    description: `created unavailability reason ${name}.`,
  });
  return id;
}

/** A PATCH changes only the fields sent; `{}` is a logged no-op. */
export async function renameReason(trx: Db, auth: AuthContext, id: number, body: ReasonPatchBody): Promise<void> {
  const before = await findReasonOrThrow(trx, auth.orgId, id);
  const changes = sentFields(body, ['name']);
  if (hasChanges(changes)) await updateReason(trx, auth.orgId, id, changes);
  await logAction(trx, auth, 'unavailability_reason.updated', id, {
    description:
      changes.name === undefined
        ? `updated unavailability reason ${before.name}: no fields.`
        : `renamed unavailability reason ${before.name} to ${changes.name}.`,
    before,
    after: changes,
  });
}

export async function deleteReason(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await findReasonOrThrow(trx, auth.orgId, id);
  await updateReason(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'unavailability_reason.deleted', id, {
    description: `deleted unavailability reason ${before.name}.`,
    before,
  });
}

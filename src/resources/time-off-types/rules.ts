import type { Updateable } from 'kysely';
import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { reconcileTimeOffType } from '../accruals/reconcile.js';
import { findTimeOffTypeOrThrow, insertTimeOffType, setSickLeave, updateTimeOffType } from './repository.js';
import type { CreateTimeOffTypeBody, UpdateTimeOffTypeBody } from './schemas.js';
import type { TimeOffTypeTable } from './table.js';

export const DEFAULT_PRIMARY_COLOR = '#3f5647';
export const DEFAULT_SECONDARY_COLOR = '#FFFFFF';

const bit = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/**
 * The columns of the overdraft rule from `allow_negative` and `overdraft_hours` (either or both):
 * 0 hours refuses (allow_negative false), N allows down to -N, null allows any. 422 when they disagree.
 */
function overdraftColumns(body: UpdateTimeOffTypeBody): Updateable<TimeOffTypeTable> {
  const { allow_negative: allow, overdraft_hours: hours } = body;
  if (hours === undefined) return allow === undefined ? {} : { allow_negative: bit(allow), overdraft_hours: null };
  const allows = hours === null || hours > 0;
  if (allow !== undefined && allow !== allows)
    throw invalidParams(
      `The allow negative field (${allow}) contradicts the overdraft hours (${hours}): 0 hours refuses any ` +
        'overdraft, other values allow one.',
    );
  return { allow_negative: allows ? 1 : 0, overdraft_hours: allows ? hours : null };
}

function columnsOf(body: UpdateTimeOffTypeBody): Updateable<TimeOffTypeTable> {
  const values: Updateable<TimeOffTypeTable> = {
    label: body.label,
    work_code: body.work_code,
    required_buffer: body.required_buffer,
    instance_limit: body.instance_limit,
    primary_color: body.primary_color,
    secondary_color: body.secondary_color,
    force_include: bit(body.force_include),
    forward: bit(body.forward),
    ...overdraftColumns(body),
    default_day_hours: body.default_day_hours,
    counts_as_worked: bit(body.counts_as_worked),
    callback_exclusion_hours: body.callback_exclusion_hours,
    masked: bit(body.masked),
    public_name: body.public_name,
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

export async function createTimeOffType(trx: Db, auth: AuthContext, body: CreateTimeOffTypeBody): Promise<number> {
  const id = await insertTimeOffType(trx, {
    organization_id: auth.orgId,
    label: body.label,
    work_code: body.work_code ?? null,
    required_buffer: body.required_buffer ?? 0,
    instance_limit: body.instance_limit ?? 0,
    primary_color: body.primary_color ?? DEFAULT_PRIMARY_COLOR,
    secondary_color: body.secondary_color ?? DEFAULT_SECONDARY_COLOR,
    force_include: bit(body.force_include) ?? 0,
    forward: bit(body.forward) ?? 0,
    allow_negative: 0,
    ...overdraftColumns(body),
    default_day_hours: body.default_day_hours ?? 24,
    counts_as_worked: bit(body.counts_as_worked) ?? 0,
    callback_exclusion_hours: body.callback_exclusion_hours ?? 0,
    masked: bit(body.masked) ?? 0,
    public_name: body.public_name ?? null,
    deleted_at: null,
    created_at: nowUtc(),
  });
  if (body.sick_leave) await setSickLeave(trx, auth.orgId, id, true);
  await logAction(trx, auth, 'time_off_type.created', id, {
    description: `created time off type ${body.label}.`,
    after: body,
  });
  return id;
}

export async function changeTimeOffType(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: UpdateTimeOffTypeBody,
): Promise<void> {
  const before = await findTimeOffTypeOrThrow(trx, auth.orgId, id);
  const changes = columnsOf(body);
  if (Object.keys(changes).length > 0) await updateTimeOffType(trx, auth.orgId, id, changes);
  if (body.sick_leave !== undefined) await setSickLeave(trx, auth.orgId, id, body.sick_leave);
  await logAction(trx, auth, 'time_off_type.updated', id, {
    description: `updated time off type ${body.label ?? before.label}.`,
    before,
    after: body.sick_leave === undefined ? changes : { ...changes, sick_leave: body.sick_leave },
  });
  // the bank follows the charge (docs/time-off.md): a new default day moves what approved entries charge
  if (changes.default_day_hours !== undefined && Number(changes.default_day_hours) !== Number(before.default_day_hours))
    await reconcileTimeOffType(trx, auth, id);
}

/** Soft delete: existing time off keeps its type; the type is no longer listed or usable. */
export async function deleteTimeOffType(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await findTimeOffTypeOrThrow(trx, auth.orgId, id);
  await updateTimeOffType(trx, auth.orgId, id, { deleted_at: nowUtc(), sick_leave: 0 });
  await logAction(trx, auth, 'time_off_type.deleted', id, {
    description: `deleted time off type ${before.label}.`,
    before,
  });
}

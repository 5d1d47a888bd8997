import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, notFound } from '../../core/errors.js';
import { hasChanges } from '../../core/fields.js';
import { assertPeriod, nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import { findVisualCycleOrThrow, insertVisualCycle, updateVisualCycle } from './repository.js';
import type { ChangeVisualCycleBody, CreateVisualCycleBody } from './schemas.js';
import type { VisualCycleRow } from './table.js';

/** The date part of an accepted date or datetime input. */
const dayOf = (value: string) => value.trim().slice(0, 10);

function assertOrder(start: string, end: string) {
  assertPeriod(start, end, { allowEqual: true });
}

export async function createVisualCycle(trx: Db, auth: AuthContext, body: CreateVisualCycleBody): Promise<number> {
  const values = {
    name: body.name,
    start: dayOf(body.start),
    end: dayOf(body.end),
    color: body.color,
    text_color: body.text_color,
  };
  // one 422 naming every failing field
  await checkAll([
    () => (body.created_by !== undefined ? findUserOrInvalid(trx, auth.orgId, body.created_by, 'created by') : null),
    () => assertOrder(values.start, values.end),
  ] as const);
  const id = await insertVisualCycle(trx, {
    organization_id: auth.orgId,
    ...values,
    created_by: body.created_by ?? null,
    created_at: nowUtc(),
    deleted_by: null,
    deleted_at: null,
  });
  await logAction(trx, auth, 'visual_cycle.created', id, {
    description: `created visual cycle ${body.name} (${values.start} to ${values.end})`,
    actorUserId: body.created_by,
    after: values,
  });
  return id;
}

async function findActiveOrThrow(trx: Db, orgId: number, id: number): Promise<VisualCycleRow> {
  const cycle = await findVisualCycleOrThrow(trx, orgId, id);
  if (cycle.deleted_at) throw notFound('VisualCycle');
  return cycle;
}

export async function changeVisualCycle(
  trx: Db,
  auth: AuthContext,
  id: number,
  body: ChangeVisualCycleBody,
): Promise<void> {
  const before = await findActiveOrThrow(trx, auth.orgId, id);
  const changes = {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.start === undefined ? {} : { start: dayOf(body.start) }),
    ...(body.end === undefined ? {} : { end: dayOf(body.end) }),
    ...(body.color === undefined ? {} : { color: body.color }),
    ...(body.text_color === undefined ? {} : { text_color: body.text_color }),
  };
  await checkAll([
    () => (body.admin_id !== undefined ? findUserOrInvalid(trx, auth.orgId, body.admin_id, 'admin id') : null),
    () => assertOrder(changes.start ?? before.start, changes.end ?? before.end),
  ] as const);
  if (hasChanges(changes)) await updateVisualCycle(trx, auth.orgId, id, changes);
  await logAction(trx, auth, 'visual_cycle.updated', id, {
    description: `changed visual cycle ${before.name}`,
    actorUserId: body.admin_id,
    before: {
      name: before.name,
      start: before.start,
      end: before.end,
      color: before.color,
      text_color: before.text_color,
    },
    after: changes,
  });
}

export async function deleteVisualCycle(trx: Db, auth: AuthContext, id: number, deletedBy?: number): Promise<string> {
  const cycle = await findActiveOrThrow(trx, auth.orgId, id);
  if (deletedBy !== undefined) await findUserOrInvalid(trx, auth.orgId, deletedBy, 'deleted by');
  await updateVisualCycle(trx, auth.orgId, id, { deleted_at: nowUtc(), deleted_by: deletedBy ?? null });
  await logAction(trx, auth, 'visual_cycle.deleted', id, {
    description: `deleted visual cycle ${cycle.name}`,
    actorUserId: deletedBy,
  });
  return cycle.name;
}

import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { badRequest, notFound } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { findUserOrInvalid } from '../users/repository.js';
import { findFilterOrThrow, insertFilter, updateFilter } from './repository.js';
import type { FilterBody } from './schemas.js';

/** The creator is the `user_id` of the request when given; otherwise the API client (user null). */
export async function createFilter(trx: Db, auth: AuthContext, body: FilterBody): Promise<number> {
  if (body.user_id !== undefined) await findUserOrInvalid(trx, auth.orgId, body.user_id);
  const id = await insertFilter(trx, auth.orgId, {
    label: body.label,
    created_by: body.user_id ?? null,
    created_at: nowUtc(),
  });
  await logAction(trx, auth, 'filter.created', id, {
    description: `created specialty filter ${body.label}`,
    actorUserId: body.user_id,
    after: { label: body.label },
  });
  return id;
}

export async function changeFilter(trx: Db, auth: AuthContext, id: number, body: FilterBody): Promise<void> {
  const before = await findFilterOrThrow(trx, auth.orgId, id);
  if (before.deleted_at) throw notFound('Filter');
  if (body.user_id !== undefined) await findUserOrInvalid(trx, auth.orgId, body.user_id);
  await updateFilter(trx, auth.orgId, id, { label: body.label });
  await logAction(trx, auth, 'filter.updated', id, {
    description: `renamed specialty filter ${before.label} to ${body.label}`,
    actorUserId: body.user_id,
    before: { label: before.label },
    after: { label: body.label },
  });
}

/** Soft delete: the single read keeps answering with `deleted: "1"`; deleting again is a 400. */
export async function deleteFilter(trx: Db, auth: AuthContext, id: number): Promise<string> {
  const filter = await findFilterOrThrow(trx, auth.orgId, id);
  if (filter.deleted_at) throw badRequest('Filter already deleted.');
  await updateFilter(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'filter.deleted', id, {
    description: `deleted specialty filter ${filter.label}`,
  });
  return filter.label;
}

import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { badRequest, invalidParams, notFound } from '../../core/errors.js';
import { hasChanges, sentFields } from '../../core/fields.js';
import { nowUtc } from '../../core/time.js';
import { findGroupsByIds } from '../groups/repository.js';
import { findListOrThrow, insertList, nextListPosition, updateList } from './repository.js';
import type { ChangeListBody, CreateListBody } from './schemas.js';
import { serializeListSingle } from './serialize.js';

/** The columns a PATCH may change. */
const LIST_FIELDS = [
  'name',
  'max_consecutive_hours',
  'weekly_limit',
  'monthly_limit',
  'yearly_limit',
  'position',
  'ordering',
  'contact_window_minutes',
  'contact_at_once',
  'notify_group_id',
] as const;

/** The notice group a list names must be one of the organization's groups (422 naming the field). */
async function assertNoticeGroup(trx: Db, orgId: number, groupId: number): Promise<void> {
  const [group] = await findGroupsByIds(trx, orgId, [groupId]);
  if (!group) throw invalidParams('The selected notify group id is invalid.');
}

export async function createList(trx: Db, auth: AuthContext, body: CreateListBody): Promise<number> {
  const values = {
    name: body.name,
    max_consecutive_hours: body.max_consecutive_hours ?? 0,
    weekly_limit: body.weekly_limit ?? 0,
    monthly_limit: body.monthly_limit ?? 0,
    yearly_limit: body.yearly_limit ?? 0,
    position: body.position ?? (await nextListPosition(trx, auth.orgId)),
    ordering: body.ordering ?? 'rotating',
    contact_window_minutes: body.contact_window_minutes ?? null,
    contact_at_once: body.contact_at_once ?? 1,
    notify_group_id: body.notify_group_id ?? null,
  };
  if (values.notify_group_id !== null) await assertNoticeGroup(trx, auth.orgId, values.notify_group_id);
  const id = await insertList(trx, { organization_id: auth.orgId, ...values, created_at: nowUtc(), deleted_at: null });
  await logAction(trx, auth, 'callback_list.created', id, {
    description: `created callback list ${body.name}`,
    after: values,
  });
  return id;
}

export async function changeList(trx: Db, auth: AuthContext, id: number, body: ChangeListBody): Promise<void> {
  const before = await findListOrThrow(trx, auth.orgId, id);
  if (before.deleted_at) throw notFound('Title');
  const changes = sentFields(body, LIST_FIELDS);
  if (changes.notify_group_id) await assertNoticeGroup(trx, auth.orgId, changes.notify_group_id);
  if (hasChanges(changes)) await updateList(trx, auth.orgId, id, changes);
  await logAction(trx, auth, 'callback_list.updated', id, {
    description: `changed callback list ${before.name}`,
    before: { ...serializeListSingle(before), ordering: before.ordering },
    after: changes,
  });
}

/** Soft delete: the list stays readable by id with `deleted: true` and can no longer be used. */
export async function deleteList(trx: Db, auth: AuthContext, id: number): Promise<string> {
  const list = await findListOrThrow(trx, auth.orgId, id);
  if (list.deleted_at) throw badRequest('Title already deleted.');
  await updateList(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'callback_list.deleted', id, {
    description: `deleted callback list ${list.name}`,
  });
  return list.name;
}

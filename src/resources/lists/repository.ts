import type { Insertable, Updateable } from 'kysely';
import { assertOrgIds, lastLivePosition, orgColumns, orgRows, sameOrg, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import type { CallbackListRow, CallbackListTable } from './table.js';

export function listActiveLists(db: Db, orgId: number): Promise<CallbackListRow[]> {
  return orgRows(db, 'callback_list', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Finds a list whether or not it is deleted (the single form shows `deleted`). */
export async function findListOrThrow(db: Db, orgId: number, id: number): Promise<CallbackListRow> {
  return orgRows(db, 'callback_list', orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('Title'));
}

export async function nextListPosition(db: Db, orgId: number): Promise<number> {
  return ((await lastLivePosition(db, 'callback_list', orgId)) ?? 0) + 1;
}

export async function insertList(db: Db, values: Insertable<CallbackListTable>): Promise<number> {
  const { id } = await db.insertInto('callback_list').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateList(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<CallbackListTable>,
): Promise<void> {
  await updateOrgRow(db, 'callback_list', orgId, id, values);
}

export const assertActiveListsExist = (db: Db, orgId: number, ids: number[]) =>
  assertOrgIds(db, 'callback_list', orgId, ids, 'title id', true);

export function listListsOfUser(db: Db, orgId: number, userId: number): Promise<CallbackListRow[]> {
  return db
    .selectFrom('user_callback_list')
    .innerJoin('callback_list', 'callback_list.id', 'user_callback_list.list_id')
    .selectAll('callback_list')
    .where('user_callback_list.organization_id', '=', orgId)
    .where('callback_list.organization_id', '=', orgId)
    .where('user_callback_list.user_id', '=', userId)
    .where('callback_list.deleted_at', 'is', null)
    .orderBy('callback_list.position')
    .orderBy('callback_list.id')
    .execute();
}

/**
 * Replaces the user's lists. A list the user stays on keeps the user's place; a list the user
 * joins puts them at its bottom (after everyone already on it).
 */
export async function replaceListsOfUser(db: Db, orgId: number, userId: number, listIds: number[]): Promise<void> {
  const wanted = [...new Set(listIds)];
  const current = await orgColumns(db, 'user_callback_list', orgId, ['id', 'list_id'])
    .where('user_id', '=', userId)
    .execute();
  const dropped = current.filter((row) => !wanted.includes(row.list_id)).map((row) => row.id);
  if (dropped.length > 0)
    await db.deleteFrom('user_callback_list').where('organization_id', '=', orgId).where('id', 'in', dropped).execute();
  const joined = wanted.filter((listId) => !current.some((row) => row.list_id === listId));
  if (joined.length === 0) return;
  const bottoms = await db
    .selectFrom('user_callback_list')
    .select(['list_id', (eb) => eb.fn.max('position').as('max')])
    .where('organization_id', '=', orgId)
    .where('list_id', 'in', joined)
    .groupBy('list_id')
    .execute();
  const bottomOf = new Map(bottoms.map((row) => [row.list_id, Number(row.max ?? 0)]));
  await db
    .insertInto('user_callback_list')
    .values(
      joined.map((list_id) => ({
        organization_id: orgId,
        user_id: userId,
        list_id,
        position: (bottomOf.get(list_id) ?? 0) + 1,
      })),
    )
    .execute();
}

/** The columns of a list that callbacks read: its name, hour limits and ordering. */
function selectListLimits(db: Db, orgId: number, listId: number) {
  return db
    .selectFrom('callback_list')
    .select([
      'id',
      'name',
      'max_consecutive_hours',
      'weekly_limit',
      'monthly_limit',
      'yearly_limit',
      'ordering',
      'deleted_at',
    ])
    .where('organization_id', '=', orgId)
    .where('id', '=', listId);
}

/** A usable (non-deleted) list named in a body (a callback's, the candidates'); 422 otherwise. */
export async function findListOrInvalid(db: Db, orgId: number, listId: number) {
  const list = await selectListLimits(db, orgId, listId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!list) throw invalidParams('The selected list id is invalid.');
  return list;
}
export type ListLimitsRow = Awaited<ReturnType<typeof findListOrInvalid>>;

/** The list a callback was started on, also when it has been deleted since. */
export function findCallbackList(db: Db, orgId: number, listId: number): Promise<ListLimitsRow> {
  return selectListLimits(db, orgId, listId).executeTakeFirstOrThrow();
}

/** The names of the lists among the ids (deleted ones too; missing ones left out). */
export function listNames(db: Db, orgId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return orgColumns(db, 'callback_list', orgId, ['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** Active members of a list with what the callback orderings need. */
export function listMembers(db: Db, orgId: number, listId: number) {
  return db
    .selectFrom('user_callback_list')
    .innerJoin('user_account', sameOrg('user_account.id', 'user_callback_list.user_id'))
    .select([
      'user_account.id',
      'user_account.first_name',
      'user_account.last_name',
      'user_account.date_of_hire',
      'user_callback_list.position as list_position',
    ])
    .where('user_callback_list.organization_id', '=', orgId)
    .where('user_callback_list.list_id', '=', listId)
    .where('user_account.deleted_at', 'is', null)
    .where('user_account.active', '=', 1)
    .orderBy('user_callback_list.position')
    .orderBy('user_account.id')
    .execute();
}
export type ListMember = Awaited<ReturnType<typeof listMembers>>[number];

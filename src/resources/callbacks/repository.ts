import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../core/db/transaction.js';
import { transition } from '../../core/db/locks.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { findAssignment } from '../assignments/repository.js';
import type { CallbackOfferRow, CallbackOfferTable, CallbackRow, CallbackTable, CallbackUserRow, CallbackUserTable } from './table.js';

export function findCallback(db: Db, orgId: number, id: number): Promise<CallbackRow | undefined> {
  return db.selectFrom('callback').selectAll().where('organization_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export async function findCallbackOrThrow(db: Db, orgId: number, id: number): Promise<CallbackRow> {
  const callback = await findCallback(db, orgId, id);
  if (!callback) throw notFound('Callback');
  return callback;
}

/** Callbacks overlapping [start, end) when given, by start then id; one extra row tells whether more follow. */
export function listCallbacks(db: Db, orgId: number, filter: { start?: string; end?: string; offset: number; limit: number }) {
  return db
    .selectFrom('callback')
    .selectAll()
    .where('organization_id', '=', orgId)
    .$if(filter.start !== undefined, (qb) => qb.where('end', '>', filter.start!))
    .$if(filter.end !== undefined, (qb) => qb.where('start', '<', filter.end!))
    .orderBy('start')
    .orderBy('id')
    .offset(filter.offset)
    .limit(filter.limit + 1)
    .execute();
}

export async function insertCallback(db: Db, values: Insertable<CallbackTable>): Promise<number> {
  const { id } = await db.insertInto('callback').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertCallbackUsers(db: Db, rows: Insertable<CallbackUserTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('callback_user').values(rows).execute();
}

export function listCallbackUsers(db: Db, orgId: number, callbackId: number): Promise<CallbackUserRow[]> {
  return db
    .selectFrom('callback_user')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('callback_id', '=', callbackId)
    .orderBy('position')
    .execute();
}

export function findCallbackUser(db: Db, orgId: number, callbackId: number, userId: number): Promise<CallbackUserRow | undefined> {
  return db
    .selectFrom('callback_user')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where('callback_id', '=', callbackId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function updateCallbackUser(db: Db, orgId: number, id: number, values: Updateable<CallbackUserTable>): Promise<void> {
  await db.updateTable('callback_user').set(values).where('organization_id', '=', orgId).where('id', '=', id).execute();
}

function selectList(db: Db, orgId: number, listId: number) {
  return db
    .selectFrom('callback_list')
    .select(['id', 'name', 'max_consecutive_hours', 'weekly_limit', 'monthly_limit', 'yearly_limit', 'ordering', 'deleted_at'])
    .where('organization_id', '=', orgId)
    .where('id', '=', listId);
}

/** A usable (non-deleted) list named in a body; 422 otherwise. */
export async function findListOrInvalid(db: Db, orgId: number, listId: number) {
  const list = await selectList(db, orgId, listId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!list) throw invalidParams('The selected list id is invalid.');
  return list;
}
export type CallbackListRow = Awaited<ReturnType<typeof findListOrInvalid>>;

/** The list a callback was started on, also when it has been deleted since. */
export function findCallbackList(db: Db, orgId: number, listId: number): Promise<CallbackListRow> {
  return selectList(db, orgId, listId).executeTakeFirstOrThrow();
}
export function listNames(db: Db, orgId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('callback_list').select(['id', 'name']).where('organization_id', '=', orgId).where('id', 'in', [...new Set(ids)]).execute();
}

/** Active members of a list with what the orderings need. */
export function listMembers(db: Db, orgId: number, listId: number) {
  return db
    .selectFrom('user_callback_list')
    .innerJoin('user_account', (join) =>
      join.onRef('user_account.id', '=', 'user_callback_list.user_id').onRef('user_account.organization_id', '=', 'user_callback_list.organization_id'),
    )
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

/** When each user was last contacted (an opportunity used) for a callback of the list: rotating order. */
export async function lastContacts(db: Db, orgId: number, listId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('callback_user')
    .innerJoin('callback', (join) =>
      join.onRef('callback.id', '=', 'callback_user.callback_id').onRef('callback.organization_id', '=', 'callback_user.organization_id'),
    )
    .select(['callback_user.user_id', (eb) => eb.fn.max('callback_user.contact_time').as('last_contact')])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback.list_id', '=', listId)
    .where('callback_user.uses_opportunity', '=', 1)
    .groupBy('callback_user.user_id')
    .execute();
  return new Map(rows.filter((r) => r.last_contact !== null).map((r) => [r.user_id, String(r.last_contact)]));
}

/** Accepted callback hours (spans) of the users since a date: hours-based order and unplaced work. */
export function acceptedCallbackSpans(db: Db, orgId: number, filter: { userIds: number[]; start: string; end: string; listId?: number; unplacedOnly?: boolean }) {
  if (filter.userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('callback_user')
    .innerJoin('callback', (join) =>
      join.onRef('callback.id', '=', 'callback_user.callback_id').onRef('callback.organization_id', '=', 'callback_user.organization_id'),
    )
    .select(['callback_user.user_id', 'callback.start', 'callback.end', 'callback_user.start_time', 'callback_user.end_time'])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback_user.status', '=', 'accepted')
    .where('callback_user.user_id', 'in', filter.userIds)
    .where('callback.end', '>', filter.start)
    .where('callback.start', '<', filter.end)
    .$if(filter.listId !== undefined, (qb) => qb.where('callback.list_id', '=', filter.listId!))
    .$if(filter.unplacedOnly === true, (qb) => qb.where('callback.assignment_id', 'is', null))
    .execute();
}

export async function defaultCallbackWorkType(db: Db, orgId: number): Promise<number> {
  const types = await db
    .selectFrom('work_type')
    .select(['id', 'label'])
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const callbackType = types.find((t) => t.label.toLowerCase() === 'callback') ?? types[0];
  if (!callbackType) throw invalidParams('The work type id field is required.');
  return callbackType.id;
}

export async function assertWorkType(db: Db, orgId: number, id: number): Promise<void> {
  const row = await db
    .selectFrom('work_type')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw invalidParams('The selected work type id is invalid.');
}

export async function findAssignmentOrInvalid(db: Db, orgId: number, id: number) {
  const assignment = await findAssignment(db, orgId, id);
  if (!assignment) throw invalidParams('The selected assignment id is invalid.');
  return assignment;
}

/** Work types whose hours do not count toward the callback hour limits (`excludes_from_callback`). */
export async function workTypesExcludedFromCallbacks(db: Db, orgId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('work_type')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('excludes_from_callback', '=', 1)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Callbacks the runner still has to handle (open, or closed but not yet reported) on lists with a contact window. */
export function callbacksForRunner(db: Db, now: string, limit: number) {
  return db
    .selectFrom('callback')
    .innerJoin('callback_list', (join) =>
      join.onRef('callback_list.id', '=', 'callback.list_id').onRef('callback_list.organization_id', '=', 'callback.organization_id'),
    )
    .selectAll('callback')
    .select(['callback_list.contact_window_minutes', 'callback_list.contact_at_once', 'callback_list.name as list_name'])
    .where('callback.runner_closed_at', 'is', null)
    .where('callback_list.contact_window_minutes', 'is not', null)
    .where('callback.scheduled_to', '<=', now)
    .where((eb) => eb.or([eb('callback.lease_until', 'is', null), eb('callback.lease_until', '<=', now)]))
    .orderBy('callback.id')
    .limit(limit)
    .execute();
}
export type RunnerCallbackRow = Awaited<ReturnType<typeof callbacksForRunner>>[number];

export async function insertOffer(db: Db, values: Insertable<CallbackOfferTable>): Promise<number> {
  const { id } = await db.insertInto('callback_offer').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function findOfferByTokenHash(db: Db, tokenHash: string): Promise<CallbackOfferRow | undefined> {
  return db.selectFrom('callback_offer').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the offer used; false when it was used or revoked meanwhile (single use). */
export async function useOffer(db: Db, offer: CallbackOfferRow, now: string): Promise<boolean> {
  const result = await db
    .updateTable('callback_offer')
    .set({ used_at: now })
    .where('organization_id', '=', offer.organization_id)
    .where('id', '=', offer.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes the callback's open offers (all of them, or one callback user's). */
export async function revokeOffers(db: Db, orgId: number, callbackId: number, now: string, callbackUserId?: number): Promise<void> {
  await db
    .updateTable('callback_offer')
    .set({ revoked_at: now })
    .where('organization_id', '=', orgId)
    .where('callback_id', '=', callbackId)
    .$if(callbackUserId !== undefined, (qb) => qb.where('callback_user_id', '=', callbackUserId!))
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export function findOrganization(db: Db, orgId: number) {
  return db.selectFrom('organization').select(['id', 'name', 'timezone']).where('id', '=', orgId).executeTakeFirstOrThrow();
}

/** Whether the organization has a webhook endpoint (the runner's webhook channel is on). */
export function webhookEndpointsOf(db: Db, orgId: number) {
  return db.selectFrom('webhook_endpoint').select(['id', 'event_types']).where('organization_id', '=', orgId).where('deleted_at', 'is', null).execute();
}

/** The runner handled the callback's end (its links withdrawn, the admin told); in a transaction. */
export async function markRunnerClosed(trx: Db, orgId: number, id: number, now: string): Promise<void> {
  await transition(trx, { table: 'callback', orgId, id, model: 'Callback' }, () => ({ runner_closed_at: now }));
}

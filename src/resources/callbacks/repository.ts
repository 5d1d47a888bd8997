import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import { orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import { type Db, withTransaction } from '../../core/db/transaction.js';
import { transition } from '../../core/db/locks.js';
import { invalidParams, orNotFound } from '../../core/errors.js';
import type { Database } from '../../core/db/types.js';
import { findAssignment } from '../assignments/repository.js';
import type {
  CallbackOfferRow,
  CallbackOfferTable,
  CallbackRow,
  CallbackTable,
  CallbackUserRow,
  CallbackUserTable,
} from './table.js';

export function findCallback(db: Db, orgId: number, id: number): Promise<CallbackRow | undefined> {
  return orgRows(db, 'callback', orgId).where('id', '=', id).executeTakeFirst();
}

export async function findCallbackOrThrow(db: Db, orgId: number, id: number): Promise<CallbackRow> {
  return orNotFound(findCallback(db, orgId, id), 'Callback');
}

/** Callbacks overlapping [start, end) when given, by start then id; one extra row tells whether more follow. */
export function listCallbacks(
  db: Db,
  orgId: number,
  filter: { start?: string; end?: string; offset: number; limit: number },
) {
  return orgRows(db, 'callback', orgId)
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
  return orgRows(db, 'callback_user', orgId).where('callback_id', '=', callbackId).orderBy('position').execute();
}

export function findCallbackUser(
  db: Db,
  orgId: number,
  callbackId: number,
  userId: number,
): Promise<CallbackUserRow | undefined> {
  return orgRows(db, 'callback_user', orgId)
    .where('callback_id', '=', callbackId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function updateCallbackUser(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<CallbackUserTable>,
): Promise<void> {
  await updateOrgRow(db, 'callback_user', orgId, id, values);
}

function selectList(db: Db, orgId: number, listId: number) {
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
/** The lists' names: a read of the lists resource. */
export { listNames } from '../lists/repository.js';

/** Active members of a list with what the orderings need. */
export function listMembers(db: Db, orgId: number, listId: number) {
  return db
    .selectFrom('user_callback_list')
    .innerJoin('user_account', (join) =>
      join
        .onRef('user_account.id', '=', 'user_callback_list.user_id')
        .onRef('user_account.organization_id', '=', 'user_callback_list.organization_id'),
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
      join
        .onRef('callback.id', '=', 'callback_user.callback_id')
        .onRef('callback.organization_id', '=', 'callback_user.organization_id'),
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
export function acceptedCallbackSpans(
  db: Db,
  orgId: number,
  filter: { userIds: number[]; start: string; end: string; listId?: number; unplacedOnly?: boolean },
) {
  if (filter.userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('callback_user')
    .innerJoin('callback', (join) =>
      join
        .onRef('callback.id', '=', 'callback_user.callback_id')
        .onRef('callback.organization_id', '=', 'callback_user.organization_id'),
    )
    .select([
      'callback_user.user_id',
      'callback.start',
      'callback.end',
      'callback_user.start_time',
      'callback_user.end_time',
    ])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback_user.status', '=', 'accepted')
    .where('callback_user.user_id', 'in', filter.userIds)
    .where('callback.end', '>', filter.start)
    .where('callback.start', '<', filter.end)
    .$if(filter.listId !== undefined, (qb) => qb.where('callback.list_id', '=', filter.listId!))
    .$if(filter.unplacedOnly === true, (qb) => qb.where('callback.assignment_id', 'is', null))
    .execute();
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

/** The callbacks the runner handles (open, or closed but not yet reported) on lists with a contact window. */
function runnerCallbacks(db: Db) {
  return db
    .selectFrom('callback')
    .innerJoin('callback_list', (join) =>
      join
        .onRef('callback_list.id', '=', 'callback.list_id')
        .onRef('callback_list.organization_id', '=', 'callback.organization_id'),
    )
    .selectAll('callback')
    .select([
      'callback_list.contact_window_minutes',
      'callback_list.contact_at_once',
      'callback_list.name as list_name',
      'callback_list.notify_group_id',
    ])
    .where('callback.runner_closed_at', 'is', null)
    .where('callback_list.contact_window_minutes', 'is not', null);
}

/** Callbacks the runner still has to handle, due at `now` and held by no runner. */
export function callbacksForRunner(db: Db, now: string, limit: number) {
  return runnerCallbacks(db)
    .where('callback.scheduled_to', '<=', now)
    .where((eb) => eb.or([eb('callback.lease_until', 'is', null), eb('callback.lease_until', '<=', now)]))
    .orderBy('callback.id')
    .limit(limit)
    .execute();
}

/** One callback as the runner sees it now; undefined once another runner has closed it. */
export function findRunnerCallback(db: Db, orgId: number, id: number) {
  return runnerCallbacks(db)
    .where('callback.organization_id', '=', orgId)
    .where('callback.id', '=', id)
    .executeTakeFirst();
}
export type RunnerCallbackRow = Awaited<ReturnType<typeof callbacksForRunner>>[number];

export async function insertOffer(db: Db, values: Insertable<CallbackOfferTable>): Promise<number> {
  const { id } = await db.insertInto('callback_offer').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function findOfferByTokenHash(db: Db, tokenHash: string): Promise<CallbackOfferRow | undefined> {
  return db.selectFrom('callback_offer').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Closes one offer with these values; false when it was used or revoked meanwhile (single use). */
async function closeOffer(
  db: Db,
  offer: CallbackOfferRow,
  values: { used_at: string } | { revoked_at: string; revoked_by: number },
): Promise<boolean> {
  const result = await db
    .updateTable('callback_offer')
    .set(values)
    .where('organization_id', '=', offer.organization_id)
    .where('id', '=', offer.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks the offer used; false when it was used or revoked meanwhile (single use). */
export function useOffer(db: Db, offer: CallbackOfferRow, now: string): Promise<boolean> {
  return closeOffer(db, offer, { used_at: now });
}

/** Revokes the callback's open offers (all of them, or one callback user's). */
export async function revokeOffers(
  db: Db,
  orgId: number,
  callbackId: number,
  now: string,
  callbackUserId?: number,
): Promise<void> {
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
  return db
    .selectFrom('organization')
    .select(['id', 'name', 'timezone'])
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
}

/** Whether the organization has a webhook endpoint (the runner's webhook channel is on). */
export function webhookEndpointsOf(db: Db, orgId: number) {
  return db
    .selectFrom('webhook_endpoint')
    .select(['id', 'event_types'])
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** The runner handled the callback's end (its links withdrawn, the admin told); in a transaction. */
export async function markRunnerClosed(trx: Db, orgId: number, id: number, now: string): Promise<void> {
  await transition(trx, { table: 'callback', orgId, id, model: 'Callback' }, () => ({ runner_closed_at: now }));
}

/** The runner told that the callback reached the end of its list: true for the first telling only. */
export function markListEnded(db: Db, orgId: number, id: number, now: string): Promise<boolean> {
  return withTransaction(db, async (trx) => {
    let first = false;
    await transition(trx, { table: 'callback', orgId, id, model: 'Callback' }, (row) => {
      first = row.list_ended_at === null;
      return { list_ended_at: row.list_ended_at ?? now };
    });
    return first;
  });
}

/** Active members of a group (the notice group of a list). */
export async function groupMemberIds(db: Db, orgId: number, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_group_member')
    .innerJoin('user_account', (join) =>
      join
        .onRef('user_account.id', '=', 'user_group_member.user_id')
        .onRef('user_account.organization_id', '=', 'user_group_member.organization_id'),
    )
    .select('user_group_member.user_id')
    .where('user_group_member.organization_id', '=', orgId)
    .where('user_group_member.group_id', '=', groupId)
    .where('user_account.deleted_at', 'is', null)
    .orderBy('user_group_member.user_id')
    .execute();
  return rows.map((row) => row.user_id);
}

/** The condition on an offer (`o`) that can still be answered: not used, not revoked, not expired. */
function isOpenOffer(now: string) {
  return (eb: ExpressionBuilder<Database & { o: Database['callback_offer'] }, 'o'>) =>
    eb.and([eb('o.used_at', 'is', null), eb('o.revoked_at', 'is', null), eb('o.expires_at', '>', now)]);
}

/** Offers that can still be answered. */
function openOffers(db: Db, now: string) {
  return db.selectFrom('callback_offer as o').selectAll('o').where(isOpenOffer(now));
}

/** The newest offer to an address that can still be answered (an inbound SMS reply finds its offer so). */
export function findOpenOfferByReplyAddress(
  db: Db,
  address: string,
  now: string,
): Promise<CallbackOfferRow | undefined> {
  return openOffers(db, now)
    .where('reply_address', '=', address)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The user's offer on the callback that can still be answered. */
export function findOpenOffer(
  db: Db,
  orgId: number,
  callbackId: number,
  userId: number,
  now: string,
): Promise<CallbackOfferRow | undefined> {
  return openOffers(db, now)
    .where('organization_id', '=', orgId)
    .where('callback_id', '=', callbackId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Revokes one offer by an admin; false when it was used or revoked meanwhile. */
export function revokeOffer(db: Db, offer: CallbackOfferRow, adminId: number, now: string): Promise<boolean> {
  return closeOffer(db, offer, { revoked_at: now, revoked_by: adminId });
}

/** A user's offers that can still be answered, soonest first, with what the board shows of each. */
export function listOpenOffersOf(db: Db, orgId: number, userId: number, now: string) {
  return db
    .selectFrom('callback_offer as o')
    .innerJoin('callback as c', (join) =>
      join.onRef('c.id', '=', 'o.callback_id').onRef('c.organization_id', '=', 'o.organization_id'),
    )
    .innerJoin('callback_user as cu', (join) =>
      join.onRef('cu.id', '=', 'o.callback_user_id').onRef('cu.organization_id', '=', 'o.organization_id'),
    )
    .innerJoin('callback_list as l', (join) =>
      join.onRef('l.id', '=', 'c.list_id').onRef('l.organization_id', '=', 'c.organization_id'),
    )
    .leftJoin('assignment as a', (join) =>
      join.onRef('a.id', '=', 'c.assignment_id').onRef('a.organization_id', '=', 'c.organization_id'),
    )
    .select([
      'o.id',
      'o.callback_id',
      'o.expires_at',
      'c.start',
      'c.end',
      'c.notes',
      'c.list_id',
      'l.name as list_name',
      'c.assignment_id',
      'a.name as assignment_name',
    ])
    .where('o.organization_id', '=', orgId)
    .where('o.user_id', '=', userId)
    .where(isOpenOffer(now))
    .where('cu.status', '=', 'pending')
    .orderBy('c.start')
    .orderBy('o.id')
    .execute();
}

/** One offer made to the user (any state), or undefined: another user's offer is not found either. */
export function findOfferOfUser(
  db: Db,
  orgId: number,
  userId: number,
  offerId: number,
): Promise<CallbackOfferRow | undefined> {
  return orgRows(db, 'callback_offer', orgId)
    .where('user_id', '=', userId)
    .where('id', '=', offerId)
    .executeTakeFirst();
}

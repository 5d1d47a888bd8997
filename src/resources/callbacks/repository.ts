import type { ExpressionBuilder, Insertable, Updateable } from 'kysely';
import { orgRows, updateOrgRow, sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';
import type { Database } from '../../core/db/types.js';
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

/** The condition on an offer (`o`) that can still be answered: not used, not revoked, not expired. */
function isOpenOffer(now: string) {
  return (eb: ExpressionBuilder<Database & { o: Database['callback_offer'] }, 'o'>) =>
    eb.and([eb('o.used_at', 'is', null), eb('o.revoked_at', 'is', null), eb('o.expires_at', '>', now)]);
}

/** Offers that can still be answered. */
function openOffers(db: Db, now: string) {
  return db.selectFrom('callback_offer as o').selectAll('o').where(isOpenOffer(now));
}

/**
 * The offers to an address that can still be answered, newest first: an inbound SMS reply picks
 * its offer among them by the reply code. `organizations`: only `in` (the organization whose own
 * number received the reply), or all but `notIn` (those with a number of their own).
 */
export function listOpenOffersByReplyAddress(
  db: Db,
  address: string,
  organizations: { in: number } | { notIn: number[] },
  now: string,
): Promise<CallbackOfferRow[]> {
  return openOffers(db, now)
    .where('reply_address', '=', address)
    .$if('in' in organizations, (qb) => qb.where('organization_id', '=', (organizations as { in: number }).in))
    .$if('notIn' in organizations && organizations.notIn.length > 0, (qb) =>
      qb.where('organization_id', 'not in', (organizations as { notIn: number[] }).notIn),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Whether an open offer to the address (in any organization) already has this reply code. */
export async function replyCodeInUse(db: Db, address: string, code: string, now: string): Promise<boolean> {
  const row = await openOffers(db, now)
    .where('reply_address', '=', address)
    .where('reply_code', '=', code)
    .executeTakeFirst();
  return row !== undefined;
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
    .innerJoin('callback as c', sameOrg('c.id', 'o.callback_id'))
    .innerJoin('callback_user as cu', sameOrg('cu.id', 'o.callback_user_id'))
    .innerJoin('callback_list as l', sameOrg('l.id', 'c.list_id'))
    .leftJoin('assignment as a', sameOrg('a.id', 'c.assignment_id'))
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

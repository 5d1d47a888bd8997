import type { Insertable } from 'kysely';
import { orgColumns, orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { orNotFound } from '../../core/errors.js';
import type { TradeRow, TradeTable, TradeUserRow, TradeUserStatus } from './table.js';

export function findTrade(db: Db, orgId: number, id: number): Promise<TradeRow | undefined> {
  return orgRows(db, 'trade', orgId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findTradeOrThrow(db: Db, orgId: number, id: number): Promise<TradeRow> {
  return orNotFound(findTrade(db, orgId, id), 'Trade');
}

export function listTrades(
  db: Db,
  orgId: number,
  filter: { start?: string; end?: string; userId?: number },
): Promise<TradeRow[]> {
  return orgRows(db, 'trade', orgId)
    .where('deleted_at', 'is', null)
    .$if(filter.start !== undefined, (qb) => qb.where('end', '>', filter.start!))
    .$if(filter.end !== undefined, (qb) => qb.where('start', '<', filter.end!))
    .$if(filter.userId !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([eb('requesting_user_id', '=', filter.userId!), eb('accepting_user_id', '=', filter.userId!)]),
      ),
    )
    .orderBy('start')
    .orderBy('id')
    .execute();
}

/**
 * The user's live trades (requester or taker) starting in [start, end): filled ones, and open ones
 * whose start has not passed (an expired trade never happened).
 */
export async function countTradesOfUser(
  db: Db,
  orgId: number,
  filter: { userId: number; start: string; end: string; localNow: string; exceptId?: number },
): Promise<number> {
  const row = await db
    .selectFrom('trade')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where('start', '>=', filter.start)
    .where('start', '<', filter.end)
    .$if(filter.exceptId !== undefined, (qb) => qb.where('id', '!=', filter.exceptId!))
    .where((eb) => eb.or([eb('requesting_user_id', '=', filter.userId), eb('accepting_user_id', '=', filter.userId)]))
    .where((eb) =>
      eb.or([
        eb('status', '=', 'filled'),
        eb.and([eb('status', 'in', ['pending', 'accepted', 'approved']), eb('start', '>', filter.localNow)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertTrade(db: Db, values: Insertable<TradeTable>): Promise<number> {
  const { id } = await db.insertInto('trade').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function listTradeUsers(db: Db, orgId: number, tradeId: number): Promise<TradeUserRow[]> {
  return orgRows(db, 'trade_user', orgId).where('trade_id', '=', tradeId).orderBy('id').execute();
}

/** The user's place on the trade (offered, accepted or declined), if the user has one. */
export function findTradeUser(db: Db, orgId: number, tradeId: number, userId: number) {
  return orgRows(db, 'trade_user', orgId)
    .where('trade_id', '=', tradeId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Records a user's place on the trade (offered, accepted or declined), one row per user. */
export async function upsertTradeUser(
  db: Db,
  orgId: number,
  tradeId: number,
  userId: number,
  status: TradeUserStatus,
  at: string,
): Promise<void> {
  const existing = await orgColumns(db, 'trade_user', orgId, ['id'])
    .where('trade_id', '=', tradeId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const responded = status === 'offered' ? null : at;
  if (existing) {
    await db
      .updateTable('trade_user')
      .set({ status, responded_at: responded })
      .where('organization_id', '=', orgId)
      .where('id', '=', existing.id)
      .execute();
  } else {
    await db
      .insertInto('trade_user')
      .values({
        organization_id: orgId,
        trade_id: tradeId,
        user_id: userId,
        status,
        offered_at: at,
        responded_at: responded,
      })
      .execute();
  }
}

/**
 * The open trades (pending, accepted or approved, start not passed) offered to the user that the
 * user can still answer or has accepted: not declined, and not accepted by someone else. Soonest first.
 */
export function listOpenTradeOffersOf(db: Db, orgId: number, userId: number, localNow: string) {
  return db
    .selectFrom('trade_user as tu')
    .innerJoin('trade as t', (join) =>
      join.onRef('t.id', '=', 'tu.trade_id').onRef('t.organization_id', '=', 'tu.organization_id'),
    )
    .selectAll('t')
    .select('tu.status as answer')
    .where('tu.organization_id', '=', orgId)
    .where('tu.user_id', '=', userId)
    .where('tu.status', 'in', ['offered', 'accepted'])
    .where('t.deleted_at', 'is', null)
    .where('t.status', 'in', ['pending', 'accepted', 'approved'])
    .where('t.start', '>', localNow)
    .where((eb) => eb.or([eb('t.accepting_user_id', 'is', null), eb('t.accepting_user_id', '=', userId)]))
    .orderBy('t.start')
    .orderBy('t.id')
    .execute();
}

import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { hoursBetween, round } from '../../core/time.js';
import { findUserOrThrow, findUsersByIds } from '../users/repository.js';
import { userRef } from '../users/serialize.js';
import { listTrades } from './repository.js';
import type { TradeBalanceResponse } from './schemas.js';
import type { TradeRow } from './table.js';

/** Hours one person worked for another on a trade: `owner` owes `worker` these hours. */
export interface TradeDebt {
  trade: TradeRow;
  worker: number;
  owner: number;
  start: string;
  end: string;
  hours: number;
}

/**
 * The debts a filled trade creates, derived from the trade itself: the taker works the requester's
 * span (the requester owes it), and in a swap the requester works the taker's swap span (the taker
 * owes that). Hours are wall-clock hours of the organization's time zone (a DST night counts 23 or 25).
 */
export function debtsOf(trade: TradeRow, timeZone: string): TradeDebt[] {
  if (trade.status !== 'filled' || trade.accepting_user_id === null) return [];
  const debts: TradeDebt[] = [
    {
      trade,
      worker: trade.accepting_user_id,
      owner: trade.requesting_user_id,
      start: trade.start,
      end: trade.end,
      hours: hoursBetween(trade.start, trade.end, timeZone),
    },
  ];
  if (trade.swap_start && trade.swap_end)
    debts.push({
      trade,
      worker: trade.requesting_user_id,
      owner: trade.accepting_user_id,
      start: trade.swap_start,
      end: trade.swap_end,
      hours: hoursBetween(trade.swap_start, trade.swap_end, timeZone),
    });
  return debts;
}

export interface Counterpart {
  counterpartId: number;
  /** gross hours the counterpart worked for the user, and the user for the counterpart */
  workedForUser: number;
  userWorked: number;
  debts: TradeDebt[];
}

/** Per counterpart, the filled trades between the user and them, as debts each way (by start). */
export async function paybackOf(db: Db, orgId: number, userId: number, timeZone: string): Promise<Counterpart[]> {
  const trades = await listTrades(db, orgId, { userId });
  const byCounterpart = new Map<number, Counterpart>();
  for (const debt of trades.flatMap((trade) => debtsOf(trade, timeZone))) {
    const counterpartId = debt.worker === userId ? debt.owner : debt.worker;
    const entry = byCounterpart.get(counterpartId) ?? { counterpartId, workedForUser: 0, userWorked: 0, debts: [] };
    if (debt.owner === userId) entry.workedForUser = round(entry.workedForUser + debt.hours);
    else entry.userWorked = round(entry.userWorked + debt.hours);
    entry.debts.push(debt);
    byCounterpart.set(counterpartId, entry);
  }
  return [...byCounterpart.values()];
}

/** Net hours the user owes: over every counterpart, what they worked for the user beyond what the user paid back. */
export async function openOwedHours(db: Db, orgId: number, userId: number, timeZone: string): Promise<number> {
  const counterparts = await paybackOf(db, orgId, userId, timeZone);
  return round(counterparts.reduce((sum, c) => sum + Math.max(0, c.workedForUser - c.userWorked), 0));
}

/** GET /users/{user_id}/trade_balance: per counterpart, hours owed each way with the trades behind them. */
export async function readTradeBalance(db: Db, request: FastifyRequest, userId: number): Promise<TradeBalanceResponse> {
  const { orgId, timezone } = request.auth;
  await findUserOrThrow(db, orgId, userId);
  const counterparts = await paybackOf(db, orgId, userId, timezone);
  const users = await findUsersByIds(db, orgId, [userId, ...counterparts.map((c) => c.counterpartId)]);
  const ref = (id: number) => userRef(request, users.get(id) ?? { id, first_name: '', last_name: '' });
  return counterparts
    .map((c) => ({
      user: ref(c.counterpartId),
      user_owes: round(Math.max(0, c.workedForUser - c.userWorked)),
      owes_user: round(Math.max(0, c.userWorked - c.workedForUser)),
      worked_for_user: c.workedForUser,
      user_worked: c.userWorked,
      trades: c.debts.map((debt) => ({
        id: debt.trade.id,
        href: href(request, `/trades/${debt.trade.id}`),
        start: debt.start,
        end: debt.end,
        hours: debt.hours,
        worked_by: ref(debt.worker),
        worked_for: ref(debt.owner),
      })),
    }))
    .sort((a, b) => a.user.name.localeCompare(b.user.name) || a.user.id - b.user.id);
}

import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { listFilledTrades } from './repository.js';
import type { ScheduleTrade } from './schemas.js';

export type ScheduleTradeItem = ScheduleTrade & { date: string };

type Request = Pick<FastifyRequest, 'auth' | 'baseUrl'>;

/**
 * day.trades: filled trades (accepted and approved: the work has moved) overlapping
 * [startLocal, endLocal); `date` is the start date; `admin` is who approved. Two queries.
 */
export async function tradesForSchedule(db: Db, request: Request, startLocal: string, endLocal: string): Promise<ScheduleTradeItem[]> {
  const orgId = request.auth.orgId;
  const trades = await listFilledTrades(db, orgId, startLocal, endLocal);
  if (trades.length === 0) return [];
  const users = await findUsersByIds(
    db,
    orgId,
    trades.flatMap((t) => [t.requesting_user_id, t.accepting_user_id ?? 0, t.approved_by ?? t.approving_user_id]),
  );
  const ref = (id: number | null) => {
    const user = id === null ? undefined : users.get(id);
    return user ? { id: user.id, href: href(request, `/users/${user.id}`), name: fullName(user) } : null;
  };
  return trades.map((trade) => ({
    date: trade.start.slice(0, 10),
    id: trade.id,
    href: href(request, `/trades/${trade.id}`),
    start: trade.start,
    end: trade.end,
    requesting_user: ref(trade.requesting_user_id)!,
    accepting_user: ref(trade.accepting_user_id)!,
    admin: ref(trade.approved_by ?? trade.approving_user_id),
  }));
}

import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import { formatIsoOffset, localToUtc } from '../../core/time.js';
import type { UserRow } from '../users/table.js';
import { userRefStrId } from '../users/serialize.js';
import { tradeStatus } from './rules.js';
import type { TradeDetailResponse, TradeResponse } from './schemas.js';
import type { TradeRow, TradeUserRow } from './table.js';

type BaseUrl = Pick<FastifyRequest, 'baseUrl'>;

/** A local datetime written as iso_datetime with the offset in force then, as GET /trades shows it. */
function localAsIso(local: string | null, timeZone: string): string | null {
  return local === null ? null : formatIsoOffset(localToUtc(local, timeZone), timeZone);
}

function refOrNull(request: BaseUrl, users: Map<number, UserRow>, id: number | null) {
  const user = id === null ? undefined : users.get(id);
  return user ? userRefStrId(request, user) : null;
}

export function serializeTrade(
  request: BaseUrl,
  trade: TradeRow,
  users: Map<number, UserRow>,
  timeZone: string,
  localNow: string,
): TradeResponse {
  return {
    id: String(trade.id),
    requesting_user: refOrNull(request, users, trade.requesting_user_id)!,
    request_date: formatIsoOffset(trade.request_date, timeZone)!,
    start: localAsIso(trade.start, timeZone)!,
    end: localAsIso(trade.end, timeZone)!,
    swap_start: localAsIso(trade.swap_start, timeZone),
    swap_end: localAsIso(trade.swap_end, timeZone),
    status: tradeStatus(trade, localNow),
  };
}

export function serializeTradeDetail(
  request: BaseUrl,
  trade: TradeRow,
  users: Map<number, UserRow>,
  timeZone: string,
  localNow: string,
): TradeDetailResponse {
  return {
    ...serializeTrade(request, trade, users, timeZone, localNow),
    accepting_user: refOrNull(request, users, trade.accepting_user_id),
    approving_user: refOrNull(request, users, trade.approving_user_id),
    approved_by: refOrNull(request, users, trade.approved_by),
    notes: trade.notes,
  };
}

export const usersOfTrades = (trades: TradeRow[]) =>
  trades
    .flatMap((t) => [t.requesting_user_id, t.accepting_user_id, t.approving_user_id, t.approved_by])
    .filter((id): id is number => id !== null);

export function serializeTradeUser(request: BaseUrl, row: TradeUserRow, user: UserRow | undefined, timeZone: string) {
  return {
    id: String(row.user_id),
    user: user
      ? userRefStrId(request, user)
      : { id: String(row.user_id), name: `User #${row.user_id}`, href: href(request, `/users/${row.user_id}`) },
    status: row.status,
    offered_at: formatIsoOffset(row.offered_at, timeZone)!,
    responded_at: formatIsoOffset(row.responded_at, timeZone),
  };
}

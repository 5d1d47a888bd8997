import { sameOrg } from '../../core/db/org-rows.js';
import type { FastifyRequest } from 'fastify';
import type { RowOf } from '../../core/db/json.js';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { fullName } from '../users/serialize.js';
import type { ScheduleTrade } from './schemas.js';

export type ScheduleTradeItem = ScheduleTrade & { date: string };

type Request = Pick<FastifyRequest, 'auth' | 'baseUrl'>;

/**
 * day.trades: filled trades (accepted and approved: the work has moved) overlapping
 * [startLocal, endLocal); `date` is the start date; `admin` is who approved. One query: the three
 * users' names come with the trade.
 */
export async function tradesForSchedule(
  db: Db,
  request: Request,
  startLocal: string,
  endLocal: string,
): Promise<ScheduleTradeItem[]> {
  return scheduleTradeItems(request, await scheduleTradesQuery(db, request.auth.orgId, startLocal, endLocal).execute());
}

/** The statement of {@link tradesForSchedule}, for GET /schedule to read with others in one. */
export function scheduleTradesQuery(db: Db, orgId: number, startLocal: string, endLocal: string) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('trade')
        .selectAll()
        .select((inner) => inner.fn.coalesce('approved_by', 'approving_user_id').as('admin_id'))
        .where('organization_id', '=', orgId)
        .where('deleted_at', 'is', null)
        .where('status', '=', 'filled')
        .where('start', '<', endLocal)
        .where('end', '>', startLocal)
        .as('t'),
    )
    .leftJoin('user_account as ru', sameOrg('ru.id', 't.requesting_user_id'))
    .leftJoin('user_account as au', sameOrg('au.id', 't.accepting_user_id'))
    .leftJoin('user_account as ad', sameOrg('ad.id', 't.admin_id'))
    .select([
      't.id',
      't.start',
      't.end',
      't.requesting_user_id',
      't.accepting_user_id',
      't.admin_id',
      'ru.first_name as requesting_first',
      'ru.last_name as requesting_last',
      'au.first_name as accepting_first',
      'au.last_name as accepting_last',
      'ad.first_name as admin_first',
      'ad.last_name as admin_last',
    ])
    .orderBy('t.start')
    .orderBy('t.id');
}

type ScheduleTradeRow = RowOf<typeof scheduleTradesQuery>;

/** day.trades items of the rows {@link scheduleTradesQuery} read. */
export function scheduleTradeItems(request: Request, trades: ScheduleTradeRow[]): ScheduleTradeItem[] {
  const ref = (id: number | null, first: string | null, last: string | null) =>
    id === null || first === null || last === null
      ? null
      : { id, href: href(request, `/users/${id}`), name: fullName({ first_name: first, last_name: last }) };
  return trades.map((trade) => ({
    date: trade.start.slice(0, 10),
    id: trade.id,
    href: href(request, `/trades/${trade.id}`),
    start: trade.start,
    end: trade.end,
    requesting_user: ref(trade.requesting_user_id, trade.requesting_first, trade.requesting_last)!,
    accepting_user: ref(trade.accepting_user_id, trade.accepting_first, trade.accepting_last)!,
    admin: ref(trade.admin_id, trade.admin_first, trade.admin_last),
  }));
}

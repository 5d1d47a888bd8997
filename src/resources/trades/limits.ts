import type { AuthContext } from '../../core/auth/context.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { updateOrganizationSettings } from '../../core/org-settings.js';
import { nowLocal, round } from '../../core/time.js';
import { workPeriodsOverlapping } from '../../scheduling/index.js';
import { findWorkPeriod } from '../work-period/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import { debtsOf, paybackOf } from './payback.js';
import { countTradesOfUser } from './repository.js';
import type { TradeLimitsResponse } from './schemas.js';
import type { TradeRow } from './table.js';

declare module '../../core/db/types.js' {
  interface OrganizationTable {
    /** extension: trades per person per work period; null = no limit */
    trade_limit_count: number | null;
    /** extension: hours a person may owe on trades; null = no limit */
    trade_limit_owed_hours: number | null;
  }
}

/** The organization's trade limits (docs/workflows.md#trade-limits), with the work period they count over. */
export async function findTradeLimits(db: Db, orgId: number): Promise<TradeLimitsResponse> {
  const row = await db
    .selectFrom('organization')
    .select(['trade_limit_count', 'trade_limit_owed_hours'])
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!row) throw notFound('Company');
  const period = await findWorkPeriod(db, orgId);
  return {
    trades_per_period: row.trade_limit_count === null ? null : Number(row.trade_limit_count),
    owed_hours: row.trade_limit_owed_hours === null ? null : Number(row.trade_limit_owed_hours),
    period: { days: period.days, start: period.start },
  };
}

export async function updateTradeLimits(
  db: Db,
  orgId: number,
  values: { trades_per_period?: number | null; owed_hours?: number | null },
): Promise<void> {
  await updateOrganizationSettings(db, orgId, {
    trade_limit_count: values.trades_per_period,
    trade_limit_owed_hours: values.owed_hours,
  });
}

/**
 * trades_per_period: the users joining the trade (its requester on request, its taker on request or
 * acceptance) may have at most that many live trades (open, not expired, or filled) starting in the
 * work period of its start. Run under the users' locks (checkTrade), so of parallel requests for the
 * last allowed trade exactly one passes.
 */
export async function assertTradeCount(
  db: Db,
  auth: AuthContext,
  trade: Pick<TradeRow, 'start' | 'end'> & { id?: number },
  users: UserRow[],
): Promise<void> {
  const limits = await findTradeLimits(db, auth.orgId);
  if (limits.trades_per_period === null || users.length === 0) return;
  const setting = { ...limits.period, threshold_hours: 0 };
  const [period] = workPeriodsOverlapping(setting, { start: trade.start, end: trade.end });
  if (!period) return;
  for (const user of users) {
    const count = await countTradesOfUser(db, auth.orgId, {
      userId: user.id,
      start: period.start,
      end: period.end,
      localNow: nowLocal(auth.timezone),
      exceptId: trade.id,
    });
    if (count >= limits.trades_per_period)
      throw invalidParams(
        `The trade limit of ${limits.trades_per_period} per person per work period is reached: ${fullName(user)} ` +
          `has ${count} trades in the period ${period.start.slice(0, 10)} to ${period.end.slice(0, 10)}.`,
      );
  }
}

/** Net hours the user owes over every counterpart, with the trade's debts added when one is given. */
async function owedHours(db: Db, auth: AuthContext, userId: number, trade?: TradeRow): Promise<number> {
  const counterparts = await paybackOf(db, auth.orgId, userId, auth.timezone);
  const net = new Map(counterparts.map((c) => [c.counterpartId, c.workedForUser - c.userWorked]));
  if (trade) {
    if (trade.accepting_user_id === null) {
      // no taker yet: the worst case, the whole span owed
      const [debt] = debtsOf({ ...trade, status: 'filled', accepting_user_id: -1 }, auth.timezone);
      if (debt && trade.requesting_user_id === userId) net.set(-1, debt.hours);
    }
    for (const debt of debtsOf({ ...trade, status: 'filled' }, auth.timezone)) {
      if (debt.owner === userId) net.set(debt.worker, (net.get(debt.worker) ?? 0) + debt.hours);
      if (debt.worker === userId) net.set(debt.owner, (net.get(debt.owner) ?? 0) - debt.hours);
    }
  }
  return round([...net.values()].reduce((sum, hours) => sum + Math.max(0, hours), 0));
}

/**
 * owed_hours: a trade that would leave a user owing more than the limit on trades (over every
 * counterpart, net of paybacks) is refused, on request and when it fills; one that lowers what the
 * user owes is never refused.
 */
export async function assertOwedHours(db: Db, auth: AuthContext, trade: TradeRow, users: UserRow[]): Promise<void> {
  const limits = await findTradeLimits(db, auth.orgId);
  if (limits.owed_hours === null) return;
  for (const user of users) {
    const after = await owedHours(db, auth, user.id, trade);
    if (after <= limits.owed_hours) continue;
    const before = await owedHours(db, auth, user.id);
    if (after <= before) continue;
    throw invalidParams(
      `The limit of ${limits.owed_hours} owed hours on trades is reached: ${fullName(user)} owes ${before} hours ` +
        `and would owe ${after} after this trade.`,
    );
  }
}

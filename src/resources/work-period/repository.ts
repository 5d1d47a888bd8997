import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import { updateOrganizationSettings } from '../../core/org-settings.js';
import type { WorkPeriodResponse } from './schemas.js';

/**
 * The organization's FLSA 7(k) work period: its length in days, overtime threshold and start, and
 * whose hours a trade's hours are (src/scheduling/trade-hours.ts).
 */
export async function findWorkPeriod(db: Db, orgId: number): Promise<WorkPeriodResponse> {
  const row = await db
    .selectFrom('organization')
    .select(['work_period_days', 'work_period_hours', 'work_period_start', 'trade_hours_count_for'])
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!row) throw notFound('Company');
  return {
    days: Number(row.work_period_days),
    threshold_hours: Number(row.work_period_hours),
    start: row.work_period_start,
    trade_hours_count_for: row.trade_hours_count_for === 'worker' ? 'worker' : 'scheduled',
  };
}

export async function updateWorkPeriod(db: Db, orgId: number, values: Partial<WorkPeriodResponse>): Promise<void> {
  await updateOrganizationSettings(db, orgId, {
    work_period_days: values.days,
    work_period_hours: values.threshold_hours,
    work_period_start: values.start,
    trade_hours_count_for: values.trade_hours_count_for,
  });
}

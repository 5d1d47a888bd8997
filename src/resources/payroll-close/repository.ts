import type { Db } from '../../core/db/transaction.js';
import { updateOrganizationSettings } from '../../core/org-settings.js';
import type { ChangePayrollCloseBody, PayrollCloseResponse } from './schemas.js';
import './table.js';

export async function findPayrollClose(db: Db, orgId: number): Promise<PayrollCloseResponse> {
  const row = await db
    .selectFrom('organization')
    .select('payroll_closed_through')
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  return { closed_through: row.payroll_closed_through };
}

export function updatePayrollClose(db: Db, orgId: number, values: ChangePayrollCloseBody): Promise<void> {
  return updateOrganizationSettings(db, orgId, { payroll_closed_through: values.closed_through });
}

import type { Kysely } from 'kysely';
import { createIndexOn } from '../schema.js';

/**
 * The bank follows the charge (docs/time-off.md): a ledger row that adjusts an approved entry's debit
 * after a change names the change (`cause_action`, `cause_log_id`: its system-log entry) and, when the
 * change reached into a finalized day, that day (`flagged_date`): payroll flags it for the clerk.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accrual_transaction').addColumn('cause_action', 'text').execute();
  await db.schema.alterTable('accrual_transaction').addColumn('cause_log_id', 'integer').execute();
  await db.schema.alterTable('accrual_transaction').addColumn('flagged_date', 'text').execute();
  await createIndexOn(db, 'accrual_transaction_time_off', 'accrual_transaction', ['organization_id', 'time_off_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('accrual_transaction_time_off').execute();
  await db.schema.alterTable('accrual_transaction').dropColumn('flagged_date').execute();
  await db.schema.alterTable('accrual_transaction').dropColumn('cause_log_id').execute();
  await db.schema.alterTable('accrual_transaction').dropColumn('cause_action').execute();
}

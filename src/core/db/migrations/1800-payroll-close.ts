import type { Kysely } from 'kysely';

/**
 * Closed payroll periods (docs/time-off.md, "Closed payroll periods"): `payroll_closed_through`, the
 * last closed date of the organization; a bank adjustment reaching into it is flagged in payroll.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').addColumn('payroll_closed_through', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('payroll_closed_through').execute();
}

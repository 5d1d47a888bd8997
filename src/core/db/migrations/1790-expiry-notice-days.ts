import type { Kysely } from 'kysely';

/**
 * Certification expiry notice thresholds per organization (docs/contract-rules.md, "Certification
 * expiry"): `expiry_notice_days`, a JSON array of days before the expiry; null = 60, 30 and 7.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').addColumn('expiry_notice_days', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('expiry_notice_days').execute();
}

import type { Kysely } from 'kysely';

/**
 * The rules a forced hire went by (docs/contract-rules.md, "Forced hire"): the forced list's buffers
 * and the organization's zone and fatigue rules as JSON (`rules`) with its SHA-256 (`rules_hash`);
 * null on forced hires recorded before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('forced_hire').addColumn('rules', 'text').execute();
  await db.schema.alterTable('forced_hire').addColumn('rules_hash', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('forced_hire').dropColumn('rules_hash').execute();
  await db.schema.alterTable('forced_hire').dropColumn('rules').execute();
}

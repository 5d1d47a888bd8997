import type { Kysely } from 'kysely';
import { DOUBLE } from '../schema.js';

/**
 * Overdraft rules per time off type and the organization's trade limits (docs/time-off.md):
 * `overdraft_hours` bounds how far below zero a type that allows negative balances may go (null: no
 * bound); `trade_limit_count` caps a person's trades per work period and `trade_limit_owed_hours`
 * the hours a person may owe on trades (null: no limit).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('time_off_type').addColumn('overdraft_hours', DOUBLE).execute();
  await db.schema.alterTable('organization').addColumn('trade_limit_count', 'integer').execute();
  await db.schema.alterTable('organization').addColumn('trade_limit_owed_hours', DOUBLE).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('trade_limit_owed_hours').execute();
  await db.schema.alterTable('organization').dropColumn('trade_limit_count').execute();
  await db.schema.alterTable('time_off_type').dropColumn('overdraft_hours').execute();
}

import type { Kysely } from 'kysely';
import { DOUBLE } from '../schema.js';

/**
 * The department's fatigue rules (docs/contract-rules.md, "Fatigue rules"), on the organization;
 * null = the rule is off: most consecutive hours worked (`fatigue_max_consecutive_hours`, a stretch
 * ending at `fatigue_stretch_break_hours` off), rest after a long stretch (`fatigue_rest_hours` off
 * after `fatigue_rest_after_hours` worked within `fatigue_rest_within_hours`), most hours per work
 * period (`fatigue_max_period_hours`).
 */
const COLUMNS = [
  'fatigue_max_consecutive_hours',
  'fatigue_rest_hours',
  'fatigue_rest_after_hours',
  'fatigue_rest_within_hours',
  'fatigue_max_period_hours',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('organization').addColumn(column, DOUBLE).execute();
  await db.schema
    .alterTable('organization')
    .addColumn('fatigue_stretch_break_hours', DOUBLE, (c) => c.notNull().defaultTo(8))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('fatigue_stretch_break_hours').execute();
  for (const column of [...COLUMNS].reverse()) await db.schema.alterTable('organization').dropColumn(column).execute();
}

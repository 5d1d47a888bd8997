import type { Kysely } from 'kysely';
import { DOUBLE } from '../schema.js';

/**
 * The scheduling engine's settings (docs/schedule.md):
 * - a one-off shift booked over approved time off on purpose is worked there;
 * - a callback keeps the vacancy it was started for (JSON);
 * - a rotation's Kelly days carry a code and a name, shown on the schedule;
 * - a time off type's default day length (hours charged per day to a user with no scheduled work)
 *   and whether its hours count as hours worked for overtime;
 * - the organization's FLSA 7(k) work period: its length in days, its overtime threshold in hours
 *   and the wall-clock instant one period starts at.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('callback').addColumn('vacancy', 'text').execute();
  await db.schema
    .alterTable('shift')
    .addColumn('overrides_time_off', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('rotation')
    .addColumn('kelly_code', 'text', (c) => c.notNull().defaultTo('KD'))
    .execute();
  await db.schema
    .alterTable('rotation')
    .addColumn('kelly_name', 'text', (c) => c.notNull().defaultTo('Kelly day'))
    .execute();
  await db.schema
    .alterTable('time_off_type')
    .addColumn('default_day_hours', DOUBLE, (c) => c.notNull().defaultTo(24))
    .execute();
  await db.schema
    .alterTable('time_off_type')
    .addColumn('counts_as_worked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organization')
    .addColumn('work_period_days', 'integer', (c) => c.notNull().defaultTo(7))
    .execute();
  await db.schema
    .alterTable('organization')
    .addColumn('work_period_hours', DOUBLE, (c) => c.notNull().defaultTo(40))
    .execute();
  await db.schema
    .alterTable('organization')
    .addColumn('work_period_start', 'text', (c) => c.notNull().defaultTo('2023-01-01 00:00:00'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['work_period_start', 'work_period_hours', 'work_period_days']) {
    await db.schema.alterTable('organization').dropColumn(column).execute();
  }
  await db.schema.alterTable('time_off_type').dropColumn('counts_as_worked').execute();
  await db.schema.alterTable('time_off_type').dropColumn('default_day_hours').execute();
  await db.schema.alterTable('rotation').dropColumn('kelly_name').execute();
  await db.schema.alterTable('rotation').dropColumn('kelly_code').execute();
  await db.schema.alterTable('shift').dropColumn('overrides_time_off').execute();
  await db.schema.alterTable('callback').dropColumn('vacancy').execute();
}

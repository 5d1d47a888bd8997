import type { Kysely } from 'kysely';

/**
 * Date-only leave keeps its dates (docs/time-off.md#date-only-leave): `first_date` and `last_date`
 * of leave entered as dates, so that its span follows the person's work after a change; null on
 * leave entered as datetimes and on entries recorded before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('time_off').addColumn('first_date', 'text').execute();
  await db.schema.alterTable('time_off').addColumn('last_date', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('time_off').dropColumn('last_date').execute();
  await db.schema.alterTable('time_off').dropColumn('first_date').execute();
}

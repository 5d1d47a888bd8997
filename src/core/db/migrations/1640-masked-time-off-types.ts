import type { Kysely } from 'kysely';

/**
 * Masked time off types (docs/time-off.md#masked-types): time off of a type with `masked` = 1 shows
 * to those who may not see its type (members other than the person, calendar feeds, printed boards)
 * under `public_name` (null: "Off").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('time_off_type')
    .addColumn('masked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('time_off_type').addColumn('public_name', 'varchar(255)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('time_off_type').dropColumn('public_name').execute();
  await db.schema.alterTable('time_off_type').dropColumn('masked').execute();
}

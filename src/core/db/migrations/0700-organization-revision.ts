import type { Kysely } from 'kysely';

/**
 * The organization's revision: raised (on PostgreSQL) after every successful change request, so that a process can
 * tell whether a response it computed earlier (the schedule cache) still holds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organization')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('revision').execute();
}

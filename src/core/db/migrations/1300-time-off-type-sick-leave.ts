import { sql, type Kysely } from 'kysely';

/**
 * The time off type "Mark sick" of the web board records: at most one live type of an organization
 * carries `sick_leave` (a partial unique index; the writes that set it lock the organization's row).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('time_off_type')
    .addColumn('sick_leave', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('time_off_type_one_sick_leave')
    .unique()
    .on('time_off_type')
    .column('organization_id')
    .where(sql.ref('sick_leave'), '=', 1)
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('time_off_type_one_sick_leave').execute();
  await db.schema.alterTable('time_off_type').dropColumn('sick_leave').execute();
}

import type { Kysely } from 'kysely';

/**
 * What the web app's members (non-admin sessions) see of their coworkers in GET /users
 * (src/resources/member-view): `work_contact` (the default) or `all`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organization')
    .addColumn('member_user_view', 'text', (c) => c.notNull().defaultTo('work_contact'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('member_user_view').execute();
}

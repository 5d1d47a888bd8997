import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull } from '../columns.js';

/** Signup events and the users signed up for them. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'signup_event')
    .$call(notNull('text', 'title', 'start', 'end', 'description'))
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .addColumn('employees_needed', 'integer', (c) => c.notNull())
    .addColumn('signed_up_count', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(notNull('integer', 'created_by', 'modified_by'))
    .$call(notNull('text', 'created_at', 'modified_at'))
    .addColumn('deleted_by', 'integer')
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'signup_event_org_start', 'signup_event', ['organization_id', 'start']);

  await createTenantTable(db, 'signup_event_user')
    .$call(notNull('integer', 'event_id', 'user_id'))
    .addColumn('misc_hour_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'signup_event_user_event_user', 'signup_event_user', [
    'organization_id',
    'event_id',
    'user_id',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signup_event_user').execute();
  await db.schema.dropTable('signup_event').execute();
}

import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';

/** Signup events and the users signed up for them. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'signup_event')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .addColumn('employees_needed', 'integer', (c) => c.notNull())
    .addColumn('signed_up_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('modified_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_at', 'text', (c) => c.notNull())
    .addColumn('deleted_by', 'integer')
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'signup_event_org_start', 'signup_event', ['organization_id', 'start']);

  await createTenantTable(db, 'signup_event_user')
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('misc_hour_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(
    db,
    'signup_event_user_event_user',
    'signup_event_user',
    ['organization_id', 'event_id', 'user_id'],
    { unique: true },
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signup_event_user').execute();
  await db.schema.dropTable('signup_event').execute();
}

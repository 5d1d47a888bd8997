import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';

/** Callbacks (overtime offered through a callback list) and the users contacted for them. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'callback')
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('assignment_id', 'integer')
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('initiated_by', 'integer', (c) => c.notNull())
    .addColumn('ordering', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('positions_to_fill', 'integer', (c) => c.notNull())
    .addColumn('accepted_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scheduled_to', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('deadline', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('cancelled_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'callback_org_start', 'callback', ['organization_id', 'start']);
  await createIndexOn(db, 'callback_org_list', 'callback', ['organization_id', 'list_id']);

  await createTenantTable(db, 'callback_user')
    .addColumn('callback_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('contact_method', 'text')
    .addColumn('contact_time', 'text')
    .addColumn('response_time', 'text')
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    .addColumn('uses_opportunity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('do_not_disturb', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_accepted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shift_id', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(
    db,
    'callback_user_callback_user',
    'callback_user',
    ['organization_id', 'callback_id', 'user_id'],
    { unique: true },
  );
  await createIndexOn(db, 'callback_user_org_user', 'callback_user', ['organization_id', 'user_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('callback_user').execute();
  await db.schema.dropTable('callback').execute();
}

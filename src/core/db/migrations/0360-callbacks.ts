import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, notNullDefault, nullable } from '../columns.js';

/** Callbacks (overtime offered through a callback list) and the users contacted for them. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'callback')
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('assignment_id', 'integer')
    .$call(notNull('integer', 'work_type_id', 'initiated_by'))
    .$call(notNull('text', 'ordering', 'start', 'end'))
    .addColumn('positions_to_fill', 'integer', (c) => c.notNull())
    .addColumn('accepted_count', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(notNull('text', 'status', 'scheduled_to', 'started_at'))
    .addColumn('ended_at', 'text')
    .addColumn('deadline', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('cancelled_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'callback_org_start', 'callback', ['organization_id', 'start']);
  await createIndexOn(db, 'callback_org_list', 'callback', ['organization_id', 'list_id']);

  await createTenantTable(db, 'callback_user')
    .$call(notNull('integer', 'callback_id', 'user_id', 'position'))
    .addColumn('status', 'text', (c) => c.notNull())
    .$call(nullable('text', 'contact_method', 'contact_time', 'response_time', 'start_time', 'end_time'))
    .$call(notNullDefault('integer', 0, 'uses_opportunity', 'do_not_disturb', 'auto_accepted'))
    .addColumn('shift_id', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'callback_user_callback_user', 'callback_user', [
    'organization_id',
    'callback_id',
    'user_id',
  ]);
  await createIndexOn(db, 'callback_user_org_user', 'callback_user', ['organization_id', 'user_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('callback_user').execute();
  await db.schema.dropTable('callback').execute();
}

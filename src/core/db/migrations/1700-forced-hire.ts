import type { Kysely } from 'kysely';
import { createTenantTable } from '../schema.js';

/**
 * Forced hire, mandatory overtime (docs/contract-rules.md, "Forced hire"):
 * - `forced_list`: a group's forced list settings (one per group): auto-start, its window, the buffers;
 * - `forced_list_assignment`: the assignments whose vacancies a group's list covers (one list per assignment);
 * - `forced_member`: when each member of a group was last forced (local datetime of the forced shift's start);
 * - `forced_hire`: one row per forced hire, with the whole order explained (JSON); `auto_key` is unique
 *   per organization, so a vacancy gets one automatic forced hire however many processes tick.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'forced_list')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_within_hours', 'integer', (c) => c.notNull())
    .addColumn('time_off_buffer_hours', 'integer', (c) => c.notNull())
    .addColumn('long_tour_hours', 'integer', (c) => c.notNull())
    .addColumn('long_tour_buffer_hours', 'integer', (c) => c.notNull())
    .addColumn('initiated_by', 'integer')
    .addColumn('work_type_id', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('forced_list_group')
    .on('forced_list')
    .columns(['organization_id', 'group_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'forced_list_assignment')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('forced_list_assignment_unique')
    .on('forced_list_assignment')
    .columns(['organization_id', 'assignment_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'forced_member')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('last_forced_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('forced_member_unique')
    .on('forced_member')
    .columns(['organization_id', 'group_id', 'user_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'forced_hire')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('shift_id', 'integer')
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('ordered_by', 'integer')
    .addColumn('callback_id', 'integer')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('explained', 'text', (c) => c.notNull())
    .addColumn('auto_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('forced_hire_auto')
    .on('forced_hire')
    .columns(['organization_id', 'auto_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('forced_hire_org_start')
    .on('forced_hire')
    .columns(['organization_id', 'start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['forced_hire', 'forced_member', 'forced_list_assignment', 'forced_list'])
    await db.schema.dropTable(table).execute();
}

import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

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
    .$call(notNull('integer', 'start_within_hours', 'time_off_buffer_hours', 'long_tour_hours'))
    .addColumn('long_tour_buffer_hours', 'integer', (c) => c.notNull())
    .$call(nullable('integer', 'initiated_by', 'work_type_id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'forced_list_group', 'forced_list', ['organization_id', 'group_id']);

  await createTenantTable(db, 'forced_list_assignment')
    .$call(notNull('integer', 'group_id', 'assignment_id'))
    .execute();
  await createUniqueIndexOn(db, 'forced_list_assignment_unique', 'forced_list_assignment', [
    'organization_id',
    'assignment_id',
  ]);

  await createTenantTable(db, 'forced_member')
    .$call(notNull('integer', 'group_id', 'user_id'))
    .addColumn('last_forced_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'forced_member_unique', 'forced_member', ['organization_id', 'group_id', 'user_id']);

  await createTenantTable(db, 'forced_hire')
    .$call(notNull('integer', 'group_id', 'assignment_id'))
    .$call(notNull('text', 'date', 'start', 'end', 'status'))
    .$call(nullable('integer', 'user_id', 'shift_id'))
    .addColumn('trigger', 'text', (c) => c.notNull())
    .$call(nullable('integer', 'ordered_by', 'callback_id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('explained', 'text', (c) => c.notNull())
    .addColumn('auto_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'forced_hire_auto', 'forced_hire', ['organization_id', 'auto_key']);
  await createIndexOn(db, 'forced_hire_org_start', 'forced_hire', ['organization_id', 'start']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['forced_hire', 'forced_member', 'forced_list_assignment', 'forced_list'])
    await db.schema.dropTable(table).execute();
}

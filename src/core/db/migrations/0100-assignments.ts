import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, notNullDefault, nullable } from '../columns.js';

/** Assignments and what hangs off them, misc hours and day notes (docs/assignments.md). */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'assignment')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(notNull('text', 'date', 'start', 'end'))
    .$call(notNullDefault('integer', 1, 'positions_to_fill', 'is_work_shift'))
    .$call(notNullDefault('integer', 0, 'self_scheduling', 'self_scheduling_requires_approval', 'service_eligible'))
    .addColumn('hide_open_slots', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#F5F4F2'))
    .$call(nullable('text', 'location', 'rrule', 'until_date', 'notes'))
    .addColumn('created_by', 'integer')
    .addColumn('deleted_at', 'text')
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createIndexOn(db, 'assignment_org_date', 'assignment', ['organization_id', 'date']);

  await createTenantTable(db, 'assignment_qualifier')
    .$call(notNull('integer', 'assignment_id', 'qualifier_id'))
    .addColumn('minimum_staffing', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await createUniqueIndexOn(db, 'assignment_qualifier_assignment', 'assignment_qualifier', [
    'organization_id',
    'assignment_id',
    'qualifier_id',
  ]);

  await createTenantTable(db, 'assignment_group')
    .$call(notNull('text', 'name', 'color'))
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'assignment_group_org', 'assignment_group', ['organization_id', 'id']);
  await createTenantTable(db, 'assignment_group_member')
    .$call(notNull('integer', 'assignment_id', 'group_id'))
    .execute();
  await createUniqueIndexOn(db, 'assignment_group_member_assignment', 'assignment_group_member', [
    'organization_id',
    'assignment_id',
    'group_id',
  ]);

  await createTenantTable(db, 'assignment_admin')
    .$call(notNull('integer', 'assignment_id', 'user_id'))
    .execute();
  await createUniqueIndexOn(db, 'assignment_admin_assignment', 'assignment_admin', [
    'organization_id',
    'assignment_id',
    'user_id',
  ]);

  // The unique index makes "finalize once" atomic: concurrent identical requests insert one row.
  await createTenantTable(db, 'assignment_finalization')
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'assignment_finalization_unique', 'assignment_finalization', [
    'organization_id',
    'assignment_id',
    'date',
  ]);
  await createIndexOn(db, 'assignment_finalization_org_date', 'assignment_finalization', ['organization_id', 'date']);

  await createTenantTable(db, 'misc_hour')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .$call(nullable('text', 'start', 'end'))
    .addColumn('length', DOUBLE, (c) => c.notNull())
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .$call(nullable('text', 'notes', 'source'))
    .addColumn('source_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'misc_hour_org_date', 'misc_hour', ['organization_id', 'date']);

  await createTenantTable(db, 'day_note')
    .$call(notNull('text', 'date', 'kind', 'html'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createIndexOn(db, 'day_note_org_date', 'day_note', ['organization_id', 'date']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'day_note',
    'misc_hour',
    'assignment_finalization',
    'assignment_admin',
    'assignment_group_member',
    'assignment_group',
    'assignment_qualifier',
    'assignment',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

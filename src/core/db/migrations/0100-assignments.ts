import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn } from '../schema.js';

/** Assignments and what hangs off them, misc hours and day notes (docs/assignments.md). */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'assignment')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('positions_to_fill', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_work_shift', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('self_scheduling', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('self_scheduling_requires_approval', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('service_eligible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_open_slots', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#F5F4F2'))
    .addColumn('location', 'text')
    .addColumn('rrule', 'text')
    .addColumn('until_date', 'text')
    .addColumn('notes', 'text')
    .addColumn('created_by', 'integer')
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'assignment_org_date', 'assignment', ['organization_id', 'date']);

  await createTenantTable(db, 'assignment_qualifier')
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('qualifier_id', 'integer', (c) => c.notNull())
    .addColumn('minimum_staffing', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await createIndexOn(
    db,
    'assignment_qualifier_assignment',
    'assignment_qualifier',
    ['organization_id', 'assignment_id', 'qualifier_id'],
    { unique: true },
  );

  await createTenantTable(db, 'assignment_group')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'assignment_group_org', 'assignment_group', ['organization_id', 'id']);
  await createTenantTable(db, 'assignment_group_member')
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .execute();
  await createIndexOn(
    db,
    'assignment_group_member_assignment',
    'assignment_group_member',
    ['organization_id', 'assignment_id', 'group_id'],
    { unique: true },
  );

  await createTenantTable(db, 'assignment_admin')
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .execute();
  await createIndexOn(
    db,
    'assignment_admin_assignment',
    'assignment_admin',
    ['organization_id', 'assignment_id', 'user_id'],
    { unique: true },
  );

  // The unique index makes "finalize once" atomic: concurrent identical requests insert one row.
  await createTenantTable(db, 'assignment_finalization')
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(
    db,
    'assignment_finalization_unique',
    'assignment_finalization',
    ['organization_id', 'assignment_id', 'date'],
    { unique: true },
  );
  await createIndexOn(db, 'assignment_finalization_org_date', 'assignment_finalization', ['organization_id', 'date']);

  await createTenantTable(db, 'misc_hour')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('start', 'text')
    .addColumn('end', 'text')
    .addColumn('length', DOUBLE, (c) => c.notNull())
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .addColumn('notes', 'text')
    .addColumn('source', 'text')
    .addColumn('source_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'misc_hour_org_date', 'misc_hour', ['organization_id', 'date']);

  await createTenantTable(db, 'day_note')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
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

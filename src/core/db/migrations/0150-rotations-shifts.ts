import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, notNullDefault, nullable } from '../columns.js';

/** Rotations, recurring shifts (rotation memberships) with their per-date exceptions, one-off shifts. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'rotation')
    .$call(notNull('text', 'name', 'anchor_date', 'pattern'))
    .addColumn('crews', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('kelly_every', 'integer')
    .addColumn('deleted_at', 'text')
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createIndexOn(db, 'rotation_org', 'rotation', ['organization_id']);

  await createTenantTable(db, 'recurring_shift')
    .$call(notNull('integer', 'rotation_id', 'user_id'))
    .addColumn('assignment_ids', 'text', (c) => c.notNull())
    .$call(notNullDefault('integer', 0, 'crew_offset', 'kelly_offset'))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .addColumn('break_start', 'text')
    .addColumn('break_length', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'text')
    .$call(nullable('integer', 'scheduled_by', 'previous_id'))
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createIndexOn(db, 'recurring_shift_org_dates', 'recurring_shift', [
    'organization_id',
    'start_date',
    'end_date',
  ]);
  await createIndexOn(db, 'recurring_shift_org_user', 'recurring_shift', ['organization_id', 'user_id']);

  await createTenantTable(db, 'recurring_shift_exception')
    .addColumn('recurring_shift_id', 'integer', (c) => c.notNull())
    .$call(notNull('text', 'date', 'kind'))
    .addColumn('assignment_id', 'integer')
    .$call(nullable('text', 'start', 'end', 'reason'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'recurring_shift_exception_org_shift_date', 'recurring_shift_exception', [
    'organization_id',
    'recurring_shift_id',
    'date',
  ]);

  await createTenantTable(db, 'shift')
    .$call(notNull('integer', 'assignment_id', 'user_id'))
    .$call(notNull('text', 'date', 'start', 'end'))
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .$call(nullable('text', 'break_start', 'break_end'))
    .addColumn('hold_over', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'text')
    .$call(nullable('integer', 'from_callback', 'traded_with', 'scheduled_by'))
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createIndexOn(db, 'shift_org_start', 'shift', ['organization_id', 'start']);
  await createIndexOn(db, 'shift_org_user', 'shift', ['organization_id', 'user_id', 'start']);

  for (const [table, column] of [
    ['shift_label', 'label_id'],
    ['shift_qualifier', 'qualifier_id'],
  ] as const) {
    await createTenantTable(db, table)
      .addColumn('shift_id', 'integer', (c) => c.notNull())
      .addColumn(column, 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex(`${table}_org_shift`)
      .on(table)
      .columns(['organization_id', 'shift_id', column])
      .unique()
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'shift_qualifier',
    'shift_label',
    'shift',
    'recurring_shift_exception',
    'recurring_shift',
    'rotation',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn } from '../schema.js';

/** Rotations, recurring shifts (rotation memberships) with their per-date exceptions, one-off shifts. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'rotation')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('anchor_date', 'text', (c) => c.notNull())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('crews', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('kelly_every', 'integer')
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'rotation_org', 'rotation', ['organization_id']);

  await createTenantTable(db, 'recurring_shift')
    .addColumn('rotation_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('assignment_ids', 'text', (c) => c.notNull())
    .addColumn('crew_offset', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('kelly_offset', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .addColumn('break_start', 'text')
    .addColumn('break_length', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'text')
    .addColumn('scheduled_by', 'integer')
    .addColumn('previous_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'recurring_shift_org_dates', 'recurring_shift', [
    'organization_id',
    'start_date',
    'end_date',
  ]);
  await createIndexOn(db, 'recurring_shift_org_user', 'recurring_shift', ['organization_id', 'user_id']);

  await createTenantTable(db, 'recurring_shift_exception')
    .addColumn('recurring_shift_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('assignment_id', 'integer')
    .addColumn('start', 'text')
    .addColumn('end', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(
    db,
    'recurring_shift_exception_org_shift_date',
    'recurring_shift_exception',
    ['organization_id', 'recurring_shift_id', 'date'],
    { unique: true },
  );

  await createTenantTable(db, 'shift')
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('work_subtype_id', 'integer')
    .addColumn('break_start', 'text')
    .addColumn('break_end', 'text')
    .addColumn('hold_over', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'text')
    .addColumn('from_callback', 'integer')
    .addColumn('traded_with', 'integer')
    .addColumn('scheduled_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
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

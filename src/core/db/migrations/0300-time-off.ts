import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, notNullDefault, nullable } from '../columns.js';

/** Time off types, time off entries, accrual rules, track steps and bank ledger, availability. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'time_off_type')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('work_code', 'text')
    .$call(notNull('text', 'primary_color', 'secondary_color'))
    .$call(notNullDefault('integer', 0, 'force_include', 'forward'))
    .addColumn('required_buffer', DOUBLE, (c) => c.notNull().defaultTo(0))
    .$call(notNullDefault('integer', 0, 'instance_limit', 'allow_negative'))
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'time_off_type_org', 'time_off_type', ['organization_id']);

  await createTenantTable(db, 'time_off')
    .$call(notNull('integer', 'user_id', 'time_off_type_id'))
    .$call(notNull('text', 'start', 'end'))
    .$call(nullable('text', 'rrule', 'until'))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('admin_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('admin_id', 'integer')
    .addColumn('requested_by_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_note', 'text')
    .addColumn('traded_with', 'integer')
    .addColumn('request_date', 'text', (c) => c.notNull())
    .$call(nullable('text', 'approval_date', 'denial_date', 'acknowledgement_date', 'deleted_at'))
    .execute();
  await createIndexOn(db, 'time_off_org_start', 'time_off', ['organization_id', 'start']);
  await createIndexOn(db, 'time_off_org_user', 'time_off', ['organization_id', 'user_id', 'start']);

  await createTenantTable(db, 'accrual_rule')
    .$call(notNull('integer', 'profile_id', 'time_off_type_id'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('hours', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_hours', DOUBLE)
    .execute();
  await createIndexOn(db, 'accrual_rule_org_profile', 'accrual_rule', ['organization_id', 'profile_id']);

  await createTenantTable(db, 'accrual_track_step')
    .$call(notNull('integer', 'track_id', 'profile_id', 'from_years'))
    .execute();
  await createIndexOn(db, 'accrual_track_step_org_track', 'accrual_track_step', ['organization_id', 'track_id']);

  await createTenantTable(db, 'accrual_transaction')
    .$call(notNull('integer', 'user_id', 'time_off_type_id'))
    .addColumn('hours', DOUBLE, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    .addColumn('notes', 'text')
    .addColumn('time_off_id', 'integer')
    .addColumn('period_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'accrual_transaction_org_user', 'accrual_transaction', [
    'organization_id',
    'user_id',
    'time_off_type_id',
  ]);
  await createUniqueIndexOn(db, 'accrual_transaction_period', 'accrual_transaction', [
    'organization_id',
    'user_id',
    'time_off_type_id',
    'period_key',
  ]);

  await createTenantTable(db, 'unavailability_reason')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'unavailability_reason_org', 'unavailability_reason', ['organization_id']);

  await createTenantTable(db, 'availability_period')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .$call(notNull('text', 'start', 'end'))
    .addColumn('admin_id', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('unavailability_reason_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'availability_period_org_start', 'availability_period', ['organization_id', 'start']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'availability_period',
    'unavailability_reason',
    'accrual_transaction',
    'accrual_track_step',
    'accrual_rule',
    'time_off',
    'time_off_type',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

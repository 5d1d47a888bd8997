import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn } from '../schema.js';

/** Time off types, time off entries, accrual rules, track steps and bank ledger, availability. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'time_off_type')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('work_code', 'text')
    .addColumn('primary_color', 'text', (c) => c.notNull())
    .addColumn('secondary_color', 'text', (c) => c.notNull())
    .addColumn('force_include', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('forward', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('required_buffer', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('instance_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_negative', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'time_off_type_org', 'time_off_type', ['organization_id']);

  await createTenantTable(db, 'time_off')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('time_off_type_id', 'integer', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('rrule', 'text')
    .addColumn('until', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('admin_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('admin_id', 'integer')
    .addColumn('requested_by_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_note', 'text')
    .addColumn('traded_with', 'integer')
    .addColumn('request_date', 'text', (c) => c.notNull())
    .addColumn('approval_date', 'text')
    .addColumn('denial_date', 'text')
    .addColumn('acknowledgement_date', 'text')
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'time_off_org_start', 'time_off', ['organization_id', 'start']);
  await createIndexOn(db, 'time_off_org_user', 'time_off', ['organization_id', 'user_id', 'start']);

  await createTenantTable(db, 'accrual_rule')
    .addColumn('profile_id', 'integer', (c) => c.notNull())
    .addColumn('time_off_type_id', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('hours', DOUBLE, (c) => c.notNull().defaultTo(0))
    .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_hours', DOUBLE)
    .execute();
  await createIndexOn(db, 'accrual_rule_org_profile', 'accrual_rule', ['organization_id', 'profile_id']);

  await createTenantTable(db, 'accrual_track_step')
    .addColumn('track_id', 'integer', (c) => c.notNull())
    .addColumn('profile_id', 'integer', (c) => c.notNull())
    .addColumn('from_years', 'integer', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'accrual_track_step_org_track', 'accrual_track_step', ['organization_id', 'track_id']);

  await createTenantTable(db, 'accrual_transaction')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('time_off_type_id', 'integer', (c) => c.notNull())
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
  await createIndexOn(
    db,
    'accrual_transaction_period',
    'accrual_transaction',
    ['organization_id', 'user_id', 'time_off_type_id', 'period_key'],
    { unique: true },
  );

  await createTenantTable(db, 'unavailability_reason')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'unavailability_reason_org', 'unavailability_reason', ['organization_id']);

  await createTenantTable(db, 'availability_period')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
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

import type { Kysely } from 'kysely';
import { createTenantTable, withId } from '../schema.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('organization'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await createTenantTable(db, 'api_credential')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_credential_org').on('api_credential').columns(['organization_id']).execute();

  await createTenantTable(db, 'access_token')
    .addColumn('credential_id', 'integer', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_token_credential').on('access_token').columns(['credential_id']).execute();

  await createTenantTable(db, 'system_log')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text')
    .addColumn('entity_id', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text')
    .addColumn('changes', 'text')
    .execute();
  await db.schema.createIndex('system_log_org_id').on('system_log').columns(['organization_id', 'id']).execute();
  await db.schema
    .createIndex('system_log_org_created')
    .on('system_log')
    .columns(['organization_id', 'created_at'])
    .execute();

  await createTenantTable(db, 'accrual_profile')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createTenantTable(db, 'accrual_track')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();

  await createTenantTable(db, 'user_account')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('employee_id', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('date_of_hire', 'text')
    .addColumn('date_of_birth', 'text')
    .addColumn('accrual_start_date', 'text')
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('phone_numbers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('accrual_track_id', 'integer')
    .addColumn('accrual_profile_id', 'integer')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_account_org_username')
    .on('user_account')
    .columns(['organization_id', 'username'])
    .unique()
    .execute();
  await db.schema
    .createIndex('user_account_org_employee')
    .on('user_account')
    .columns(['organization_id', 'employee_id'])
    .execute();

  await createTenantTable(db, 'user_field')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'text')
    .execute();
  await createTenantTable(db, 'user_field_value')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('field_id', 'integer', (c) => c.notNull())
    .addColumn('value', 'text')
    .execute();
  await db.schema
    .createIndex('user_field_value_user_field')
    .on('user_field_value')
    .columns(['organization_id', 'user_id', 'field_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'work_type')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('work_code', 'text')
    .addColumn('primary_color', 'text', (c) => c.notNull())
    .addColumn('secondary_color', 'text', (c) => c.notNull())
    .addColumn('excludes_from_callback', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('work_type_org').on('work_type').columns(['organization_id']).execute();
  await createTenantTable(db, 'work_subtype')
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('work_code', 'text')
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('work_subtype_org_type')
    .on('work_subtype')
    .columns(['organization_id', 'work_type_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'work_subtype',
    'work_type',
    'user_field_value',
    'user_field',
    'user_account',
    'accrual_track',
    'accrual_profile',
    'system_log',
    'access_token',
    'api_credential',
    'organization',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

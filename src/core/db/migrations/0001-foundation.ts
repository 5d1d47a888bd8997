import type { Kysely } from 'kysely';
import { createTenantTable, withId, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, notNullDefault, nullable } from '../columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('organization'))
    .$call(notNull('text', 'name', 'timezone', 'created_at'))
    .execute();

  await createTenantTable(db, 'api_credential')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await createIndexOn(db, 'api_credential_org', 'api_credential', ['organization_id']);

  await createTenantTable(db, 'access_token')
    .addColumn('credential_id', 'integer', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'access_token_credential', 'access_token', ['credential_id']);

  await createTenantTable(db, 'system_log')
    .$call(notNull('text', 'created_at', 'action'))
    .$call(nullable('text', 'entity_type', 'entity_id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .$call(nullable('text', 'client_id', 'changes'))
    .execute();
  await createIndexOn(db, 'system_log_org_id', 'system_log', ['organization_id', 'id']);
  await createIndexOn(db, 'system_log_org_created', 'system_log', ['organization_id', 'created_at']);

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
    .$call(nullable('text', 'password_hash', 'employee_id'))
    .$call(notNull('text', 'first_name', 'last_name'))
    .$call(nullable('text', 'role', 'avatar_url', 'date_of_hire', 'date_of_birth', 'accrual_start_date'))
    .$call(notNullDefault('text', '[]', 'emails', 'phone_numbers'))
    .$call(nullable('integer', 'accrual_track_id', 'accrual_profile_id'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deleted_at', 'text')
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createUniqueIndexOn(db, 'user_account_org_username', 'user_account', ['organization_id', 'username']);
  await createIndexOn(db, 'user_account_org_employee', 'user_account', ['organization_id', 'employee_id']);

  await createTenantTable(db, 'user_field')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'text')
    .execute();
  await createTenantTable(db, 'user_field_value')
    .$call(notNull('integer', 'user_id', 'field_id'))
    .addColumn('value', 'text')
    .execute();
  await createUniqueIndexOn(db, 'user_field_value_user_field', 'user_field_value', [
    'organization_id',
    'user_id',
    'field_id',
  ]);

  await createTenantTable(db, 'work_type')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('work_code', 'text')
    .$call(notNull('text', 'primary_color', 'secondary_color'))
    .$call(notNullDefault('integer', 0, 'excludes_from_callback', 'position'))
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'work_type_org', 'work_type', ['organization_id']);
  await createTenantTable(db, 'work_subtype')
    .addColumn('work_type_id', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .$call(nullable('text', 'work_code', 'deleted_at'))
    .execute();
  await createIndexOn(db, 'work_subtype_org_type', 'work_subtype', ['organization_id', 'work_type_id']);
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

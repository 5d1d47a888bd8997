import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, notNullDefault, nullable } from '../columns.js';

/**
 * Catalogs and people: labels, visual cycles, day labels, groups, specialty filters, callback
 * lists, qualifiers, certifications, company profile, partner user mapping, and the user
 * memberships in each.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'label')
    .$call(notNull('text', 'label', 'color', 'text_color'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'label_org', 'label', ['organization_id', 'position']);

  await createTenantTable(db, 'visual_cycle')
    .$call(notNull('text', 'name', 'start', 'end', 'color', 'text_color'))
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_by', 'integer')
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'visual_cycle_org_start', 'visual_cycle', ['organization_id', 'start']);

  await createTenantTable(db, 'day_label')
    .$call(notNull('text', 'date', 'label', 'color'))
    .execute();
  await createUniqueIndexOn(db, 'day_label_org_date', 'day_label', ['organization_id', 'date']);

  await createTenantTable(db, 'user_group')
    .$call(notNull('text', 'name', 'created_at'))
    .execute();
  await createIndexOn(db, 'user_group_org', 'user_group', ['organization_id', 'id']);
  await createTenantTable(db, 'user_group_member')
    .$call(notNull('integer', 'user_id', 'group_id'))
    .execute();
  await createUniqueIndexOn(db, 'user_group_member_user', 'user_group_member', [
    'organization_id',
    'user_id',
    'group_id',
  ]);
  await createIndexOn(db, 'user_group_member_group', 'user_group_member', ['organization_id', 'group_id']);

  await createTenantTable(db, 'specialty_filter')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'specialty_filter_org', 'specialty_filter', ['organization_id', 'id']);
  await createTenantTable(db, 'user_filter')
    .$call(notNull('integer', 'user_id', 'filter_id'))
    .execute();
  await createUniqueIndexOn(db, 'user_filter_user', 'user_filter', ['organization_id', 'user_id', 'filter_id']);

  await createTenantTable(db, 'callback_list')
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(notNullDefault('integer', 0, 'max_consecutive_hours', 'weekly_limit', 'monthly_limit', 'yearly_limit'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ordering', 'text', (c) => c.notNull().defaultTo('rotating'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'callback_list_org', 'callback_list', ['organization_id', 'position']);
  await createTenantTable(db, 'user_callback_list')
    .$call(notNull('integer', 'user_id', 'list_id'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createUniqueIndexOn(db, 'user_callback_list_user', 'user_callback_list', [
    'organization_id',
    'user_id',
    'list_id',
  ]);
  await createIndexOn(db, 'user_callback_list_list', 'user_callback_list', ['organization_id', 'list_id']);

  await createTenantTable(db, 'qualifier')
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(nullable('text', 'shortcode', 'color', 'text_color'))
    .$call(nullable('integer', 'title_id', 'partner_credential_id', 'created_by'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_by', 'integer')
    .addColumn('modified_at', 'text')
    .addColumn('deleted_by', 'integer')
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'qualifier_org', 'qualifier', ['organization_id', 'id']);
  await createTenantTable(db, 'user_qualifier')
    .$call(notNull('integer', 'user_id', 'qualifier_id'))
    .addColumn('ranking', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createUniqueIndexOn(db, 'user_qualifier_user', 'user_qualifier', [
    'organization_id',
    'user_id',
    'qualifier_id',
  ]);
  await createIndexOn(db, 'user_qualifier_qualifier', 'user_qualifier', ['organization_id', 'qualifier_id']);

  await createTenantTable(db, 'certification')
    .$call(notNull('text', 'name', 'cert_id'))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .$call(notNull('text', 'created_at', 'updated_at'))
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'certification_org', 'certification', ['organization_id', 'id']);
  await createTenantTable(db, 'user_certification')
    .$call(notNull('integer', 'user_id', 'certification_id'))
    .$call(nullable('text', 'number', 'issued_on', 'expires_on', 'notes', 'file_storage_name', 'file_content_type'))
    .addColumn('file_size', 'integer')
    .addColumn('file_uploaded_at', 'text')
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createIndexOn(db, 'user_certification_user', 'user_certification', ['organization_id', 'user_id']);

  await createTenantTable(db, 'company_profile')
    .$call(nullable('text', 'address', 'city', 'state', 'country', 'zip', 'phone', 'email', 'website'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'company_profile_org', 'company_profile', ['organization_id']);

  await createTenantTable(db, 'partner_user')
    .$call(notNull('integer', 'partner_user_id', 'service_user_id', 'partner_customer_id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'partner_user_org_partner', 'partner_user', ['organization_id', 'partner_user_id']);
  await createUniqueIndexOn(db, 'partner_user_org_service', 'partner_user', ['organization_id', 'service_user_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'partner_user',
    'company_profile',
    'user_certification',
    'certification',
    'user_qualifier',
    'qualifier',
    'user_callback_list',
    'callback_list',
    'user_filter',
    'specialty_filter',
    'user_group_member',
    'user_group',
    'day_label',
    'visual_cycle',
    'label',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

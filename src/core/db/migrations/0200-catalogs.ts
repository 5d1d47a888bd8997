import type { Kysely } from 'kysely';
import { createTenantTable } from '../schema.js';

/**
 * Catalogs and people: labels, visual cycles, day labels, groups, specialty filters, callback
 * lists, qualifiers, certifications, company profile, partner user mapping, and the user
 * memberships in each.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'label')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('text_color', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('label_org').on('label').columns(['organization_id', 'position']).execute();

  await createTenantTable(db, 'visual_cycle')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('text_color', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_by', 'integer')
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('visual_cycle_org_start')
    .on('visual_cycle')
    .columns(['organization_id', 'start'])
    .execute();

  await createTenantTable(db, 'day_label')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('day_label_org_date')
    .on('day_label')
    .columns(['organization_id', 'date'])
    .unique()
    .execute();

  await createTenantTable(db, 'user_group')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_group_org').on('user_group').columns(['organization_id', 'id']).execute();
  await createTenantTable(db, 'user_group_member')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_group_member_user')
    .on('user_group_member')
    .columns(['organization_id', 'user_id', 'group_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('user_group_member_group')
    .on('user_group_member')
    .columns(['organization_id', 'group_id'])
    .execute();

  await createTenantTable(db, 'specialty_filter')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('specialty_filter_org')
    .on('specialty_filter')
    .columns(['organization_id', 'id'])
    .execute();
  await createTenantTable(db, 'user_filter')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('filter_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_filter_user')
    .on('user_filter')
    .columns(['organization_id', 'user_id', 'filter_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'callback_list')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('max_consecutive_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('weekly_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('monthly_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('yearly_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ordering', 'text', (c) => c.notNull().defaultTo('rotating'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('callback_list_org')
    .on('callback_list')
    .columns(['organization_id', 'position'])
    .execute();
  await createTenantTable(db, 'user_callback_list')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('user_callback_list_user')
    .on('user_callback_list')
    .columns(['organization_id', 'user_id', 'list_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('user_callback_list_list')
    .on('user_callback_list')
    .columns(['organization_id', 'list_id'])
    .execute();

  await createTenantTable(db, 'qualifier')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('shortcode', 'text')
    .addColumn('color', 'text')
    .addColumn('text_color', 'text')
    .addColumn('title_id', 'integer')
    .addColumn('partner_credential_id', 'integer')
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('modified_by', 'integer')
    .addColumn('modified_at', 'text')
    .addColumn('deleted_by', 'integer')
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('qualifier_org').on('qualifier').columns(['organization_id', 'id']).execute();
  await createTenantTable(db, 'user_qualifier')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('qualifier_id', 'integer', (c) => c.notNull())
    .addColumn('ranking', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('user_qualifier_user')
    .on('user_qualifier')
    .columns(['organization_id', 'user_id', 'qualifier_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('user_qualifier_qualifier')
    .on('user_qualifier')
    .columns(['organization_id', 'qualifier_id'])
    .execute();

  await createTenantTable(db, 'certification')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cert_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('certification_org').on('certification').columns(['organization_id', 'id']).execute();
  await createTenantTable(db, 'user_certification')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('certification_id', 'integer', (c) => c.notNull())
    .addColumn('number', 'text')
    .addColumn('issued_on', 'text')
    .addColumn('expires_on', 'text')
    .addColumn('notes', 'text')
    .addColumn('file_storage_name', 'text')
    .addColumn('file_content_type', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('file_uploaded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_certification_user')
    .on('user_certification')
    .columns(['organization_id', 'user_id'])
    .execute();

  await createTenantTable(db, 'company_profile')
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('country', 'text')
    .addColumn('zip', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('website', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_profile_org')
    .on('company_profile')
    .columns(['organization_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'partner_user')
    .addColumn('partner_user_id', 'integer', (c) => c.notNull())
    .addColumn('service_user_id', 'integer', (c) => c.notNull())
    .addColumn('partner_customer_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('partner_user_org_partner')
    .on('partner_user')
    .columns(['organization_id', 'partner_user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('partner_user_org_service')
    .on('partner_user')
    .columns(['organization_id', 'service_user_id'])
    .unique()
    .execute();
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

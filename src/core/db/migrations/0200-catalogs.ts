import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';

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
  await createIndexOn(db, 'label_org', 'label', ['organization_id', 'position']);

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
  await createIndexOn(db, 'visual_cycle_org_start', 'visual_cycle', ['organization_id', 'start']);

  await createTenantTable(db, 'day_label')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'day_label_org_date', 'day_label', ['organization_id', 'date'], { unique: true });

  await createTenantTable(db, 'user_group')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'user_group_org', 'user_group', ['organization_id', 'id']);
  await createTenantTable(db, 'user_group_member')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'user_group_member_user', 'user_group_member', ['organization_id', 'user_id', 'group_id'], {
    unique: true,
  });
  await createIndexOn(db, 'user_group_member_group', 'user_group_member', ['organization_id', 'group_id']);

  await createTenantTable(db, 'specialty_filter')
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'specialty_filter_org', 'specialty_filter', ['organization_id', 'id']);
  await createTenantTable(db, 'user_filter')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('filter_id', 'integer', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'user_filter_user', 'user_filter', ['organization_id', 'user_id', 'filter_id'], {
    unique: true,
  });

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
  await createIndexOn(db, 'callback_list_org', 'callback_list', ['organization_id', 'position']);
  await createTenantTable(db, 'user_callback_list')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createIndexOn(db, 'user_callback_list_user', 'user_callback_list', ['organization_id', 'user_id', 'list_id'], {
    unique: true,
  });
  await createIndexOn(db, 'user_callback_list_list', 'user_callback_list', ['organization_id', 'list_id']);

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
  await createIndexOn(db, 'qualifier_org', 'qualifier', ['organization_id', 'id']);
  await createTenantTable(db, 'user_qualifier')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('qualifier_id', 'integer', (c) => c.notNull())
    .addColumn('ranking', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await createIndexOn(db, 'user_qualifier_user', 'user_qualifier', ['organization_id', 'user_id', 'qualifier_id'], {
    unique: true,
  });
  await createIndexOn(db, 'user_qualifier_qualifier', 'user_qualifier', ['organization_id', 'qualifier_id']);

  await createTenantTable(db, 'certification')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cert_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'certification_org', 'certification', ['organization_id', 'id']);
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
  await createIndexOn(db, 'user_certification_user', 'user_certification', ['organization_id', 'user_id']);

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
  await createIndexOn(db, 'company_profile_org', 'company_profile', ['organization_id'], { unique: true });

  await createTenantTable(db, 'partner_user')
    .addColumn('partner_user_id', 'integer', (c) => c.notNull())
    .addColumn('service_user_id', 'integer', (c) => c.notNull())
    .addColumn('partner_customer_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'partner_user_org_partner', 'partner_user', ['organization_id', 'partner_user_id'], {
    unique: true,
  });
  await createIndexOn(db, 'partner_user_org_service', 'partner_user', ['organization_id', 'service_user_id'], {
    unique: true,
  });
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

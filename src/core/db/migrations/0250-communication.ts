import type { Kysely } from 'kysely';
import { createTenantTable } from '../schema.js';

/** Announcements, the bulletin board and its editing lease, forms and submissions, ready alerts. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'announcement')
    .addColumn('title', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('announcement_org_id').on('announcement').columns(['organization_id', 'id']).execute();

  await createTenantTable(db, 'bulletin_board')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('last_updated_by', 'integer', (c) => c.notNull())
    .addColumn('last_updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bulletin_board_org')
    .on('bulletin_board')
    .columns(['organization_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'bulletin_board_lock')
    .addColumn('lock_id', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bulletin_board_lock_org')
    .on('bulletin_board_lock')
    .columns(['organization_id'])
    .unique()
    .execute();

  await createTenantTable(db, 'form')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('form_org').on('form').columns(['organization_id', 'id']).execute();

  await createTenantTable(db, 'form_submission')
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('answers', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('form_submission_org_form')
    .on('form_submission')
    .columns(['organization_id', 'form_id', 'id'])
    .execute();

  await createTenantTable(db, 'ready_alert')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target_ids', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'integer', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ready_alert_org').on('ready_alert').columns(['organization_id', 'id']).execute();

  await createTenantTable(db, 'ready_alert_delivery')
    .addColumn('alert_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ready_alert_delivery_org_alert')
    .on('ready_alert_delivery')
    .columns(['organization_id', 'alert_id'])
    .execute();
  await db.schema
    .createIndex('ready_alert_delivery_state')
    .on('ready_alert_delivery')
    .columns(['state', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'ready_alert_delivery',
    'ready_alert',
    'form_submission',
    'form',
    'bulletin_board_lock',
    'bulletin_board',
    'announcement',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

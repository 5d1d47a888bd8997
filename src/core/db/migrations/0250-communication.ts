import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull } from '../columns.js';

/** Announcements, the bulletin board and its editing lease, forms and submissions, ready alerts. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'announcement')
    .addColumn('title', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .$call(notNull('text', 'created_at', 'updated_at'))
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'announcement_org_id', 'announcement', ['organization_id', 'id']);

  await createTenantTable(db, 'bulletin_board')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('last_updated_by', 'integer', (c) => c.notNull())
    .addColumn('last_updated_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'bulletin_board_org', 'bulletin_board', ['organization_id']);

  await createTenantTable(db, 'bulletin_board_lock')
    .addColumn('lock_id', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.notNull())
    .$call(notNull('text', 'expires_at', 'created_at'))
    .execute();
  await createUniqueIndexOn(db, 'bulletin_board_lock_org', 'bulletin_board_lock', ['organization_id']);

  await createTenantTable(db, 'form')
    .$call(notNull('text', 'title', 'fields'))
    .addColumn('created_by', 'integer')
    .$call(notNull('text', 'created_by_name', 'created_at'))
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'form_org', 'form', ['organization_id', 'id']);

  await createTenantTable(db, 'form_submission')
    .$call(notNull('integer', 'form_id', 'user_id'))
    .$call(notNull('text', 'submitted_at', 'answers'))
    .execute();
  await createIndexOn(db, 'form_submission_org_form', 'form_submission', ['organization_id', 'form_id', 'id']);

  await createTenantTable(db, 'ready_alert')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target_ids', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .$call(notNull('integer', 'sender_id', 'email'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'ready_alert_org', 'ready_alert', ['organization_id', 'id']);

  await createTenantTable(db, 'ready_alert_delivery')
    .$call(notNull('integer', 'alert_id', 'user_id'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createIndexOn(db, 'ready_alert_delivery_org_alert', 'ready_alert_delivery', ['organization_id', 'alert_id']);
  await createIndexOn(db, 'ready_alert_delivery_state', 'ready_alert_delivery', ['state', 'id']);
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

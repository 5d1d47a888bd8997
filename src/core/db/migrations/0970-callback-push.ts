import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

/**
 * Callbacks that reach further (docs/workflows.md):
 * - `installation_secret`: values generated once per installation (the VAPID key pair of Web Push);
 * - `push_subscription`: a user's board installations that receive offers by Web Push;
 * - `callback_auto_accept`: a user's opt-in to auto-accepted offers and its limits;
 * - `callback_auto_start`: an organization's "start a callback when a vacancy appears within N
 *   days" with its default list per assignment (`callback_auto_start_list`), and the vacancies a
 *   callback was started for (`callback_auto_started`, unique: one callback per vacancy).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('installation_secret')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .$call(notNull('text', 'value', 'created_at'))
    .execute();

  await createTenantTable(db, 'push_subscription')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('endpoint', 'varchar(2000)', (c) => c.notNull())
    .$call(notNull('text', 'p256dh', 'auth', 'created_at'))
    .execute();
  await createUniqueIndexOn(db, 'push_subscription_endpoint', 'push_subscription', ['endpoint']);
  await createIndexOn(db, 'push_subscription_org_user', 'push_subscription', ['organization_id', 'user_id']);

  await createTenantTable(db, 'callback_auto_accept')
    .$call(notNull('integer', 'user_id', 'enabled'))
    .addColumn('max_hours', DOUBLE, (c) => c.notNull())
    .addColumn('period', 'varchar(10)', (c) => c.notNull())
    .$call(nullable('text', 'assignment_ids', 'weekdays'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'callback_auto_accept_org_user', 'callback_auto_accept', [
    'organization_id',
    'user_id',
  ]);

  await createTenantTable(db, 'callback_auto_start')
    .$call(notNull('integer', 'enabled', 'within_days', 'initiated_by'))
    .addColumn('lease_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'callback_auto_start_org', 'callback_auto_start', ['organization_id']);
  await createTenantTable(db, 'callback_auto_start_list')
    .$call(notNull('integer', 'assignment_id', 'list_id'))
    .execute();
  await createUniqueIndexOn(db, 'callback_auto_start_list_assignment', 'callback_auto_start_list', [
    'organization_id',
    'assignment_id',
  ]);
  await createTenantTable(db, 'callback_auto_started')
    .addColumn('assignment_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'varchar(10)', (c) => c.notNull())
    .addColumn('callback_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'callback_auto_started_vacancy', 'callback_auto_started', [
    'organization_id',
    'assignment_id',
    'date',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'callback_auto_started',
    'callback_auto_start_list',
    'callback_auto_start',
    'callback_auto_accept',
    'push_subscription',
    'installation_secret',
  ])
    await db.schema.dropTable(table).execute();
}

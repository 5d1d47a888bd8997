import type { Kysely } from 'kysely';
import { createTenantTable, DOUBLE, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { nullable } from '../columns.js';

/**
 * Callback channels (docs/workflows.md, "Channels"):
 * - each user's callback contact settings: the preferred channel and daily do-not-disturb hours;
 * - a time off type's callback exclusion window (no offers within N hours of such time off);
 * - a callback list's notice group (told besides the initiating admin) and when a callback's
 *   end-of-list notice went out;
 * - the address an offer went to where replies come from (an SMS number: inbound replies find
 *   their offer by it) and who revoked a link.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'user_callback_setting')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .$call(nullable('text', 'contact_method', 'do_not_disturb_start', 'do_not_disturb_end'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'user_callback_setting_org_user', 'user_callback_setting', [
    'organization_id',
    'user_id',
  ]);
  await db.schema
    .alterTable('time_off_type')
    .addColumn('callback_exclusion_hours', DOUBLE, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('callback_list').addColumn('notify_group_id', 'integer').execute();
  await db.schema.alterTable('callback').addColumn('list_ended_at', 'text').execute();
  await db.schema.alterTable('callback_offer').addColumn('reply_address', 'text').execute();
  await db.schema.alterTable('callback_offer').addColumn('revoked_by', 'integer').execute();
  await createIndexOn(db, 'callback_offer_reply_address', 'callback_offer', ['reply_address']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('callback_offer_reply_address').execute();
  for (const column of ['revoked_by', 'reply_address'])
    await db.schema.alterTable('callback_offer').dropColumn(column).execute();
  await db.schema.alterTable('callback').dropColumn('list_ended_at').execute();
  await db.schema.alterTable('callback_list').dropColumn('notify_group_id').execute();
  await db.schema.alterTable('time_off_type').dropColumn('callback_exclusion_hours').execute();
  await db.schema.dropTable('user_callback_setting').execute();
}

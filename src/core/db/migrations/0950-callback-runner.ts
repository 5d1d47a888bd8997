import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

/**
 * The callback runner (docs/workflows.md, "The callback runner"):
 * - a list's contact window in minutes (null: callbacks on the list are answered by hand only) and
 *   how many people it offers at once;
 * - a callback's lease (one runner at a time) and when the runner closed it (admin told);
 * - a callback user's offer window end, the reason they were skipped, and when they were confirmed;
 * - the offers: the keyed hash of each accept/decline link's token, its expiry, use and revocation.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('callback_list').addColumn('contact_window_minutes', 'integer').execute();
  await db.schema
    .alterTable('callback_list')
    .addColumn('contact_at_once', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('callback').addColumn('lease_until', 'text').execute();
  await db.schema.alterTable('callback').addColumn('runner_closed_at', 'text').execute();
  await db.schema.alterTable('callback_user').addColumn('offer_expires_at', 'text').execute();
  await db.schema.alterTable('callback_user').addColumn('skip_reason', 'text').execute();
  await db.schema.alterTable('callback_user').addColumn('confirmed_at', 'text').execute();

  await createTenantTable(db, 'callback_offer')
    .$call(notNull('integer', 'callback_id', 'callback_user_id', 'user_id'))
    .$call(notNull('text', 'token_hash', 'expires_at'))
    .$call(nullable('text', 'used_at', 'revoked_at'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'callback_offer_token_hash', 'callback_offer', ['token_hash']);
  await createIndexOn(db, 'callback_offer_org_callback', 'callback_offer', ['organization_id', 'callback_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('callback_offer').execute();
  for (const column of ['confirmed_at', 'skip_reason', 'offer_expires_at'])
    await db.schema.alterTable('callback_user').dropColumn(column).execute();
  for (const column of ['runner_closed_at', 'lease_until'])
    await db.schema.alterTable('callback').dropColumn(column).execute();
  for (const column of ['contact_at_once', 'contact_window_minutes'])
    await db.schema.alterTable('callback_list').dropColumn(column).execute();
}

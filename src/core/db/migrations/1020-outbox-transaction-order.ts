import { sql, type Kysely } from 'kysely';
import { isPostgres, createIndexOn } from '../schema.js';

/**
 * Webhook workers read the outbox in an order no later commit can overtake (docs/webhooks.md).
 * Each event carries `tx_id`, its transaction's id on PostgreSQL (0 on SQLite, where transactions
 * commit one at a time, in id order); an endpoint's cursor is the pair (`cursor_tx_id`,
 * `cursor_event_id`). Events that exist already keep 0 and so come before every new one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('outbox_event')
    .addColumn('tx_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (isPostgres(db))
    await sql`alter table outbox_event alter column tx_id set default (pg_current_xact_id()::text::bigint)`.execute(db);
  await createIndexOn(db, 'outbox_event_org_tx', 'outbox_event', ['organization_id', 'tx_id', 'id']);
  await db.schema
    .alterTable('webhook_endpoint')
    .addColumn('cursor_tx_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_event_org_tx').execute();
  await db.schema.alterTable('outbox_event').dropColumn('tx_id').execute();
  await db.schema.alterTable('webhook_endpoint').dropColumn('cursor_tx_id').execute();
}

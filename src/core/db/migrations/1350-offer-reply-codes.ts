import type { Kysely } from 'kysely';
import { createIndexOn } from '../schema.js';

/**
 * An SMS reply answers only the offer it was sent for (issue 41, F1; docs/workflows.md, "SMS"):
 * each texted offer carries a short code (`reply_code`) that the reply must repeat; the code is
 * unique among the open offers to one number. `sms_inbound_message` keeps the id of every inbound
 * message handled (the provider's message id, or a hash of the signed request), so that a signed
 * request replayed is refused (F8).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('callback_offer').addColumn('reply_code', 'varchar(8)').execute();
  await db.schema
    .createTable('sms_inbound_message')
    .addColumn('message_key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'sms_inbound_message_received', 'sms_inbound_message', ['received_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_inbound_message').execute();
  await db.schema.alterTable('callback_offer').dropColumn('reply_code').execute();
}

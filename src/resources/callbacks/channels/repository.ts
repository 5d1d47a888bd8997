import type { Db } from '../../../core/db/transaction.js';

/**
 * Records an inbound message's key (the provider's message id, or a hash of the signed request);
 * false when it was recorded before: a replay. One winner under parallel requests (primary key).
 * Keys older than `forgetBefore` are dropped.
 */
export async function recordInboundMessage(db: Db, key: string, now: string, forgetBefore: string): Promise<boolean> {
  await db.deleteFrom('sms_inbound_message').where('received_at', '<', forgetBefore).execute();
  const result = await db
    .insertInto('sms_inbound_message')
    .values({ message_key: key, received_at: now })
    .onConflict((oc) => oc.column('message_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

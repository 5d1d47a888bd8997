import type { Insertable } from 'kysely';
import { deleteOrgRows, orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { PushSubscriptionRow, PushSubscriptionTable } from './table.js';

export function listPushSubscriptions(db: Db, orgId: number, userId: number): Promise<PushSubscriptionRow[]> {
  return orgRows(db, 'push_subscription', orgId).where('user_id', '=', userId).orderBy('id').execute();
}

export async function findPushSubscriptionOrThrow(
  db: Db,
  orgId: number,
  userId: number,
  id: number,
): Promise<PushSubscriptionRow> {
  return orgRows(db, 'push_subscription', orgId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('PushSubscription'));
}

/**
 * Stores the subscription for the user; the same endpoint subscribed again by the same user of
 * the same organization replaces its keys (one statement: one row under parallel requests).
 * Another organization's or another user's subscription of the endpoint is left alone.
 */
export async function upsertPushSubscription(db: Db, values: Insertable<PushSubscriptionTable>): Promise<number> {
  const row = await db
    .insertInto('push_subscription')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'user_id', 'endpoint'])
        .doUpdateSet({ p256dh: values.p256dh, auth: values.auth, created_at: values.created_at }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deletePushSubscription(db: Db, orgId: number, id: number): Promise<void> {
  await db.deleteFrom('push_subscription').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

/** Removes a subscription the push service reports gone (404/410). */
export async function deletePushEndpoint(db: Db, orgId: number, endpoint: string): Promise<number> {
  const result = await deleteOrgRows(db, 'push_subscription', orgId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findInstallationSecret(db: Db, name: string): Promise<string | undefined> {
  return db
    .selectFrom('installation_secret')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst()
    .then((row) => row?.value);
}

/** Stores the value unless another process stored one first; answers the stored value. */
export async function storeInstallationSecret(db: Db, name: string, value: string, now: string): Promise<string> {
  await db
    .insertInto('installation_secret')
    .values({ name, value, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await findInstallationSecret(db, name)) ?? value;
}

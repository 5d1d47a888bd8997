import type { Kysely } from 'kysely';
import { createIndexOn, createUniqueIndexOn } from '../schema.js';

/**
 * A Web Push subscription belongs to one user of one organization (issue 41, F9): the endpoint is
 * unique per organization and user, not across the installation, so that subscribing an endpoint
 * replaces only that user's own row and never another organization's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('push_subscription_endpoint').execute();
  await createUniqueIndexOn(db, 'push_subscription_org_user_endpoint', 'push_subscription', [
    'organization_id',
    'user_id',
    'endpoint',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('push_subscription_org_user_endpoint').execute();
  await createIndexOn(db, 'push_subscription_endpoint', 'push_subscription', ['endpoint']);
}

import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import type { WebhookTargets } from '../webhooks/targets.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import { deletePushSubscription, findPushSubscriptionOrThrow, upsertPushSubscription } from './repository.js';
import type { SubscribeBody } from './schemas.js';

const base64urlBytes = (value: string) =>
  /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url') : null;

/**
 * Checks a subscription before it is stored: an https endpoint on an address the server may reach
 * (the webhooks' rule, docs/security.md), a 65-byte P-256 key and a 16-byte auth secret. Runs
 * before the transaction (it may wait for DNS).
 */
export async function checkSubscription(body: SubscribeBody, targets: WebhookTargets): Promise<string> {
  // one 422 naming every failing field
  const [endpoint] = await checkAll([
    async () => {
      let url: URL;
      try {
        url = new URL(body.endpoint);
      } catch {
        throw invalidParams('The endpoint is not a valid URL.');
      }
      if (url.protocol !== 'https:') throw invalidParams('The endpoint must be an https URL.');
      if (url.username || url.password) throw invalidParams('The endpoint must not carry credentials.');
      const refusal = await targets.refuseAtRegistration(url);
      if (refusal) throw invalidParams(`The endpoint may only point to a public address: ${refusal}.`);
      return url.toString();
    },
    () => {
      if (base64urlBytes(body.keys.p256dh)?.length !== 65)
        throw invalidParams('The keys p256dh must be a P-256 public key (65 bytes, base64url).');
    },
    () => {
      if (base64urlBytes(body.keys.auth)?.length !== 16)
        throw invalidParams('The keys auth must be a 16-byte secret (base64url).');
    },
  ] as const);
  return endpoint;
}

export async function subscribe(
  trx: Db,
  auth: AuthContext,
  user: UserRow,
  body: SubscribeBody,
  endpoint: string,
): Promise<number> {
  const id = await upsertPushSubscription(trx, {
    organization_id: auth.orgId,
    user_id: user.id,
    endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    created_at: nowUtc(),
  });
  await logAction(trx, auth, 'push_subscription.created', id, {
    description: `subscribed a device of ${fullName(user)} to callback offers by Web Push.`,
    actorUserId: user.id,
    after: { user_id: user.id, host: new URL(endpoint).host },
  });
  return id;
}

export async function unsubscribe(trx: Db, auth: AuthContext, user: UserRow, id: number): Promise<void> {
  await findPushSubscriptionOrThrow(trx, auth.orgId, user.id, id);
  await deletePushSubscription(trx, auth.orgId, id);
  await logAction(trx, auth, 'push_subscription.deleted', id, {
    description: `removed a Web Push subscription of ${fullName(user)}.`,
    actorUserId: user.id,
  });
}

import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { nowUtc } from '../../core/time.js';
import { findEndpointOrThrow, insertEndpoint, latestEvent, updateEndpoint } from './repository.js';
import type { CreateWebhookBody } from './schemas.js';
import { newWebhookSecret, storedWebhookSecret } from './signature.js';
import type { WebhookTargets } from './targets.js';

/** The normalized URL, or a 422; run before the transaction, since it may wait for DNS. */
export async function checkWebhookUrl(raw: string, targets: WebhookTargets): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParams('The url is not a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalidParams('The url must be an http or https URL.');
  if (url.username || url.password) throw invalidParams('The url must not carry credentials; use the secret.');
  const refusal = await targets.refuseAtRegistration(url);
  if (refusal) throw invalidParams(`The url may only point to a public address: ${refusal}.`);
  return url.toString();
}

/**
 * Registers an endpoint at `url` (checked by {@link checkWebhookUrl}); it receives the events
 * created after this call. Returns id and secret.
 */
export async function createWebhook(
  trx: Db,
  auth: AuthContext,
  body: CreateWebhookBody,
  url: string,
  serverKey: Buffer,
): Promise<{ id: number; secret: string }> {
  const secret = body.secret ?? newWebhookSecret();
  const eventTypes = [...new Set(body.event_types ?? ['*'])];
  const id = await insertEndpoint(trx, {
    organization_id: auth.orgId,
    url,
    ...storedWebhookSecret(serverKey, secret),
    event_types: JSON.stringify(eventTypes),
    description: body.description ?? null,
    cursor_event_id: 0,
    failed_attempts: 0,
    next_attempt_at: null,
    lease_until: null,
    created_at: nowUtc(),
    deleted_at: null,
  });
  await logAction(trx, auth, 'webhook.created', id, {
    description: `registered webhook ${url}.`,
    after: { url, event_types: eventTypes },
  });
  const latest = await latestEvent(trx, auth.orgId);
  await updateEndpoint(trx, auth.orgId, id, { cursor_tx_id: latest.txId, cursor_event_id: latest.id });
  return { id, secret };
}

export async function deleteWebhook(trx: Db, auth: AuthContext, id: number): Promise<void> {
  const endpoint = await findEndpointOrThrow(trx, auth.orgId, id);
  await updateEndpoint(trx, auth.orgId, id, { deleted_at: nowUtc() });
  await logAction(trx, auth, 'webhook.deleted', id, {
    description: `removed webhook ${endpoint.url}.`,
    before: { url: endpoint.url, event_types: JSON.parse(endpoint.event_types) as string[] },
  });
}

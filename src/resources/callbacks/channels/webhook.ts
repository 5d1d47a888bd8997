import type { Db } from '../../../core/db/transaction.js';
import { matchesEventType } from '../../webhooks/signature.js';
import { activeEndpointEventTypes } from '../../webhooks/repository.js';
import type { Channel, Recipient } from './channel.js';

/** The event type of an offer; the webhook channel is the outbox event the runner writes with it. */
export const OFFER_EVENT = 'callback.offered';

/**
 * The organization's webhooks: the `callback.offered` event is written to the outbox with the
 * offer (the webhook worker delivers it), so a department can page people its own way.
 */
export class WebhookChannel implements Channel {
  readonly method = 'Webhook';
  readonly personal = false;

  async unavailable(db: Db, orgId: number, _recipient: Recipient): Promise<string | null> {
    const endpoints = await activeEndpointEventTypes(db, orgId);
    const subscribed = endpoints.some((e) => matchesEventType(JSON.parse(e.event_types) as string[], OFFER_EVENT));
    return subscribed ? null : `webhook is off: no endpoint subscribed to ${OFFER_EVENT}`;
  }

  async send(): Promise<undefined> {
    // delivered from the outbox by the webhook worker
  }
}

import { Agent, type AgentOptions } from 'node:https';
import webpush from 'web-push';
import type { PushSettings } from '../../../config.js';
import type { Db } from '../../../core/db/transaction.js';
import { Temporal } from '../../../core/time.js';
import { deletePushEndpoint, listPushSubscriptions } from '../../push-subscriptions/repository.js';
import { PUSH_OFF, vapidDetails } from '../../push-subscriptions/vapid.js';
import type { WebhookTargets } from '../../webhooks/targets.js';
import type { Channel, Message, Recipient } from './channel.js';

/** What the board's service worker receives (web/public/sw.js shows it with Accept / Decline). */
export interface PushPayload {
  title: string;
  body: string;
  /** the offer link the notification and its actions open */
  url: string | null;
  /** one notification per link: a repeated push replaces it */
  tag: string;
}

const TIMEOUT_MS = 10_000;

/**
 * Web Push to the user's subscribed board installations (`contact_method` "Mobile App"), signed
 * with the installation's VAPID keys; the payload is encrypted for each subscription (aes128gcm,
 * by `web-push`). Endpoints obey the webhooks' address rule. A subscription the push service
 * reports gone (404, 410) is removed. Off without VAPID_SUBJECT.
 */
export class PushChannel implements Channel {
  readonly method = 'Mobile App';
  readonly personal = true;

  constructor(
    private readonly db: Db,
    private readonly settings: PushSettings,
    private readonly targets: WebhookTargets,
    /** TLS options of the connections to push services (tests pass their certificate authority). */
    private readonly agentOptions: AgentOptions = {},
  ) {}

  async unavailable(db: Db, orgId: number, recipient: Recipient): Promise<string | null> {
    if (!this.settings.subject) return `push is off: ${PUSH_OFF}`;
    const subscriptions = await listPushSubscriptions(db, orgId, recipient.id);
    return subscriptions.length ? null : 'push: the user has no device subscribed';
  }

  async send(recipient: Recipient, message: Message): Promise<undefined> {
    const vapid = await vapidDetails(this.db, this.settings);
    if (!vapid) throw new Error(PUSH_OFF);
    const subscriptions = await listPushSubscriptions(this.db, recipient.organization_id, recipient.id);
    const payload: PushPayload = {
      title: message.subject,
      body: message.short ?? message.text,
      url: message.link ?? null,
      tag: message.link ? `offer:${message.link.slice(-12)}` : message.subject,
    };
    const ttl = message.expiresAt
      ? Math.max(60, Math.round(Temporal.Instant.from(message.expiresAt).epochMilliseconds / 1000 - Date.now() / 1000))
      : 3600;
    const failures: string[] = [];
    let delivered = 0;
    for (const subscription of subscriptions) {
      const url = new URL(subscription.endpoint);
      const refused = this.targets.refuseLiteral(url);
      if (refused) {
        failures.push(`${url.host}: ${refused}`);
        continue;
      }
      try {
        await webpush.sendNotification(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: vapid,
            TTL: ttl,
            urgency: 'high',
            timeout: TIMEOUT_MS,
            agent: new Agent({ ...this.agentOptions, lookup: this.targets.lookupFor(url.hostname) }),
          },
        );
        delivered += 1;
      } catch (error) {
        const status = error instanceof webpush.WebPushError ? error.statusCode : undefined;
        if (status === 404 || status === 410) {
          await deletePushEndpoint(this.db, recipient.organization_id, subscription.endpoint);
          failures.push(`${url.host}: the subscription is gone (${status}) and was removed`);
        } else {
          failures.push(`${url.host}: ${status ? `the push service answered ${status}` : (error as Error).message}`);
        }
      }
    }
    if (delivered === 0) throw new Error(failures.join('; ') || 'the user has no device subscribed');
  }
}

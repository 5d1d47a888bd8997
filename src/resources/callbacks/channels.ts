import type { Transporter } from 'nodemailer';
import type { Db } from '../../core/db/transaction.js';
import { firstEmail, SMTP_OFF, smtpTransport, type SmtpSettings } from '../../core/mail.js';
import { matchesEventType } from '../webhooks/signature.js';
import { webhookEndpointsOf } from './repository.js';

/** The person a message goes to. */
export interface Recipient {
  id: number;
  first_name: string;
  last_name: string;
  emails: string;
}

export interface Message {
  subject: string;
  text: string;
}

/**
 * One way of reaching a person. `unavailable` says why the channel cannot reach them (off for want
 * of configuration, or no address), null when it can; `send` delivers after the contact committed.
 */
export interface Channel {
  /** The callback user's `contact_method` when this channel carried the offer. */
  readonly method: string;
  unavailable(db: Db, orgId: number, recipient: Recipient): Promise<string | null>;
  send(recipient: Recipient, message: Message): Promise<void>;
  close?(): void;
}

/** The event type of an offer; the webhook channel is the outbox event the runner writes with it. */
export const OFFER_EVENT = 'callback.offered';

/** E-mail through the SMTP settings (SMTP_HOST …), to the person's first address. */
export class EmailChannel implements Channel {
  readonly method = 'Email';
  private transporter: Transporter | undefined;

  constructor(private readonly settings: SmtpSettings) {
    this.transporter = smtpTransport(settings);
  }

  async unavailable(_db: Db, _orgId: number, recipient: Recipient): Promise<string | null> {
    if (!this.transporter) return `e-mail is off: ${SMTP_OFF}`;
    return firstEmail(recipient.emails) ? null : 'e-mail: the user has no e-mail address';
  }

  async send(recipient: Recipient, message: Message): Promise<void> {
    if (!this.transporter) throw new Error(SMTP_OFF);
    await this.transporter.sendMail({ from: this.settings.from, to: firstEmail(recipient.emails), subject: message.subject, text: message.text });
  }

  close(): void {
    this.transporter?.close();
  }
}

/**
 * The organization's webhooks: the `callback.offered` event is written to the outbox with the
 * offer (the webhook worker delivers it), so a department can page people its own way.
 */
export class WebhookChannel implements Channel {
  readonly method = 'Webhook';

  async unavailable(db: Db, orgId: number): Promise<string | null> {
    const endpoints = await webhookEndpointsOf(db, orgId);
    const subscribed = endpoints.some((e) => matchesEventType(JSON.parse(e.event_types) as string[], OFFER_EVENT));
    return subscribed ? null : `webhook is off: no endpoint subscribed to ${OFFER_EVENT}`;
  }

  async send(): Promise<void> {
    // delivered from the outbox by the webhook worker
  }
}

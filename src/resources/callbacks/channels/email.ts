import type { Transporter } from 'nodemailer';
import type { Db } from '../../../core/db/transaction.js';
import { firstEmail, SMTP_OFF, smtpTransport, type SmtpSettings } from '../../../core/mail.js';
import type { Channel, Message, Recipient } from './channel.js';

/** E-mail through the SMTP settings (SMTP_HOST …), to the person's first address; the shift's .ics attached. */
export class EmailChannel implements Channel {
  readonly method = 'Email';
  readonly personal = true;
  private transporter: Transporter | undefined;

  constructor(private readonly settings: SmtpSettings) {
    this.transporter = smtpTransport(settings);
  }

  async unavailable(_db: Db, _orgId: number, recipient: Recipient): Promise<string | null> {
    if (!this.transporter) return `e-mail is off: ${SMTP_OFF}`;
    return firstEmail(recipient.emails) ? null : 'e-mail: the user has no e-mail address';
  }

  async send(recipient: Recipient, message: Message): Promise<string | undefined> {
    if (!this.transporter) throw new Error(SMTP_OFF);
    const info = await this.transporter.sendMail({
      from: this.settings.from,
      to: firstEmail(recipient.emails),
      subject: message.subject,
      text: message.text,
      ...(message.calendar
        ? { icalEvent: { method: 'PUBLISH', filename: message.calendar.filename, content: message.calendar.content } }
        : {}),
    });
    return typeof info.messageId === 'string' ? info.messageId : undefined;
  }

  close(): void {
    this.transporter?.close();
  }
}

import type { AgentOptions } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { findCallbackSettings } from '../callback-settings/repository.js';
import { type Channel, isHeld, type Message } from '../callbacks/channels/channel.js';
import { fallbackOrder } from '../callbacks/channels/choice.js';
import { EmailChannel } from '../callbacks/channels/email.js';
import { PushChannel } from '../callbacks/channels/push.js';
import { SmsChannel } from '../callbacks/channels/sms.js';
import { nowUtc } from '../../core/time.js';
import { WebhookTargets } from '../webhooks/targets.js';
import { insertForcedHireContact } from './repository.js';
import type { ForcedHire } from './rules.js';

/**
 * Tells the person forced, after the forced hire committed, on the callbacks' personal channels
 * (docs/workflows.md, "Channels"): their preferred contact method, else the first of the fallback
 * order that can reach them. Not sent: logged (`forced_hire.message_not_sent`) with the reasons. Each channel
 * tried is a contact of the forced hire (`forced_hire_contact`), as a callback offer's are of its record.
 */
export class ForcedHireNotifier {
  constructor(
    private readonly db: Db,
    private readonly channels: Channel[],
    private readonly log: FastifyBaseLogger,
  ) {}

  close(): void {
    for (const channel of this.channels) channel.close?.();
  }

  /** Never throws: the forced hire has committed, a failure to tell is logged. */
  async tell(auth: AuthContext, hire: ForcedHire): Promise<void> {
    try {
      await this.send(auth, hire);
    } catch (error) {
      this.log.error({ err: error, forcedHireId: hire.row.id }, 'forced hire notice failed');
    }
  }

  private async send(auth: AuthContext, hire: ForcedHire): Promise<void> {
    const { forced, row } = hire;
    if (!forced) return;
    const settings = await findCallbackSettings(this.db, auth.orgId, forced.id);
    const [start, end] = [row.start.slice(0, 16), row.end.slice(0, 16)];
    const message: Message = {
      subject: `Forced hire: you work ${hire.assignmentName} ${start} to ${end}`,
      text: [
        `${auth.orgName} forced you onto ${hire.assignmentName} from ${start} to ${end} (forced hire #${row.id}` +
          `${row.shift_id ? `, shift #${row.shift_id}` : ''}).`,
        `Why: ${row.reason}`,
        row.notes ? `Notes: ${row.notes}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
      short: `${auth.orgName}: forced hire on ${hire.assignmentName}, ${start} to ${end}.`,
    };
    const off: string[] = [];
    const contact = (channel: Channel, result: string, extra: { receipt?: string | null; detail?: string } = {}) =>
      insertForcedHireContact(this.db, {
        organization_id: auth.orgId,
        forced_hire_id: row.id,
        user_id: forced.id,
        channel: channel.method,
        at: nowUtc(),
        result,
        receipt: extra.receipt || null,
        detail: extra.detail ?? null,
      });
    const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);
    for (const channel of fallbackOrder(this.channels, settings.contact_method)) {
      const unavailable = await channel.unavailable(this.db, auth.orgId, forced);
      if (unavailable) {
        off.push(unavailable);
        await contact(channel, 'unavailable', { detail: unavailable });
        continue;
      }
      let sent: Awaited<ReturnType<Channel['send']>>;
      try {
        sent = await channel.send(forced, message);
      } catch (error) {
        this.log.warn({ err: error, forcedHireId: row.id }, 'forced hire notice not sent');
        off.push(`${channel.method} failed: ${reasonOf(error)}`);
        await contact(channel, 'failed', { detail: reasonOf(error) });
        continue;
      }
      if (!isHeld(sent)) return contact(channel, 'sent', { receipt: sent });
      // held by the text pacing: sent (or failed) when it goes out
      await contact(channel, 'held', { detail: `held by text pacing until ${sent.until}` });
      sent.receipt
        .then(
          (receipt) => contact(channel, 'sent', { receipt }),
          (error: unknown) => contact(channel, 'failed', { detail: reasonOf(error) }),
        )
        .catch((error: unknown) => this.log.warn({ err: error, forcedHireId: row.id }, 'held notice not recorded'));
      return;
    }
    await withTransaction(this.db, (trx) =>
      logAction(trx, auth, 'forced_hire.message_not_sent', row.id, {
        description: `could not tell user #${forced.id} of forced hire #${row.id}: ${off.join('; ') || 'no channel'}.`,
        after: { user_id: forced.id, reasons: off },
      }),
    );
  }
}

/** The server's notifier: e-mail (SMTP settings), Web Push (VAPID settings) and SMS (SMS settings). */
export function createForcedHireNotifier(
  app: { db: Db; config: Readonly<Config>; log: FastifyBaseLogger },
  pushAgent?: AgentOptions,
): ForcedHireNotifier {
  const channels = [
    new EmailChannel(app.config.smtp),
    new PushChannel(app.db, app.config.push, new WebhookTargets(app.config), pushAgent),
    new SmsChannel(app.config.sms),
  ];
  return new ForcedHireNotifier(app.db, channels, app.log);
}

import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { SMTP_OFF, smtpTransport, type SmtpSettings } from '../../core/mail.js';
import { nowUtc } from '../../core/time.js';
import { pendingEmails, setDeliveryState } from './repository.js';

const BATCH = 100;

/** Sends the pending e-mail deliveries after their transaction committed, never inside a request. */
export class AlertMailer {
  private transporter: Transporter | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly settings: SmtpSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts sending in the background; `filter` limits it to one alert. */
  dispatch(filter?: { orgId: number; alertId: number }): void {
    const job = this.sendPending(filter)
      .catch((error: unknown) => this.log.error({ err: error }, 'ready alert e-mail failed'))
      .finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
  }

  async close(): Promise<void> {
    await Promise.all([...this.inFlight]);
    this.transporter?.close();
  }

  private transport(): Transporter | undefined {
    this.transporter ??= smtpTransport(this.settings);
    return this.transporter;
  }

  private async sendPending(filter?: { orgId: number; alertId: number }): Promise<void> {
    for (;;) {
      const pending = await pendingEmails(this.db, filter, BATCH);
      for (const delivery of pending) {
        const outcome = await this.sendOne(delivery);
        await setDeliveryState(this.db, delivery.organization_id, delivery.id, { ...outcome, updated_at: nowUtc() });
      }
      if (pending.length < BATCH) return;
    }
  }

  private async sendOne(delivery: { address: string | null; body: string; organization_name: string }) {
    const transporter = this.transport();
    if (!transporter) return { state: 'failed' as const, error: SMTP_OFF };
    try {
      await transporter.sendMail({
        from: this.settings.from,
        to: delivery.address!,
        subject: `Ready alert: ${delivery.organization_name}`,
        text: delivery.body,
      });
      return { state: 'sent' as const, error: null };
    } catch (error) {
      return {
        state: 'failed' as const,
        error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      };
    }
  }
}

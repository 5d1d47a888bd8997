import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { nowUtc } from '../../core/time.js';
import { pendingEmails, setDeliveryState } from './repository.js';

/**
 * SMTP settings, read from the environment when the plugin loads (config.ts is shared; the
 * variables are listed in docs/communication.md). Without SMTP_HOST no e-mail is sent and e-mail
 * deliveries are marked failed.
 */
export interface SmtpSettings {
  host: string | undefined;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

export function loadSmtpSettings(env: Record<string, string | undefined> = process.env): SmtpSettings {
  const secure = /^(1|true|yes)$/i.test(env.SMTP_SECURE ?? '');
  const port = Number(env.SMTP_PORT || (secure ? 465 : 587));
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) throw new Error(`SMTP_PORT must be a port number, got "${env.SMTP_PORT}"`);
  return {
    host: env.SMTP_HOST || undefined,
    port,
    secure,
    user: env.SMTP_USER || undefined,
    password: env.SMTP_PASSWORD || undefined,
    from: env.SMTP_FROM || 'crewplan <no-reply@crewplan.invalid>',
  };
}

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
    if (!this.settings.host) return undefined;
    this.transporter ??= nodemailer.createTransport({
      host: this.settings.host,
      port: this.settings.port,
      secure: this.settings.secure,
      auth: this.settings.user ? { user: this.settings.user, pass: this.settings.password ?? '' } : undefined,
    });
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
    if (!transporter) return { state: 'failed' as const, error: 'No SMTP server is configured (SMTP_HOST).' };
    try {
      await transporter.sendMail({
        from: this.settings.from,
        to: delivery.address!,
        subject: `Ready alert: ${delivery.organization_name}`,
        text: delivery.body,
      });
      return { state: 'sent' as const, error: null };
    } catch (error) {
      return { state: 'failed' as const, error: (error instanceof Error ? error.message : String(error)).slice(0, 500) };
    }
  }
}

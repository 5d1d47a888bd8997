import type { AgentOptions } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../core/db/transaction.js';
import type { Channel } from '../callbacks/channels/channel.js';
import { EmailChannel } from '../callbacks/channels/email.js';
import { PushChannel } from '../callbacks/channels/push.js';
import { WebhookTargets } from '../webhooks/targets.js';
import { sendExpiryNotices } from './expiry.js';

/** How often the notifier looks for certifications reaching a notice threshold. */
const POLL_MS = 60 * 60 * 1000;

/**
 * Tells holders and admins of certifications about to expire (docs/contract-rules.md,
 * "Certification expiry"), by e-mail and push: a pass when the server is ready, then every hour.
 * Each notice is recorded before it is sent, so it goes out once across passes and processes.
 */
export class ExpiryNotifier {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly channels: Channel[];

  constructor(
    private readonly db: Db,
    config: Readonly<Config>,
    private readonly log: FastifyBaseLogger,
    pushAgent?: AgentOptions,
  ) {
    this.channels = [
      new EmailChannel(config.smtp),
      new PushChannel(db, config.push, new WebhookTargets(config), pushAgent),
    ];
  }

  /** One pass; `today` overrides the organizations' dates (tests). Answers how many notices went out. */
  runOnce(today?: (timeZone: string) => string): Promise<number> {
    return sendExpiryNotices(this.db, this.channels, this.log, today);
  }

  start(): void {
    const pass = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.log.error({ err: error }, 'certification expiry notices failed'))
        .finally(() => {
          this.running = undefined;
        });
    };
    pass();
    this.timer = setInterval(pass, POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    for (const channel of this.channels) channel.close?.();
  }
}

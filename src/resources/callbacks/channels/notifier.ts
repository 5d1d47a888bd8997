import type { AgentOptions } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import type { Db } from '../../../core/db/transaction.js';
import { WebhookTargets } from '../../webhooks/targets.js';
import type { Channel } from './channel.js';
import { EmailChannel } from './email.js';
import { PushChannel } from './push.js';

/** One pass of a notifier: tells whoever is due on the channels; answers how many notices went out. */
export type NoticePass<Arg> = (db: Db, channels: Channel[], log: FastifyBaseLogger, arg?: Arg) => Promise<number>;

/**
 * A background notifier on e-mail and push (certification expiry, bid turns): a pass when the
 * server is ready, then every `pollMs`. Each pass records a notice before it sends it, so a notice
 * goes out once across passes and processes.
 */
export class ChannelNotifier<Arg> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly channels: Channel[];

  constructor(
    private readonly db: Db,
    config: Readonly<Config>,
    private readonly log: FastifyBaseLogger,
    private readonly pass: NoticePass<Arg>,
    private readonly options: { pollMs: number; name: string; pushAgent?: AgentOptions },
  ) {
    this.channels = [
      new EmailChannel(config.smtp),
      new PushChannel(db, config.push, new WebhookTargets(config), options.pushAgent),
    ];
  }

  /** One pass; `arg` overrides the clock (tests). */
  runOnce(arg?: Arg): Promise<number> {
    return this.pass(this.db, this.channels, this.log, arg);
  }

  /** Starts the passes; a `pollMs` of 0 runs none in this process (tests call runOnce). */
  start(): void {
    if (this.options.pollMs <= 0) return;
    const pass = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.log.error({ err: error }, `${this.options.name} failed`))
        .finally(() => {
          this.running = undefined;
        });
    };
    pass();
    this.timer = setInterval(pass, this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    for (const channel of this.channels) channel.close?.();
  }
}

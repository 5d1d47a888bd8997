import type { AgentOptions } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../core/db/transaction.js';
import { ChannelNotifier } from '../callbacks/channels/notifier.js';
import { sendExpiryNotices } from './expiry.js';

/** How often the notifier looks for certifications reaching a notice threshold. */
const POLL_MS = 60 * 60 * 1000;

/**
 * Tells holders and admins of certifications about to expire (docs/contract-rules.md,
 * "Certification expiry"), by e-mail and push: a pass when the server is ready, then every hour.
 * `runOnce(today)` overrides the organizations' dates (tests).
 */
export class ExpiryNotifier extends ChannelNotifier<(timeZone: string) => string> {
  constructor(db: Db, config: Readonly<Config>, log: FastifyBaseLogger, pushAgent?: AgentOptions) {
    super(db, config, log, sendExpiryNotices, { pollMs: POLL_MS, name: 'certification expiry notices', pushAgent });
  }
}

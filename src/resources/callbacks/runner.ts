import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../core/auth/context.js';
import { keyedHash, randomSecret } from '../../core/auth/secrets.js';
import { writeLog } from '../../core/audit.js';
import { claimLease, releaseLease } from '../../core/db/lease.js';
import { withTransaction, type Db } from '../../core/db/transaction.js';
import { nowUtc, Temporal, utcToLocal } from '../../core/time.js';
import { findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { ineligibilityOf } from './candidates.js';
import { EmailChannel, OFFER_EVENT, WebhookChannel, type Channel, type Message, type Recipient } from './channels.js';
import {
  callbacksForRunner,
  findCallbackList,
  findOrganization,
  insertOffer,
  listCallbackUsers,
  revokeOffers,
  markRunnerClosed,
  updateCallbackUser,
  type RunnerCallbackRow,
} from './repository.js';
import { callbackStatus, requiredOf, type CallbackStatus } from './rules.js';
import type { CallbackUserRow } from './table.js';

export interface RunnerOptions {
  db: Db;
  secretKey: Buffer;
  /** Base of the accept/decline links (PUBLIC_BASE_URL). */
  baseUrl: string;
  /** The ways offers go out; an offer goes out on every channel that can reach the person. */
  channels: Channel[];
  /** Channels for notices (the admin's report, the confirmation): e-mail. */
  notices: Channel | undefined;
  log: FastifyBaseLogger;
  /** The clock (UTC ISO instant); tests inject theirs. */
  now?: () => string;
  /** Poll interval of start(); 0: start() does nothing. */
  pollMs?: number;
  leaseMs?: number;
}

const BATCH = 20;
const plus = (utc: string, ms: number) => Temporal.Instant.from(utc).add({ milliseconds: ms }).toString({ fractionalSecondDigits: 3 });

/** The runner acts as the system, not as an API client of the organization. */
function runnerAuth(org: { id: number; name: string; timezone: string }): AuthContext {
  return { orgId: org.id, orgName: org.name, timezone: org.timezone, clientId: 'callback-runner', credentialId: 0 };
}

/**
 * Advances the callbacks of lists with a contact window (docs/workflows.md, "The callback runner"):
 * offers the pending candidates in `position` order, so many at once as the list says, each for the
 * list's window; marks `no answer` when a window passes; stops when the callback is filled, ends at
 * its deadline or is cancelled, then tells the initiating admin. Each callback is leased in the
 * database while a runner works on it (core/db/lease.ts), and every step is written before anyone
 * is contacted, so several processes never contact the same person twice and a restart resumes
 * from the database.
 */
export class CallbackRunner {
  private readonly now: () => string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(private readonly options: RunnerOptions) {
    this.now = options.now ?? nowUtc;
  }

  start(): void {
    if (!this.options.pollMs) return;
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    for (const channel of new Set([...this.options.channels, this.options.notices])) channel?.close?.();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.options.log.error({ err: error }, 'callback runner pass failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.options.pollMs);
    this.timer.unref();
  }

  /** One pass over the callbacks due at `now`; answers how many people were offered a callback. */
  async runOnce(now = this.now()): Promise<{ contacted: number }> {
    let contacted = 0;
    const due = await callbacksForRunner(this.options.db, now, BATCH);
    for (const callback of due) {
      if (!(await claimLease(this.options.db, 'callback', callback, now, plus(now, this.options.leaseMs ?? 120_000)))) continue;
      try {
        contacted += await this.advance(callback, now);
      } catch (error) {
        this.options.log.error({ err: error, callbackId: callback.id }, 'callback runner failed on a callback');
      } finally {
        await releaseLease(this.options.db, 'callback', callback);
      }
    }
    return { contacted };
  }

  private async advance(callback: RunnerCallbackRow, now: string): Promise<number> {
    const { db } = this.options;
    const auth = runnerAuth(await findOrganization(db, callback.organization_id));
    const users = await listCallbackUsers(db, auth.orgId, callback.id);
    await this.confirmAccepted(auth, callback, users, now);
    const status = callbackStatus(callback, now);
    if (status !== 'active') {
      await this.close(auth, callback, status, now);
      return 0;
    }
    const lapsed = users.filter((u) => u.status === 'pending' && u.offer_expires_at !== null && u.offer_expires_at <= now);
    for (const user of lapsed) await this.markNoAnswer(auth, callback, user, now);
    const waiting = users.filter((u) => u.status === 'pending' && u.offer_expires_at !== null && u.offer_expires_at > now).length;
    let slots = Math.min(callback.contact_at_once, callback.positions_to_fill - callback.accepted_count) - waiting;
    let contacted = 0;
    for (const user of users) {
      if (slots <= 0) break;
      if (user.status !== 'pending' || user.contact_time !== null || user.skip_reason !== null) continue;
      if (await this.skipIfIneligible(auth, callback, user, now)) continue;
      await this.offer(auth, callback, user, now);
      slots -= 1;
      contacted += 1;
    }
    return contacted;
  }

  /** Someone who took other work or time off since the callback started is passed over, with the reason. */
  private async skipIfIneligible(auth: AuthContext, callback: RunnerCallbackRow, user: CallbackUserRow, now: string): Promise<boolean> {
    const list = await findCallbackList(this.options.db, auth.orgId, callback.list_id);
    const span = { start: callback.start, end: callback.end };
    const reason = (await ineligibilityOf(this.options.db, auth.orgId, list, span, [user.user_id], auth.timezone, requiredOf(callback))).get(user.user_id);
    if (!reason) return false;
    await withTransaction(this.options.db, async (trx) => {
      await updateCallbackUser(trx, auth.orgId, user.id, { skip_reason: reason, updated_at: now });
      await writeLog(trx, auth, {
        action: 'callback.skipped',
        description: `passed over user #${user.user_id} on callback #${callback.id}: ${reason}.`,
        entityType: 'callback',
        entityId: callback.id,
        after: { user_id: user.user_id, position: user.position, reason },
      });
    });
    return true;
  }

  private async offer(auth: AuthContext, callback: RunnerCallbackRow, user: CallbackUserRow, now: string): Promise<void> {
    const { db, channels, secretKey, baseUrl } = this.options;
    const recipient = (await findUsersByIds(db, auth.orgId, [user.user_id])).get(user.user_id)!;
    const reach = await Promise.all(channels.map(async (channel) => ({ channel, off: await channel.unavailable(db, auth.orgId, recipient) })));
    const on = reach.filter((r) => r.off === null).map((r) => r.channel);
    const off = reach.filter((r) => r.off !== null).map((r) => r.off!);
    const token = randomSecret('cpo_');
    const expiresAt = plus(now, callback.contact_window_minutes! * 60_000);
    const link = `${baseUrl}/offers/${token}`;
    await withTransaction(db, async (trx) => {
      const offerId = await insertOffer(trx, {
        organization_id: auth.orgId,
        callback_id: callback.id,
        callback_user_id: user.id,
        user_id: user.user_id,
        token_hash: keyedHash(secretKey, token),
        expires_at: expiresAt,
        used_at: null,
        revoked_at: null,
        created_at: now,
      });
      await updateCallbackUser(trx, auth.orgId, user.id, {
        contact_time: utcToLocal(now, auth.timezone),
        contact_method: on.map((c) => c.method).join(', ') || null,
        offer_expires_at: expiresAt,
        uses_opportunity: 1,
        updated_at: now,
      });
      const channelsText = on.length ? `by ${on.map((c) => c.method).join(', ')}` : 'on no channel';
      await writeLog(trx, auth, {
        action: OFFER_EVENT,
        description: `offered callback #${callback.id} (${callback.start} to ${callback.end}) to ${fullName(recipient)} ${channelsText}, answer by ${utcToLocal(expiresAt, auth.timezone)}${off.length ? `; ${off.join('; ')}` : ''}.`,
        entityType: 'callback',
        entityId: callback.id,
        after: {
          offer_id: offerId,
          user_id: user.user_id,
          position: user.position,
          start: callback.start,
          end: callback.end,
          list: { id: callback.list_id, name: callback.list_name },
          expires_at: utcToLocal(expiresAt, auth.timezone),
          channels: on.map((c) => c.method),
          channels_off: off,
        },
      });
    });
    const message: Message = {
      subject: `Callback offer: ${callback.start} to ${callback.end}`,
      text: [
        `Hello ${recipient.first_name},`,
        '',
        `${auth.orgName} offers you a callback on ${callback.list_name}: ${callback.start} to ${callback.end}.`,
        callback.notes ? `Notes: ${callback.notes}` : '',
        `Accept or decline by ${utcToLocal(expiresAt, auth.timezone)}: ${link}`,
        '',
        'The link is yours alone and works once.',
      ]
        .filter((line, i, all) => line !== '' || all[i - 1] !== '')
        .join('\n'),
    };
    for (const channel of on) await this.deliver(auth, callback.id, channel, recipient, message, 'offer');
  }

  private async markNoAnswer(auth: AuthContext, callback: RunnerCallbackRow, user: CallbackUserRow, now: string): Promise<void> {
    await withTransaction(this.options.db, async (trx) => {
      await updateCallbackUser(trx, auth.orgId, user.id, { status: 'no answer', response_time: null, uses_opportunity: 1, updated_at: now });
      await revokeOffers(trx, auth.orgId, callback.id, now, user.id);
      await writeLog(trx, auth, {
        action: 'callback.no_answer',
        description: `recorded no answer from user #${user.user_id} on callback #${callback.id}: the contact window passed.`,
        entityType: 'callback',
        entityId: callback.id,
        after: { user_id: user.user_id, position: user.position, status: 'no answer' },
      });
    });
  }

  /** The accepted people get a confirmation with the shift's details, once. */
  private async confirmAccepted(auth: AuthContext, callback: RunnerCallbackRow, users: CallbackUserRow[], now: string): Promise<void> {
    const toConfirm = users.filter((u) => u.status === 'accepted' && u.confirmed_at === null);
    if (toConfirm.length === 0) return;
    const people = await findUsersByIds(this.options.db, auth.orgId, toConfirm.map((u) => u.user_id));
    for (const user of toConfirm) {
      await updateCallbackUser(this.options.db, auth.orgId, user.id, { confirmed_at: now });
      const start = user.start_time ?? callback.start;
      const end = user.end_time ?? callback.end;
      await this.notify(auth, callback.id, people.get(user.user_id)!, {
        subject: `Confirmed: callback ${start} to ${end}`,
        text: [
          `You accepted callback #${callback.id} on ${callback.list_name} for ${auth.orgName}.`,
          `You work ${start} to ${end}${user.shift_id ? ` (shift #${user.shift_id})` : ''}.`,
          callback.notes ? `Notes: ${callback.notes}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      });
    }
  }

  /** The callback is over: open links are revoked and the initiating admin is told how it ended. */
  private async close(auth: AuthContext, callback: RunnerCallbackRow, status: CallbackStatus, now: string): Promise<void> {
    await withTransaction(this.options.db, async (trx) => {
      await revokeOffers(trx, auth.orgId, callback.id, now);
      await markRunnerClosed(trx, auth.orgId, callback.id, now);
    });
    if (status === 'cancelled') return;
    const admin = (await findUsersByIds(this.options.db, auth.orgId, [callback.initiated_by])).get(callback.initiated_by);
    if (!admin) return;
    await this.notify(auth, callback.id, admin, {
      subject: `Callback #${callback.id} ${status}: ${callback.accepted_count} of ${callback.positions_to_fill}`,
      text: `Callback #${callback.id} on ${callback.list_name} (${callback.start} to ${callback.end}) is ${status}: ${callback.accepted_count} of ${callback.positions_to_fill} position(s) accepted.`,
    });
  }

  private async notify(auth: AuthContext, callbackId: number, recipient: Recipient, message: Message): Promise<void> {
    const { notices, db } = this.options;
    const off = notices ? await notices.unavailable(db, auth.orgId, recipient) : 'no notice channel';
    if (off || !notices) return this.logNotSent(auth, callbackId, recipient, message.subject, off ?? 'no notice channel');
    await this.deliver(auth, callbackId, notices, recipient, message, 'notice');
  }

  private async deliver(auth: AuthContext, callbackId: number, channel: Channel, recipient: Recipient, message: Message, what: string): Promise<void> {
    try {
      await channel.send(recipient, message);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      this.options.log.warn({ err: error, callbackId }, `callback ${what} not sent`);
      await this.logNotSent(auth, callbackId, recipient, message.subject, `${channel.method} failed: ${reason}`);
    }
  }

  private async logNotSent(auth: AuthContext, callbackId: number, recipient: Recipient, subject: string, reason: string): Promise<void> {
    await withTransaction(this.options.db, (trx) =>
      writeLog(trx, auth, {
        action: 'callback.message_not_sent',
        description: `could not send "${subject}" to ${fullName(recipient)}: ${reason}.`,
        entityType: 'callback',
        entityId: callbackId,
        after: { user_id: recipient.id, subject, reason },
      }),
    );
  }
}

/** The server's runner: e-mail (SMTP settings) and webhook channels, polling every CALLBACK_RUNNER_POLL_MS. */
export function createCallbackRunner(app: { db: Db; config: Readonly<Config>; log: FastifyBaseLogger }, options: Partial<RunnerOptions> = {}): CallbackRunner {
  const email = new EmailChannel(app.config.smtp);
  return new CallbackRunner({
    db: app.db,
    secretKey: app.config.secretKey,
    baseUrl: app.config.publicBaseUrl ?? `http://localhost:${app.config.port}`,
    channels: [email, new WebhookChannel()],
    notices: email,
    log: app.log,
    pollMs: app.config.callbackRunnerPollMs,
    ...options,
  });
}

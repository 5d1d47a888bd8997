import type { AgentOptions } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../../config.js';
import type { AuthContext } from '../../../core/auth/context.js';
import { keyedHash, randomSecret } from '../../../core/auth/secrets.js';
import { writeLog, logAction } from '../../../core/audit.js';
import { subscribeToChanges, type ChangeSubscription } from '../../../core/db/change-listener.js';
import type { DatabaseHandle } from '../../../core/db/index.js';
import { claimLease, releaseLease } from '../../../core/db/lease.js';
import { withTransaction, type Db } from '../../../core/db/transaction.js';
import { localToUtc, nowUtc, Temporal, utcToLocal } from '../../../core/time.js';
import { ApiError, invalidParams } from '../../../core/errors.js';
import { findAssignmentsByIds } from '../../assignments/repository.js';
import { groupMemberIds } from '../../groups/repository.js';
import { findCallbackList } from '../../lists/repository.js';
import { findOrganizationOrThrow } from '../../organizations/repository.js';
import { findCallbackSettings, type CallbackSettings } from '../../callback-settings/repository.js';
import { findAutoAccept } from '../../user-auto-accept/repository.js';
import { autoAcceptRefusal } from '../../user-auto-accept/rules.js';
import { findUsersByIds } from '../../users/repository.js';
import { fullName } from '../../users/serialize.js';
import { WebhookTargets } from '../../webhooks/targets.js';
import { callbackEvent } from './calendar.js';
import { AutoStarter } from './auto-start.js';
import { ineligibilityReasons } from '../ordering/candidates.js';
import type { Reason } from '../../../scheduling/index.js';
import { PassRecord, recordContact } from '../decisions/records.js';
import { type Channel, type Held, isHeld, type Message, type Recipient } from '../channels/channel.js';
import { EmailChannel } from '../channels/email.js';
import { PushChannel } from '../channels/push.js';
import { newReplyCode, SmsChannel } from '../channels/sms.js';
import { URGENT_WITHIN_MS } from '../channels/text-pacing.js';
import { OFFER_EVENT, WebhookChannel } from '../channels/webhook.js';
import { fallbackOrder, inDoNotDisturb } from '../channels/choice.js';
import { insertOffer, listCallbackUsers, replyCodeInUse, revokeOffers, updateCallbackUser } from '../repository.js';
import {
  callbacksForRunner,
  findRunnerCallback,
  markListEnded,
  markRunnerClosed,
  type RunnerCallbackRow,
} from './repository.js';
import { callbackStatus, recordResponse, requiredOf, type CallbackStatus } from '../rules.js';
import type { CallbackUserRow } from '../table.js';

export interface RunnerOptions {
  db: Db;
  secretKey: Buffer;
  /** Base of the accept/decline links (PUBLIC_BASE_URL). */
  baseUrl: string;
  /**
   * The ways offers go out: of the personal channels the person's preferred one, else the first of
   * the fallback order that can reach them (`pickChannel`); every non-personal channel that is on.
   */
  channels: Channel[];
  /** Channels for notices (the admin's report, the confirmation): e-mail. */
  notices: Channel | undefined;
  log: FastifyBaseLogger;
  /** The clock (UTC ISO instant); tests inject theirs. */
  now?: () => string;
  /** Poll interval of start(); 0: start() does nothing. */
  pollMs?: number;
  leaseMs?: number;
  /**
   * PostgreSQL: the database's change announcements (core/db/change-listener.ts) wake the runner,
   * so that a callback another process started is offered without waiting for the next poll.
   */
  handle?: DatabaseHandle;
}

const BATCH = 20;
/** Beyond the open slots, how many of the next people a pass checks for eligibility in one batch. */
const ELIGIBILITY_AHEAD = 10;
/** Offers of one pass that are being sent at the same time, at most. */
export const SEND_CONCURRENCY = 25;
/** Announcements from other processes that come close together wake the runner once. */
const NOTICE_WAKE_MS = 200;
const plus = (utc: string, ms: number) =>
  Temporal.Instant.from(utc).add({ milliseconds: ms }).toString({ fractionalSecondDigits: 3 });

/**
 * The deliveries of one pass: each starts when added, at most `limit` at a time (the rest wait their
 * turn); `done` resolves once all have ended. A delivery logs its own failure and never rejects.
 */
class Sending {
  private readonly waiting: Array<() => Promise<void>> = [];
  private readonly all: Promise<void>[] = [];
  private active = 0;

  constructor(private readonly limit: number) {}

  add(task: () => Promise<void>): void {
    this.all.push(
      new Promise<void>((resolve) => {
        this.waiting.push(() => task().finally(resolve));
        this.next();
      }),
    );
  }

  async done(): Promise<void> {
    await Promise.all(this.all);
  }

  private next(): void {
    while (this.active < this.limit && this.waiting.length > 0) {
      const task = this.waiting.shift()!;
      this.active += 1;
      void task()
        .catch(() => undefined)
        .finally(() => {
          this.active -= 1;
          this.next();
        });
    }
  }
}

/** An offer is urgent (texted at once, never coalesced) when its callback starts within URGENT_WITHIN_MS of now. */
const isUrgent = (start: string, timezone: string, now: string) =>
  Date.parse(localToUtc(start, timezone)) - Date.parse(now) < URGENT_WITHIN_MS;

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
  /** A wake-up came during a pass: the next pass follows at once. */
  private wokenWhileRunning = false;
  private noticeWake: NodeJS.Timeout | undefined;
  private subscription: ChangeSubscription | undefined;

  private readonly autoStarter: AutoStarter;

  constructor(private readonly options: RunnerOptions) {
    this.now = options.now ?? nowUtc;
    this.autoStarter = new AutoStarter(options.db, options.log, runnerAuth);
  }

  start(): void {
    if (!this.options.pollMs) return;
    this.stopped = false;
    const { handle } = this.options;
    if (handle?.dialect === 'postgres')
      this.subscription = subscribeToChanges(handle, {
        onNotice: (notice) => {
          if (notice.kind === 'organization') this.wakeSoon();
        },
        onListening: (listening) => {
          if (listening) this.wakeSoon();
        },
      });
    this.schedule(this.options.pollMs!);
  }

  /**
   * Something the runner acts on changed (a callback started, an offer answered): a pass runs now
   * instead of at the next poll; during a pass, right after it. Does nothing unless started.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wokenWhileRunning = true;
      return;
    }
    this.schedule(0);
  }

  /** A wake-up for another process's change: a burst of them wakes the runner once. */
  private wakeSoon(): void {
    if (this.noticeWake || this.stopped) return;
    this.noticeWake = setTimeout(() => {
      this.noticeWake = undefined;
      this.wake();
    }, NOTICE_WAKE_MS);
    this.noticeWake.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    clearTimeout(this.noticeWake);
    await this.subscription?.close();
    this.subscription = undefined;
    await this.running;
    for (const channel of new Set([...this.options.channels, this.options.notices])) channel?.close?.();
    await Promise.all(this.held);
  }

  /** The held messages' contacts still to record when they go out (or are dropped). */
  private readonly held = new Set<Promise<void>>();

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.runOnce()
        .catch((error: unknown) => this.options.log.error({ err: error }, 'callback runner pass failed'))
        .finally(() => {
          this.running = undefined;
          const again = this.wokenWhileRunning;
          this.wokenWhileRunning = false;
          this.schedule(again ? 0 : this.options.pollMs!);
        });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * One pass at `now`: starts the callbacks of new vacancies (auto-start), then advances the
   * callbacks due; answers how many people were offered a callback.
   */
  async runOnce(now = this.now()): Promise<{ contacted: number }> {
    let contacted = 0;
    await this.autoStarter.runOnce(now, plus(now, this.options.leaseMs ?? 120_000));
    const due = await callbacksForRunner(this.options.db, now, BATCH);
    for (const listed of due) {
      const until = plus(now, this.options.leaseMs ?? 120_000);
      // the callback as claimed: another process may have advanced or closed it since `due` was read
      const claimed = await claimLease(this.options.db, 'callback', listed, now, until, (eb) =>
        eb('runner_closed_at', 'is', null),
      );
      if (!claimed) continue;
      const callback = { ...listed, ...claimed };
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

  private async advance(selected: RunnerCallbackRow, now: string): Promise<number> {
    const { db } = this.options;
    const auth = runnerAuth(await findOrganizationOrThrow(db, selected.organization_id));
    const users = await listCallbackUsers(db, auth.orgId, selected.id);
    // Read again under the lease, after its users: the row selected before the lease may predate
    // another runner's pass (closed and reported already) or an answer the users already show.
    const callback = await findRunnerCallback(db, auth.orgId, selected.id);
    if (!callback) return 0;
    await this.confirmAccepted(auth, callback, users, now);
    const status = callbackStatus(callback, now);
    if (status !== 'active') {
      await this.close(auth, callback, status, now);
      return 0;
    }
    const offeredBefore = users.filter((u) => u.contact_time !== null);
    const record = new PassRecord(auth, callback, now, offeredBefore);
    const lapsed = users.filter(
      (u) => u.status === 'pending' && u.offer_expires_at !== null && u.offer_expires_at <= now,
    );
    for (const user of lapsed) await this.markNoAnswer(auth, callback, user, now, record);
    const waiting = users.filter(
      (u) => u.status === 'pending' && u.offer_expires_at !== null && u.offer_expires_at > now,
    ).length;
    let slots = Math.min(callback.contact_at_once, callback.positions_to_fill - callback.accepted_count) - waiting;
    let contacted = 0;
    let autoAccepted = 0;
    let remaining = 0;
    const sending = new Sending(SEND_CONCURRENCY);
    const ahead = users
      .filter((u) => u.status === 'pending' && u.contact_time === null && u.skip_reason === null)
      .slice(0, Math.max(slots, 0) + ELIGIBILITY_AHEAD);
    const reasons = {
      checked: new Set(ahead.map((u) => u.user_id)),
      of: await this.ineligibility(auth, callback, ahead),
    };
    for (const user of users) {
      if (user.status !== 'pending' || user.contact_time !== null || user.skip_reason !== null) continue;
      if (slots <= 0) {
        remaining += 1;
        continue;
      }
      if (await this.skipIfIneligible(auth, callback, user, now, record, reasons)) continue;
      if (await this.autoAccept(auth, callback, user)) {
        slots -= 1;
        autoAccepted += 1;
        continue;
      }
      const settings = await findCallbackSettings(this.options.db, auth.orgId, user.user_id);
      if (inDoNotDisturb(settings, utcToLocal(now, auth.timezone).slice(11, 16))) {
        await this.holdForDoNotDisturb(auth, callback, user, settings, now, record);
        remaining += 1;
        continue;
      }
      await this.offer(auth, callback, user, settings, now, record, sending);
      slots -= 1;
      contacted += 1;
    }
    await sending.done();
    if (remaining === 0 && waiting === 0 && contacted === 0 && autoAccepted === 0 && callback.list_ended_at === null)
      await this.endOfList(auth, callback, now);
    return contacted;
  }

  /**
   * Someone in their do-not-disturb hours is not contacted now: the runner moves on to the next
   * person and offers them on a later pass once their hours end, if positions are still open. The
   * callback user's `do_not_disturb` becomes 1; logged once.
   */
  private async holdForDoNotDisturb(
    auth: AuthContext,
    callback: RunnerCallbackRow,
    user: CallbackUserRow,
    settings: CallbackSettings,
    now: string,
    record: PassRecord,
  ): Promise<void> {
    if (user.do_not_disturb) return;
    await withTransaction(this.options.db, async (trx) => {
      await updateCallbackUser(trx, auth.orgId, user.id, { do_not_disturb: 1, updated_at: now });
      await record.add(trx, [
        {
          user_id: user.user_id,
          verdict: 'do_not_disturb',
          position: user.position,
          reason_code: 'do_not_disturb',
          reason: `do not disturb ${settings.do_not_disturb_start} to ${settings.do_not_disturb_end}`,
        },
      ]);
      await logAction(trx, auth, 'callback.do_not_disturb', callback.id, {
        description:
          `did not contact user #${user.user_id} on callback #${callback.id} during their do-not-disturb hours ` +
          `(${settings.do_not_disturb_start} to ${settings.do_not_disturb_end}); moved on to the next person.`,
        after: {
          user_id: user.user_id,
          position: user.position,
          do_not_disturb_start: settings.do_not_disturb_start,
          do_not_disturb_end: settings.do_not_disturb_end,
        },
      });
    });
  }

  /**
   * Nobody is left to offer and no offer is open while positions are: the admin and the list's
   * group are told, once.
   */
  private async endOfList(auth: AuthContext, callback: RunnerCallbackRow, now: string): Promise<void> {
    if (callback.accepted_count >= callback.positions_to_fill) return;
    if (!(await markListEnded(this.options.db, auth.orgId, callback.id, now))) return;
    await withTransaction(this.options.db, (trx) =>
      logAction(trx, auth, 'callback.list_ended', callback.id, {
        description:
          `callback #${callback.id} reached the end of its list with ${callback.accepted_count} of ` +
          `${callback.positions_to_fill} position(s) accepted.`,
      }),
    );
    await this.tell(auth, callback, {
      subject:
        `Callback #${callback.id} reached the end of its list: ` +
        `${callback.accepted_count} of ${callback.positions_to_fill}`,
      text:
        `Callback #${callback.id} on ${callback.list_name} (${callback.start} to ${callback.end}) has offered ` +
        `everyone it can: ${callback.accepted_count} of ${callback.positions_to_fill} position(s) accepted. ` +
        'It stays open until its deadline.',
    });
  }

  /** Someone who took other work or time off since the callback started is passed over, with the reason. */
  private async skipIfIneligible(
    auth: AuthContext,
    callback: RunnerCallbackRow,
    user: CallbackUserRow,
    now: string,
    record: PassRecord,
    known: { checked: Set<number>; of: Map<number, Reason | null> },
  ): Promise<boolean> {
    const found = known.checked.has(user.user_id)
      ? known.of.get(user.user_id)
      : (await this.ineligibility(auth, callback, [user])).get(user.user_id);
    if (!found) return false;
    const reason = found.text;
    await withTransaction(this.options.db, async (trx) => {
      await updateCallbackUser(trx, auth.orgId, user.id, { skip_reason: reason, updated_at: now });
      await record.add(trx, [
        { user_id: user.user_id, verdict: 'skipped', position: user.position, reason_code: found.kind, reason },
      ]);
      await logAction(trx, auth, 'callback.skipped', callback.id, {
        description: `passed over user #${user.user_id} on callback #${callback.id}: ${reason}.`,
        after: { user_id: user.user_id, position: user.position, reason },
      });
    });
    return true;
  }

  /** Why each of `users` may not take the callback now (`ineligibilityReasons`, one batch); absent: eligible. */
  private async ineligibility(
    auth: AuthContext,
    callback: RunnerCallbackRow,
    users: CallbackUserRow[],
  ): Promise<Map<number, Reason | null>> {
    if (users.length === 0) return new Map();
    const list = await findCallbackList(this.options.db, auth.orgId, callback.list_id);
    const span = { start: callback.start, end: callback.end, assignmentId: callback.assignment_id };
    const ids = users.map((u) => u.user_id);
    return ineligibilityReasons(this.options.db, auth.orgId, list, span, ids, auth.timezone, requiredOf(callback));
  }

  /**
   * A user who opted in to auto-accepted offers gets the callback at once when it is within their
   * limits (recorded with `auto_accepted`); otherwise the reason is logged and they are offered it.
   */
  private async autoAccept(auth: AuthContext, callback: RunnerCallbackRow, user: CallbackUserRow): Promise<boolean> {
    const { db } = this.options;
    if ((await findAutoAccept(db, auth.orgId, user.user_id))?.enabled !== 1) return false;
    let refusal: string | null = null;
    try {
      await withTransaction(db, (trx) =>
        recordResponse(
          trx,
          auth,
          callback.id,
          { user_id: user.user_id, status: 'accepted', auto_accepted: true },
          async (locked) => {
            refusal = await autoAcceptRefusal(trx, auth.orgId, user.user_id, locked, auth.timezone);
            if (refusal) throw invalidParams(refusal);
          },
        ),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const reason = refusal ?? error.message;
      await withTransaction(db, (trx) =>
        logAction(trx, auth, 'callback.auto_accept_skipped', callback.id, {
          description:
            `did not auto-accept callback #${callback.id} for user #${user.user_id}: ${reason}; ` +
            'offering it instead.',
          after: { user_id: user.user_id, position: user.position, reason },
        }),
      );
      return false;
    }
  }

  private async offer(
    auth: AuthContext,
    callback: RunnerCallbackRow,
    user: CallbackUserRow,
    settings: CallbackSettings,
    now: string,
    record: PassRecord,
    sending: Sending,
  ): Promise<void> {
    const { db, channels, secretKey, baseUrl } = this.options;
    const recipient = (await findUsersByIds(db, auth.orgId, [user.user_id])).get(user.user_id)!;
    const ordered = [...fallbackOrder(channels, settings.contact_method), ...channels.filter((c) => !c.personal)];
    const reach = await Promise.all(
      ordered.map(async (channel) => ({ channel, off: await channel.unavailable(db, auth.orgId, recipient) })),
    );
    const personal = reach.find((r) => r.channel.personal && r.off === null)?.channel;
    const on = reach
      .filter((r) => r.off === null && (!r.channel.personal || r.channel === personal))
      .map((r) => r.channel);
    const off = reach.filter((r) => r.off !== null).map((r) => r.off!);
    const token = randomSecret('cpo_');
    const expiresAt = plus(now, callback.contact_window_minutes! * 60_000);
    const link = `${baseUrl}/offers/${token}`;
    const replyAddress = personal?.replyAddress?.(recipient) ?? null;
    const replyCode = replyAddress ? await this.freeReplyCode(replyAddress, now) : null;
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
        reply_address: replyAddress,
        reply_code: replyCode,
        revoked_by: null,
      });
      await updateCallbackUser(trx, auth.orgId, user.id, {
        contact_time: utcToLocal(now, auth.timezone),
        contact_method: (personal ?? on[0])?.method ?? null,
        offer_expires_at: expiresAt,
        uses_opportunity: 1,
        updated_at: now,
      });
      const channelsText = on.length ? `by ${on.map((c) => c.method).join(', ')}` : 'on no channel';
      await record.add(trx, [
        { user_id: user.user_id, verdict: 'offered', position: user.position, reason: `offered ${channelsText}` },
      ]);
      for (const r of reach.filter((r) => r.off !== null)) {
        const contact = { callback_id: callback.id, user_id: user.user_id, purpose: 'offer' as const, at: now };
        await recordContact(trx, auth, {
          ...contact,
          channel: r.channel.method,
          result: 'unavailable',
          detail: r.off,
        });
      }
      await writeLog(trx, auth, {
        action: OFFER_EVENT,
        description:
          `offered callback #${callback.id} (${callback.start} to ${callback.end}) to ${fullName(recipient)} ` +
          `${channelsText}, answer by ` +
          `${utcToLocal(expiresAt, auth.timezone)}${off.length ? `; ${off.join('; ')}` : ''}.`,
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
    const answerBy = utcToLocal(expiresAt, auth.timezone);
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
      short: `${auth.orgName}: ${callback.list_name}: ${callback.start} to ${callback.end}. Answer by ${answerBy}.`,
      link,
      replyCode: replyCode ?? undefined,
      expiresAt,
      urgent: isUrgent(callback.start, auth.timezone, now),
    };
    // sent while the pass goes on to the next person: the offer is committed, the lease held until all are sent
    const fallbacks = reach.filter((r) => r.channel.personal && r.off === null && r.channel !== personal);
    sending.add(async () => {
      for (const channel of on) {
        if (channel !== personal) await this.deliver(auth, callback.id, channel, recipient, message, 'offer');
        else
          await this.deliverPersonal(
            auth,
            callback.id,
            user,
            recipient,
            [channel, ...fallbacks.map((r) => r.channel)],
            message,
          );
      }
    });
  }

  /**
   * A reply code no other open offer to the address has (in any organization), so that a reply
   * carrying it answers one offer only.
   */
  private async freeReplyCode(address: string, now: string): Promise<string> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const code = newReplyCode();
      if (!(await replyCodeInUse(this.options.db, address, code, now))) return code;
    }
    throw new Error(`no free reply code for ${address}: too many open offers`);
  }

  private async markNoAnswer(
    auth: AuthContext,
    callback: RunnerCallbackRow,
    user: CallbackUserRow,
    now: string,
    record: PassRecord,
  ): Promise<void> {
    await withTransaction(this.options.db, async (trx) => {
      const line = { user_id: user.user_id, position: user.position, reason: 'the contact window passed' };
      await record.add(trx, [{ ...line, verdict: 'no_answer', reason_code: 'no_answer' }]);
      await updateCallbackUser(trx, auth.orgId, user.id, {
        status: 'no answer',
        response_time: null,
        uses_opportunity: 1,
        updated_at: now,
      });
      await revokeOffers(trx, auth.orgId, callback.id, now, user.id);
      await logAction(trx, auth, 'callback.no_answer', callback.id, {
        description:
          `recorded no answer from user #${user.user_id} on callback #${callback.id}: ` + 'the contact window passed.',
        after: { user_id: user.user_id, position: user.position, status: 'no answer' },
      });
    });
  }

  /** The accepted people get a confirmation with the shift's details, once. */
  private async confirmAccepted(
    auth: AuthContext,
    callback: RunnerCallbackRow,
    users: CallbackUserRow[],
    now: string,
  ): Promise<void> {
    const toConfirm = users.filter((u) => u.status === 'accepted' && u.confirmed_at === null);
    if (toConfirm.length === 0) return;
    const people = await findUsersByIds(
      this.options.db,
      auth.orgId,
      toConfirm.map((u) => u.user_id),
    );
    for (const user of toConfirm) {
      await updateCallbackUser(this.options.db, auth.orgId, user.id, { confirmed_at: now });
      const start = user.start_time ?? callback.start;
      const end = user.end_time ?? callback.end;
      const assignment = callback.assignment_id
        ? (await findAssignmentsByIds(this.options.db, auth.orgId, [callback.assignment_id])).get(
            callback.assignment_id,
          )
        : undefined;
      await this.notify(auth, callback.id, people.get(user.user_id)!, {
        calendar: callbackEvent({
          callbackId: callback.id,
          userId: user.user_id,
          start,
          end,
          timezone: auth.timezone,
          summary: `Callback: ${assignment?.name ?? callback.list_name}`,
          description:
            `Callback #${callback.id} on ${callback.list_name} for ${auth.orgName}.` +
            (callback.notes ? `\n${callback.notes}` : ''),
        }),
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
  private async close(
    auth: AuthContext,
    callback: RunnerCallbackRow,
    status: CallbackStatus,
    now: string,
  ): Promise<void> {
    await withTransaction(this.options.db, async (trx) => {
      await revokeOffers(trx, auth.orgId, callback.id, now);
      await markRunnerClosed(trx, auth.orgId, callback.id, now);
    });
    if (status === 'cancelled') return;
    await this.tell(auth, callback, {
      subject: `Callback #${callback.id} ${status}: ${callback.accepted_count} of ${callback.positions_to_fill}`,
      text:
        `Callback #${callback.id} on ${callback.list_name} (${callback.start} to ${callback.end}) is ` +
        `${status}: ${callback.accepted_count} of ${callback.positions_to_fill} position(s) accepted.`,
    });
  }

  /** A notice to the initiating admin and the members of the list's notice group (`notify_group_id`). */
  private async tell(auth: AuthContext, callback: RunnerCallbackRow, message: Message): Promise<void> {
    const { db } = this.options;
    const group = callback.notify_group_id ? await groupMemberIds(db, auth.orgId, callback.notify_group_id) : [];
    const ids = [...new Set([callback.initiated_by, ...group])];
    const people = await findUsersByIds(db, auth.orgId, ids);
    for (const id of ids) {
      const person = people.get(id);
      if (person && person.deleted_at === null) await this.notify(auth, callback.id, person, message);
    }
  }

  private async notify(auth: AuthContext, callbackId: number, recipient: Recipient, message: Message): Promise<void> {
    const { notices, db } = this.options;
    const off = notices ? await notices.unavailable(db, auth.orgId, recipient) : 'no notice channel';
    if (off || !notices)
      return this.logNotSent(auth, callbackId, recipient, message.subject, off ?? 'no notice channel');
    await this.deliver(auth, callbackId, notices, recipient, message, 'notice');
  }

  /**
   * An offer on the person's channel; when that channel fails, on the next one of their contact order that can
   * reach them, and so on. Each attempt is a contact of the decision record (sent with the provider's receipt, or
   * failed with the reason); each fallback is logged (`callback.channel_fallback`) and the callback user's
   * `contact_method` becomes the channel that carried it; when every channel failed, the offer is logged as not sent.
   */
  private async deliverPersonal(
    auth: AuthContext,
    callbackId: number,
    user: CallbackUserRow,
    recipient: Recipient,
    order: Channel[],
    message: Message,
  ): Promise<void> {
    const { db, log } = this.options;
    const failures: string[] = [];
    for (const channel of order) {
      const contact = {
        callback_id: callbackId,
        user_id: recipient.id,
        purpose: 'offer' as const,
        channel: channel.method,
      };
      try {
        await this.recordSent(auth, contact, await channel.send(recipient, message), recipient, message.subject);
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
        log.warn({ err: error, callbackId }, `callback offer not sent by ${channel.method}`);
        await recordContact(db, auth, { ...contact, at: nowUtc(), result: 'failed', detail: reason });
        failures.push(`${channel.method} failed: ${reason}`);
        continue;
      }
      if (failures.length === 0) return;
      await withTransaction(db, async (trx) => {
        await updateCallbackUser(trx, auth.orgId, user.id, { contact_method: channel.method, updated_at: this.now() });
        await logAction(trx, auth, 'callback.channel_fallback', callbackId, {
          description:
            `sent the offer of callback #${callbackId} to ${fullName(recipient)} by ${channel.method} instead: ` +
            `${failures.join('; ')}.`,
          after: { user_id: user.user_id, channel: channel.method, failed: failures },
        });
      });
      return;
    }
    await this.logNotSent(auth, callbackId, recipient, message.subject, failures.join('; '));
  }

  private async deliver(
    auth: AuthContext,
    callbackId: number,
    channel: Channel,
    recipient: Recipient,
    message: Message,
    what: 'offer' | 'notice',
  ): Promise<void> {
    const contact = { callback_id: callbackId, user_id: recipient.id, purpose: what, channel: channel.method };
    try {
      await this.recordSent(auth, contact, await channel.send(recipient, message), recipient, message.subject);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      this.options.log.warn({ err: error, callbackId }, `callback ${what} not sent`);
      await recordContact(this.options.db, auth, { ...contact, at: nowUtc(), result: 'failed', detail: reason });
      await this.logNotSent(auth, callbackId, recipient, message.subject, `${channel.method} failed: ${reason}`);
    }
  }

  /**
   * The contact of a message a channel took: `sent` with the provider's receipt; or, held back (SMS text
   * pacing), `held` now and `sent` with the receipt (or `failed`, logged as not sent) when it goes out.
   */
  private async recordSent(
    auth: AuthContext,
    contact: { callback_id: number; user_id: number; purpose: 'offer' | 'notice'; channel: string },
    sent: string | undefined | Held,
    recipient: Recipient,
    subject: string,
  ): Promise<void> {
    const { db, log } = this.options;
    if (!isHeld(sent))
      return recordContact(db, auth, { ...contact, at: nowUtc(), result: 'sent', receipt: sent || null });
    const detail = `held by text pacing until ${sent.until}`;
    await recordContact(db, auth, { ...contact, at: nowUtc(), result: 'held', detail });
    const outcome = sent.receipt
      .then(
        (receipt) => recordContact(db, auth, { ...contact, at: nowUtc(), result: 'sent', receipt: receipt || null }),
        async (error: unknown) => {
          const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
          await recordContact(db, auth, { ...contact, at: nowUtc(), result: 'failed', detail: reason });
          await this.logNotSent(auth, contact.callback_id, recipient, subject, `${contact.channel} failed: ${reason}`);
        },
      )
      .catch((error: unknown) => log.warn({ err: error, callbackId: contact.callback_id }, 'held text not recorded'))
      .finally(() => this.held.delete(outcome));
    this.held.add(outcome);
  }

  private async logNotSent(
    auth: AuthContext,
    callbackId: number,
    recipient: Recipient,
    subject: string,
    reason: string,
  ): Promise<void> {
    await withTransaction(this.options.db, (trx) =>
      logAction(trx, auth, 'callback.message_not_sent', callbackId, {
        description: `could not send "${subject}" to ${fullName(recipient)}: ${reason}.`,
        after: { user_id: recipient.id, subject, reason },
      }),
    );
  }
}

/**
 * The server's runner: e-mail (SMTP settings), Web Push (VAPID settings), SMS (SMS settings) and
 * webhook channels, polling every CALLBACK_RUNNER_POLL_MS. `pushAgent`: TLS options towards push
 * services (tests).
 */
export function createCallbackRunner(
  app: { db: Db; config: Readonly<Config>; log: FastifyBaseLogger; dbHandle?: DatabaseHandle },
  { pushAgent, ...options }: Partial<RunnerOptions> & { pushAgent?: AgentOptions } = {},
): CallbackRunner {
  const email = new EmailChannel(app.config.smtp);
  const push = new PushChannel(app.db, app.config.push, new WebhookTargets(app.config), pushAgent);
  return new CallbackRunner({
    db: app.db,
    secretKey: app.config.secretKey,
    baseUrl: app.config.publicBaseUrl ?? `http://localhost:${app.config.port}`,
    channels: [
      email,
      push,
      new SmsChannel(app.config.sms, (_to, error) => app.log.warn({ err: error }, 'coalesced text not sent')),
      new WebhookChannel(),
    ],
    notices: email,
    log: app.log,
    pollMs: app.config.callbackRunnerPollMs,
    handle: app.dbHandle,
    ...options,
  });
}

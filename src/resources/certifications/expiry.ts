import type { FastifyBaseLogger } from 'fastify';
import { isAdminRole } from '../../core/auth/sessions.js';
import { orgColumns, orgRows, sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { updateOrganizationSettings } from '../../core/org-settings.js';
import { addDays, epochDayOfText, formatDate, nowUtc, todayIn } from '../../core/time.js';
import { expiryCosts, type ExpiryCost } from '../../scheduling/index.js';
import type { Channel, Message } from '../callbacks/channels/channel.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { ChangeExpiryNoticesBody, ExpiryNoticesResponse } from './schemas.js';
import './table.js';

/*
 * Certification expiry (docs/contract-rules.md, "Certification expiry"): who loses which
 * certification when, what staffing that costs, and the notices sent before.
 */

/** Days before the expiry a notice goes out unless the organization sets its own; each once per certification. */
export const NOTICE_DAYS: readonly number[] = [60, 30, 7];
/** How far after the expiry the staffing cost looks: the person's work in these days. */
export const COST_HORIZON_DAYS = 28;

export interface ExpiringCertification {
  user_certification_id: number;
  user_id: number;
  certification: { id: number; name: string; cert_id: string };
  /** the last day it is valid */
  expires_on: string;
  /** the first day without it */
  lost_on: string;
  days_left: number;
  /** the qualifier it grants (its cert_id is the qualifier's shortcode), or null */
  qualifier: { id: number; shortcode: string } | null;
  staffing_cost: ExpiryCost[];
}

/**
 * The certifications of live users expiring from `today` to `days` days after, soonest first, each
 * with what its lapse costs in staffing (the engine's staffing computation, scheduling/vacancies.ts).
 */
export async function expiringCertifications(
  db: Db,
  orgId: number,
  timeZone: string,
  days: number,
  today = formatDate(todayIn(timeZone)),
): Promise<ExpiringCertification[]> {
  const rows = await db
    .selectFrom('user_certification as uc')
    .innerJoin('certification as c', sameOrg('c.id', 'uc.certification_id'))
    .innerJoin('user_account as u', sameOrg('u.id', 'uc.user_id'))
    .leftJoin('qualifier as q', (join) =>
      join
        .onRef('q.organization_id', '=', 'uc.organization_id')
        .on((e) => e(e.fn('lower', ['q.shortcode']), '=', e.fn('lower', ['c.cert_id'])))
        .on('q.deleted_at', 'is', null),
    )
    .select([
      'uc.id',
      'uc.user_id',
      'uc.expires_on',
      'c.id as certification_id',
      'c.name',
      'c.cert_id',
      'q.id as qualifier_id',
      'q.shortcode',
    ])
    .where('uc.organization_id', '=', orgId)
    .where('c.deleted_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .where('uc.expires_on', '>=', today)
    .where('uc.expires_on', '<=', addDays(today, days))
    .orderBy('uc.expires_on')
    .orderBy('uc.id')
    .execute();
  const granting = rows.filter((row) => row.qualifier_id !== null);
  const costs = await expiryCosts(
    db,
    orgId,
    granting.map((row) => ({ userId: row.user_id, qualifierId: row.qualifier_id!, expiresOn: row.expires_on! })),
    timeZone,
    COST_HORIZON_DAYS,
  );
  const costOf = new Map(granting.map((row, index) => [row.id, costs[index]!]));
  return rows.map((row) => ({
    user_certification_id: row.id,
    user_id: row.user_id,
    certification: { id: row.certification_id, name: row.name, cert_id: row.cert_id },
    expires_on: row.expires_on!,
    lost_on: addDays(row.expires_on!, 1),
    days_left: epochDayOfText(row.expires_on!)! - epochDayOfText(today)!,
    qualifier: row.qualifier_id === null ? null : { id: row.qualifier_id, shortcode: row.shortcode ?? '' },
    staffing_cost: costOf.get(row.id) ?? [],
  }));
}

/** An organization's notice thresholds, largest first, from its `expiry_notice_days` (null: NOTICE_DAYS). */
export const noticeDaysOf = (stored: string | null): number[] =>
  (stored === null ? [...NOTICE_DAYS] : (JSON.parse(stored) as number[])).sort((a, b) => b - a);

export async function findExpiryNotices(db: Db, orgId: number): Promise<ExpiryNoticesResponse> {
  const org = await db
    .selectFrom('organization')
    .select('expiry_notice_days')
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  return { days: noticeDaysOf(org.expiry_notice_days) };
}

export async function updateExpiryNotices(db: Db, orgId: number, values: ChangeExpiryNoticesBody): Promise<void> {
  const days = values.days && JSON.stringify(noticeDaysOf(JSON.stringify(values.days)));
  await updateOrganizationSettings(db, orgId, { expiry_notice_days: days });
}

/** The threshold a certification `daysLeft` from expiry is due a notice for: the smallest one reached. */
export function thresholdOf(daysLeft: number, thresholds: readonly number[] = NOTICE_DAYS): number | undefined {
  return [...thresholds].sort((a, b) => a - b).find((days) => daysLeft <= days);
}

/**
 * Records the notice of the threshold unless this or a nearer one was already sent for the same
 * expiry: true when the caller is to send it. The unique index makes one writer win a race.
 */
async function claimNotice(db: Db, orgId: number, item: ExpiringCertification, threshold: number): Promise<boolean> {
  const sent = await orgColumns(db, 'certification_notice', orgId, ['id'])
    .where('user_certification_id', '=', item.user_certification_id)
    .where('expires_on', '=', item.expires_on)
    .where('threshold_days', '<=', threshold)
    .executeTakeFirst();
  if (sent) return false;
  const inserted = await db
    .insertInto('certification_notice')
    .values({
      organization_id: orgId,
      user_certification_id: item.user_certification_id,
      user_id: item.user_id,
      expires_on: item.expires_on,
      threshold_days: threshold,
      sent_at: nowUtc(),
    })
    .onConflict((oc) => oc.columns(['user_certification_id', 'expires_on', 'threshold_days']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
}

function costLines(item: ExpiringCertification): string[] {
  return item.staffing_cost.map(
    (cost) =>
      `- ${cost.assignment.name} ${cost.start.slice(0, 16)}–${cost.end.slice(0, 16)}: ` +
      `${cost.qualifier.have} of ${cost.qualifier.needed} ${cost.qualifier.shortcode} without it`,
  );
}

/** The words of a notice: to the holder, or to an admin about the holder. */
export function noticeMessage(item: ExpiringCertification, holder: UserRow, toHolder: boolean): Message {
  const whose = toHolder ? 'Your' : `${fullName(holder)}'s`;
  const what = `${item.certification.name} (${item.certification.cert_id})`;
  const when = `expires on ${item.expires_on}, in ${item.days_left} day${item.days_left === 1 ? '' : 's'}`;
  const lines = costLines(item);
  const cost = lines.length
    ? `Scheduled work it leaves short of ${item.qualifier?.shortcode}:\n${lines.join('\n')}`
    : 'No scheduled work is left short by it.';
  return {
    subject: `${whose} certification ${item.certification.name} ${when}`,
    text: `${whose} certification ${what} ${when}.\n\n${cost}\n`,
    short: `${whose} ${item.certification.name} ${when}`,
  };
}

/**
 * One pass of the expiry notices over every organization: each certification reaching a threshold
 * (the organization's, else NOTICE_DAYS) is told once to its holder and the organization's admins, on each channel that
 * reaches them (e-mail, push). Answers how many notices (certification and threshold) went out.
 */
export async function sendExpiryNotices(
  db: Db,
  channels: Channel[],
  log: FastifyBaseLogger,
  today?: (timeZone: string) => string,
): Promise<number> {
  const orgs = await db.selectFrom('organization').select(['id', 'timezone', 'expiry_notice_days']).execute();
  let sent = 0;
  for (const org of orgs) {
    const thresholds = noticeDaysOf(org.expiry_notice_days);
    const day = today?.(org.timezone) ?? formatDate(todayIn(org.timezone));
    const due = await expiringCertifications(db, org.id, org.timezone, thresholds[0]!, day);
    if (due.length === 0) continue;
    const users = await orgRows(db, 'user_account', org.id).where('deleted_at', 'is', null).execute();
    const byId = new Map(users.map((u) => [u.id, u as UserRow]));
    const admins = users.filter((u) => isAdminRole(u.role)) as UserRow[];
    for (const item of due) {
      const threshold = thresholdOf(item.days_left, thresholds);
      const holder = byId.get(item.user_id);
      if (threshold === undefined || !holder || !(await claimNotice(db, org.id, item, threshold))) continue;
      sent += 1;
      const recipients = [holder, ...admins.filter((a) => a.id !== holder.id)];
      for (const recipient of recipients) {
        const message = noticeMessage(item, holder, recipient.id === holder.id);
        for (const channel of channels) {
          if (await channel.unavailable(db, org.id, recipient)) continue;
          await channel.send(recipient, message).catch((error: unknown) => {
            log.warn({ err: error, userId: recipient.id }, 'certification expiry notice not delivered');
          });
        }
      }
    }
  }
  return sent;
}

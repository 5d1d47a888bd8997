import { Type, type Static } from '@sinclair/typebox';
import type { AuthContext } from '../../core/auth/context.js';
import { lockOffLimits } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { addDays, datesFromTo } from '../../core/time.js';
import { closeMinute, offDaysOfEntries, offLimitVerdict, type OffLimitBreach } from '../../scheduling/index.js';
import { approvedEntriesOverlapping } from '../accruals/repository.js';
import { hasOffLimits } from '../off-limits/repository.js';
import { blackoutsMeeting } from '../time-off-blackouts/repository.js';
import type { TimeOffTypeRow } from '../time-off-types/table.js';
import type { LeaveDates } from './dates.js';
import type { TimeOffRow } from './table.js';

/*
 * The contract's rules on time off (docs/contract-rules.md): blackout dates per type, and the off
 * limits, judged by the engine (offLimitVerdict) under the organization's off-limits lock.
 */

/** Extension: one day on which the entry goes past an off limit, with who else is off. */
export const OffLimitNotice = Type.Object({
  off_limit: Type.Object({ id: Type.Integer(), name: Type.String(), max_off: Type.Integer(), action: Type.String() }),
  date: Type.String(),
  message: Type.String(),
  others_off: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), time_off_id: Type.Integer() })),
});
export type OffLimitNotice = Static<typeof OffLimitNotice>;

export const OffLimitWarnings = Type.Optional(
  Type.Array(OffLimitNotice, {
    description: 'Extension: off limits the entry goes past (warn, require_approval); absent when none.',
  }),
);

/** An answer with the off limits' notices as `warnings` (extension), absent when there are none. */
export const withWarnings = <T extends object>(body: T, warnings: OffLimitNotice[]) =>
  warnings.length > 0 ? { ...body, warnings } : body;

/**
 * Which step of an entry's life is judged: a member's pending request, an admin's approval, or an
 * admin's change of the person's work (a platoon move) that puts work under the approved entry.
 */
export type OffLimitMoment = 'request' | 'approval' | 'change';

const OUTCOMES: Record<OffLimitMoment, Record<OffLimitBreach['rule']['action'], string>> = {
  request: {
    refuse: 'this time off is refused',
    require_approval: 'the request stays pending until an admin approves it',
    warn: 'allowed, with this warning',
  },
  approval: {
    refuse: 'this time off is refused',
    require_approval: 'approved by an admin over the limit',
    warn: 'allowed, with this warning',
  },
  change: {
    refuse: 'this change is refused',
    require_approval: 'changed by an admin over the limit',
    warn: 'allowed, with this warning',
  },
};

function noticeOf(breach: OffLimitBreach, moment: OffLimitMoment): OffLimitNotice {
  const { rule } = breach;
  const who = breach.others.length ? breach.others.map((o) => o.name).join(', ') : 'nobody';
  const outcome = OUTCOMES[moment][rule.action];
  return {
    off_limit: { id: rule.id, name: rule.name, max_off: rule.max_off, action: rule.action },
    date: breach.date,
    message:
      `The off limit ${rule.name} allows at most ${rule.max_off} off on ${breach.date}; already off: ${who}; ` +
      `${outcome}.`,
    others_off: breach.others.map((o) => ({ id: o.user_id, name: o.name, time_off_id: o.time_off_id })),
  };
}

type JudgedEntry = Pick<TimeOffRow, 'id' | 'user_id' | 'time_off_type_id' | 'start' | 'end' | 'rrule'>;

/** A refusing rule's breach among the notices: a 422 naming the rule, the date and who else is off. */
function refuseOver(notices: OffLimitNotice[]): void {
  const refused = notices.filter((n) => n.off_limit.action === 'refuse');
  if (refused.length > 0)
    throw invalidParams(
      refused.map((n) => n.message),
      { off_limits: refused },
    );
}

/**
 * Judges the entry (already written, in this transaction) by the off limits under the lock: a
 * refusing rule's breach is a 422 naming the rule, the date and who else is off (`off_limits`
 * beside `error_message`), which rolls the write back; other breaches are returned as notices.
 */
export async function enforceOffLimits(
  trx: Db,
  auth: AuthContext,
  entry: JudgedEntry,
  moment: OffLimitMoment,
): Promise<OffLimitNotice[]> {
  if (!(await hasOffLimits(trx, auth.orgId))) return [];
  await lockOffLimits(trx, auth.orgId);
  const verdict = await offLimitVerdict(trx, auth.orgId, entry, auth.timezone);
  const notices = verdict.breaches.map((b) => noticeOf(b, moment));
  refuseOver(notices);
  return notices;
}

/** A change of a person's work from `start` (local datetime) to `end` (null: on), and what it found. */
export interface WorkChange {
  userId: number;
  start: string;
  end: string | null;
  /** the days the person's approved entries made them off before the change (`date|entry id`) */
  offBefore: Set<string>;
}

const entriesUnder = (trx: Db, orgId: number, userId: number, start: string, end: string | null) =>
  // work dated the day before may reach into the span, and a tour dated on its last day past it
  approvedEntriesOverlapping(trx, orgId, {
    userIds: [userId],
    start: `${addDays(start.slice(0, 10), -1)} 00:00:00`,
    end: end === null ? null : `${addDays(end.slice(0, 10), 2)} 00:00:00`,
  });

/**
 * Before a change of the person's work (a platoon move, a new series): the days their approved
 * entries make them off, so that enforceOffLimitsOfChange judges only the days it adds. Null when
 * the organization has no off limits (nothing to judge).
 */
export async function offDaysBeforeChange(
  trx: Db,
  auth: AuthContext,
  change: Omit<WorkChange, 'offBefore'>,
): Promise<WorkChange | null> {
  if (!(await hasOffLimits(trx, auth.orgId))) return null;
  const entries = await entriesUnder(trx, auth.orgId, change.userId, change.start, change.end);
  return { ...change, offBefore: await offDaysOfEntries(trx, auth.orgId, change.userId, entries, auth.timezone) };
}

/**
 * After the change (written, in this transaction, under the person's lock): each approved entry it
 * makes the person off on new days is judged by the off limits on those days, as an admin's
 * approval is (docs/contract-rules.md): `refuse` is a 422 naming the day and the limit, which rolls
 * the change back; `warn` and `require_approval` (the admin's change is the decision) are returned.
 */
export async function enforceOffLimitsOfChange(
  trx: Db,
  auth: AuthContext,
  change: WorkChange | null,
): Promise<OffLimitNotice[]> {
  if (!change) return [];
  const entries = await entriesUnder(trx, auth.orgId, change.userId, change.start, change.end);
  if (entries.length === 0) return [];
  await lockOffLimits(trx, auth.orgId);
  const notices: OffLimitNotice[] = [];
  for (const entry of entries) {
    const verdict = await offLimitVerdict(trx, auth.orgId, entry, auth.timezone);
    for (const breach of verdict.breaches)
      if (!change.offBefore.has(`${breach.date}|${entry.id}`)) notices.push(noticeOf(breach, 'change'));
  }
  refuseOver(notices);
  return notices;
}

/** The dates an entry covers: date-only leave its dates; else each date from its start to its last minute. */
function datesCovered(entry: { start: string; end: string; dates?: LeaveDates | null }): string[] {
  if (entry.dates) return datesFromTo(entry.dates.first, entry.dates.last);
  const end = closeMinute(entry.end);
  const first = entry.start.slice(0, 10);
  const last = end.slice(11) === '00:00:00' ? addDays(end.slice(0, 10), -1) : end.slice(0, 10);
  return datesFromTo(first, last < first ? first : last);
}

/** Blackout dates of the type (docs/contract-rules.md): 422 naming each blacked-out date the entry covers. */
export async function assertNoBlackout(
  trx: Db,
  orgId: number,
  type: TimeOffTypeRow,
  entry: { start: string; end: string; dates?: LeaveDates | null },
): Promise<void> {
  const dates = datesCovered(entry);
  const blackouts = await blackoutsMeeting(trx, orgId, type.id, dates[0]!, dates[dates.length - 1]!);
  if (blackouts.length === 0) return;
  const hit = dates.filter((d) => blackouts.some((b) => b.start_date <= d && b.end_date >= d));
  if (hit.length === 0) return;
  const reasons = [...new Set(blackouts.flatMap((b) => (b.reason ? [b.reason] : [])))];
  const shown = hit.length > 5 ? `${hit.slice(0, 5).join(', ')} and ${hit.length - 5} more` : hit.join(', ');
  const why = reasons.length ? ` (${reasons.join('; ')})` : '';
  throw invalidParams(
    `Time off of type ${type.label} may not be requested on ${shown}: ` +
      `${hit.length === 1 ? 'that date is' : 'those dates are'} blacked out${why}.`,
  );
}

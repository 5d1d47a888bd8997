import type { AuthContext } from '../../core/auth/context.js';
import { writeLog } from '../../core/audit.js';
import { lockUsers } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { formatDate, nowUtc, parseDate, round, Temporal, todayIn } from '../../core/time.js';
import type { TimeOffTypeRow } from '../time-off-types/table.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import {
  accrualPeriodKeys,
  balancesOf,
  insertTransaction,
  insertTransactions,
  listRules,
  listSteps,
  netHoursOfTimeOff,
} from './repository.js';
import type { AccrualRuleRow } from './table.js';

/** Calendar periods a rule credits at the end of, from the user's accrual start date. */
const PERIOD_STEP: Partial<Record<AccrualRuleRow['method'], (rule: AccrualRuleRow) => Temporal.DurationLike>> = {
  pay_period: () => ({ days: PAY_PERIOD_DAYS }),
  days: (rule) => ({ days: Math.max(1, rule.interval) }),
  week: () => ({ weeks: 1 }),
  month: () => ({ months: 1 }),
  year: () => ({ years: 1 }),
};
export const PAY_PERIOD_DAYS = 14;
const MAX_PERIODS_PER_RULE = 2000;

const accrualAnchor = (user: UserRow) => parseDate(user.accrual_start_date ?? user.date_of_hire ?? '');

/**
 * The profile whose rules apply to the user: with a track, the track's step for the user's full
 * years of service (counted from accrual_start_date, else date_of_hire); otherwise the user's profile.
 */
export async function effectiveProfileId(
  db: Db,
  orgId: number,
  user: UserRow,
  today = todayIn('UTC'),
): Promise<number | null> {
  if (user.accrual_track_id !== null) {
    const steps = await listSteps(db, orgId, [user.accrual_track_id]);
    const anchor = accrualAnchor(user);
    const years =
      anchor && Temporal.PlainDate.compare(anchor, today) <= 0
        ? anchor.until(today, { largestUnit: 'years' }).years
        : 0;
    const step = steps.filter((s) => s.from_years <= years).pop();
    if (step) return step.profile_id;
  }
  return user.accrual_profile_id;
}

export async function effectiveRules(
  db: Db,
  orgId: number,
  user: UserRow,
  timeZone: string,
): Promise<AccrualRuleRow[]> {
  const profileId = await effectiveProfileId(db, orgId, user, todayIn(timeZone));
  return profileId === null ? [] : listRules(db, orgId, [profileId]);
}

const formatHours = (hours: number) => String(round(hours));

/** The readable rule text of the spec's samples. */
export function describeRule(rule: Pick<AccrualRuleRow, 'method' | 'hours' | 'interval' | 'max_hours'>): string {
  const amount = `${formatHours(rule.hours)} ${rule.hours === 1 ? 'hour' : 'hours'}`;
  const cap = rule.max_hours === null ? '' : ` (max. ${formatHours(rule.max_hours)} hours)`;
  switch (rule.method) {
    case 'none':
      return 'No automatic accrual';
    case 'pay_period':
      return `Accrues ${amount} every pay period${cap}`;
    case 'days':
      return `Accrues ${amount} every ${rule.interval} days${cap}`;
    case 'hours_worked':
      return `Accrues ${rule.hours === 1 ? 'one hour' : amount} every ${rule.interval} hours worked${cap}`;
    default:
      return `Accrues ${amount} every ${rule.method}${cap}`;
  }
}

/** The end date of the latest period already credited for the rule (keys are `${ruleId}:${date}`). */
function lastCredited(rule: AccrualRuleRow, done: Set<string>): string {
  const prefix = `${rule.id}:`;
  let last = '';
  for (const key of done)
    if (key.startsWith(prefix) && key.slice(prefix.length) > last) last = key.slice(prefix.length);
  return last;
}

function duePeriods(rule: AccrualRuleRow, anchor: Temporal.PlainDate, today: Temporal.PlainDate, done: Set<string>) {
  const step = PERIOD_STEP[rule.method];
  if (!step || rule.hours <= 0) return [];
  const after = lastCredited(rule, done);
  const unit = step(rule);
  const due: Array<{ key: string; end: Temporal.PlainDate }> = [];
  for (let k = 1; k <= MAX_PERIODS_PER_RULE; k += 1) {
    const end = anchor.add(
      Object.fromEntries(Object.entries(unit).map(([name, value]) => [name, (value as number) * k])),
    );
    if (Temporal.PlainDate.compare(end, today) > 0) break;
    if (formatDate(end) > after) due.push({ key: `${rule.id}:${formatDate(end)}`, end });
  }
  return due;
}

/**
 * Credits every calendar period of the user's rules that ended since the accrual start date and
 * after the last credited one (idempotent by period key), each credit capped at the rule's maximum
 * balance. Catching up after a long time credits past periods against today's balance.
 */
export async function accrueDue(trx: Db, auth: AuthContext, user: UserRow): Promise<void> {
  // every ledger entry of a user is written under the user's lock (src/core/db/locks.ts): credits
  // due are found and written once, and a debit checks the balance its write leaves
  await lockUsers(trx, [user.id]);
  const anchor = accrualAnchor(user);
  if (!anchor) return;
  const rules = await effectiveRules(trx, auth.orgId, user, auth.timezone);
  if (!rules.some((rule) => PERIOD_STEP[rule.method])) return;
  const today = todayIn(auth.timezone);
  const [done, balances] = await Promise.all([
    accrualPeriodKeys(trx, auth.orgId, user.id),
    balancesOf(trx, auth.orgId, user.id),
  ]);
  const rows = [];
  const now = nowUtc();
  for (const rule of rules) {
    let balance = balances.get(rule.time_off_type_id) ?? 0;
    const periods = duePeriods(rule, anchor, today, done);
    for (const [index, period] of periods.entries()) {
      const room = rule.max_hours === null ? rule.hours : Math.max(0, Math.min(rule.hours, rule.max_hours - balance));
      // Periods that hit the cap credit nothing; only the latest is recorded, to mark progress.
      if (room <= 0 && index < periods.length - 1) continue;
      balance += room;
      rows.push({
        organization_id: auth.orgId,
        user_id: user.id,
        time_off_type_id: rule.time_off_type_id,
        hours: round(room),
        kind: 'accrual' as const,
        admin_id: null,
        notes: `${describeRule(rule)}: period ending ${formatDate(period.end)}`,
        time_off_id: null,
        period_key: period.key,
        created_at: now,
      });
    }
  }
  if (rows.length === 0) return;
  await insertTransactions(trx, rows);
  const total = round(rows.reduce((sum, row) => sum + row.hours, 0));
  await writeLog(trx, auth, {
    action: 'accrual.accrued',
    description: `accrued ${total} hours of time off for ${fullName(user)} (${rows.length} periods).`,
    entityType: 'user',
    entityId: user.id,
  });
}

/** Whether the user keeps a bank for the type: a ledger row exists or their profile has a rule for it. */
export async function keepsBank(
  trx: Db,
  auth: AuthContext,
  user: UserRow,
  typeId: number,
  balances: Map<number, number>,
) {
  if (balances.has(typeId)) return true;
  const rules = await effectiveRules(trx, auth.orgId, user, auth.timezone);
  return rules.some((rule) => rule.time_off_type_id === typeId);
}

/** The lowest balance the type's overdraft rule allows: 0 (refuse), -N (limit) or -Infinity (allow). */
export function overdraftFloor(type: Pick<TimeOffTypeRow, 'allow_negative' | 'overdraft_hours'>): number {
  if (type.allow_negative !== 1) return 0;
  return type.overdraft_hours === null ? Number.NEGATIVE_INFINITY : -Number(type.overdraft_hours);
}

function assertCovered(type: TimeOffTypeRow, balance: number, hours: number) {
  const floor = overdraftFloor(type);
  const after = round(balance - hours);
  if (after >= floor) return;
  if (floor === 0)
    throw invalidParams(
      `The ${type.label} bank holds ${formatHours(balance)} hours, fewer than the ${formatHours(hours)} ` +
        'hours requested.',
    );
  throw invalidParams(
    `The ${type.label} bank holds ${formatHours(balance)} hours; the ${formatHours(hours)} hours requested would ` +
      `leave ${formatHours(after)}, below the ${formatHours(floor)} hours the type allows.`,
  );
}

/**
 * What approving `hours` of the type does to the user's bank, read without writing: null when the
 * user keeps no bank for the type (nothing is charged), else the balance, the balance after and
 * whether the type's overdraft rule allows it.
 */
export async function bankOutlook(
  db: Db,
  auth: AuthContext,
  entry: { user: UserRow; type: TimeOffTypeRow; hours: number },
): Promise<{ balance: number; after: number; floor: number | null; allowed: boolean } | null> {
  const balances = await balancesOf(db, auth.orgId, entry.user.id);
  if (!(await keepsBank(db, auth, entry.user, entry.type.id, balances))) return null;
  const balance = round(balances.get(entry.type.id) ?? 0);
  const after = round(balance - Math.max(0, entry.hours));
  const floor = overdraftFloor(entry.type);
  return { balance, after, floor: Number.isFinite(floor) ? floor : null, allowed: after >= floor };
}

/**
 * A request (pending time off) the type's overdraft rule refuses: 422 naming the balance and the
 * hours. Nothing is written but the credits already due (under the user's lock). True when the
 * user keeps a bank for the type and the hours are covered.
 */
export async function assertRequestCovered(
  trx: Db,
  auth: AuthContext,
  entry: { user: UserRow; type: TimeOffTypeRow; hours: number },
): Promise<boolean> {
  if (entry.hours <= 0) return false;
  await accrueDue(trx, auth, entry.user); // takes the user's lock
  const balances = await balancesOf(trx, auth.orgId, entry.user.id);
  if (!(await keepsBank(trx, auth, entry.user, entry.type.id, balances))) return false;
  assertCovered(entry.type, balances.get(entry.type.id) ?? 0, entry.hours);
  return true;
}

/** Deducts approved time off from the user's bank for its type, when the user keeps one. */
export async function chargeTimeOff(
  trx: Db,
  auth: AuthContext,
  entry: { user: UserRow; type: TimeOffTypeRow; timeOffId: number; hours: number; adminId: number | null },
): Promise<void> {
  if (!(await assertRequestCovered(trx, auth, entry))) return;
  await insertTransaction(trx, {
    organization_id: auth.orgId,
    user_id: entry.user.id,
    time_off_type_id: entry.type.id,
    hours: -round(entry.hours),
    kind: 'time_off',
    admin_id: entry.adminId,
    notes: `time off #${entry.timeOffId}`,
    time_off_id: entry.timeOffId,
    period_key: null,
    created_at: nowUtc(),
  });
}

/** Gives back what an approved entry took from the bank (on delete). */
export async function refundTimeOff(trx: Db, orgId: number, timeOffId: number): Promise<void> {
  // the caller holds the entry's lock (transition): the net is read and given back once
  const net = await netHoursOfTimeOff(trx, orgId, timeOffId);
  if (!net || round(net.hours) === 0) return;
  await insertTransaction(trx, {
    organization_id: orgId,
    user_id: net.userId,
    time_off_type_id: net.typeId,
    hours: -round(net.hours),
    kind: 'time_off_restored',
    admin_id: null,
    notes: `time off #${timeOffId} removed`,
    time_off_id: timeOffId,
    period_key: null,
    created_at: nowUtc(),
  });
}

/** A manual bank adjustment by an admin: positive adds, negative deducts (a correction may go below zero). */
export async function adjustBank(
  trx: Db,
  auth: AuthContext,
  change: { user: UserRow; admin: UserRow; type: TimeOffTypeRow; hours: number; notes: string | null },
): Promise<{ id: number; balance: number }> {
  await accrueDue(trx, auth, change.user);
  const balance = (await balancesOf(trx, auth.orgId, change.user.id)).get(change.type.id) ?? 0;
  const id = await insertTransaction(trx, {
    organization_id: auth.orgId,
    user_id: change.user.id,
    time_off_type_id: change.type.id,
    hours: round(change.hours),
    kind: 'manual',
    admin_id: change.admin.id,
    notes: change.notes,
    time_off_id: null,
    period_key: null,
    created_at: nowUtc(),
  });
  const verb =
    change.hours >= 0
      ? `added ${formatHours(change.hours)} hours to`
      : `deducted ${formatHours(-change.hours)} hours from`;
  await writeLog(trx, auth, {
    action: 'accrual.adjusted',
    description: `${verb} the ${change.type.label} bank of ${fullName(change.user)}.`,
    actorUserId: change.admin.id,
    entityType: 'accrual_transaction',
    entityId: id,
    after: { time_off_type_id: change.type.id, hours: change.hours, notes: change.notes },
  });
  return { id, balance: round(balance + change.hours) };
}

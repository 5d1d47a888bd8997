import type { AuthContext } from '../../core/auth/context.js';
import { lockUsers, transition } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { addDays, nowUtc, round } from '../../core/time.js';
import { closeMinute, segmentsOfEntries, workSpanOfDates } from '../../scheduling/index.js';
import type { TimeOffRow } from '../time-offs/table.js';
import { findUsersByIds } from '../users/repository.js';
import { keepsBank } from './ledger.js';
import {
  approvedEntriesOverlapping,
  balancesOf,
  firstSettledDate,
  insertTransactions,
  latestLogId,
  ledgerOfEntries,
  usersWithApprovedEntriesOf,
  usersWorkingOn,
} from './repository.js';
import { findPayrollClose } from '../payroll-close/repository.js';

/** A change that may move what approved time off charges: the work it touched and its log entry. */
export interface ChargeChange {
  /** the change's system-log action, written before the reconciliation (its latest entry is the cause) */
  action: string;
  userIds: number[];
  /** local datetimes of the work the change touched; a null end: from the start on (a series without end) */
  start: string;
  end: string | null;
  /** the assignments whose work the change touched: a finalized day of one of them flags the adjustment */
  assignmentIds: number[];
  /** only entries of these types (a type's edit); every type when absent */
  timeOffTypeIds?: number[];
}

/** Charged hours per entry: the sum of its segments' lengths (what chargedHours answers for one). */
async function chargesOf(trx: Db, orgId: number, entries: TimeOffRow[], timeZone: string) {
  const start = entries.reduce((min, e) => (e.start < min ? e.start : min), entries[0]!.start);
  const end = entries.reduce((max, e) => (closeMinute(e.end) > max ? closeMinute(e.end) : max), '');
  const segments = await segmentsOfEntries(trx, orgId, entries, start, end, timeZone);
  const charges = new Map<number, number>();
  for (const { entry, segment } of segments) charges.set(entry.id, (charges.get(entry.id) ?? 0) + segment.length);
  return charges;
}

/**
 * Date-only leave follows the work (docs/time-off.md#date-only-leave): each entry entered as dates
 * covers the person's work that starts on them as the schedule stands after the change, so its start
 * and end are worked out again (and stored, changed in place) before its charge is.
 */
async function followDates(trx: Db, auth: AuthContext, entries: TimeOffRow[]): Promise<void> {
  for (const entry of entries) {
    if (entry.first_date === null || entry.last_date === null) continue;
    const dates = { first: entry.first_date, last: entry.last_date };
    const span = await workSpanOfDates(trx, auth.orgId, entry.user_id, dates, auth.timezone);
    if (span.start === entry.start && span.end === entry.end) continue;
    // one-time entries only (approvedEntriesOverlapping): the last occurrence ends at the end. Through
    // transition(), the one writer of time off rows: the entry is still in the status it was read in.
    const target = { table: 'time_off', orgId: auth.orgId, id: entry.id, model: 'TimeOff', softDeleted: true } as const;
    await transition(trx, target, () => ({ start: span.start, end: span.end, until: span.end }));
    Object.assign(entry, span, { until: span.end });
  }
}

/**
 * The bank follows the charge (docs/time-off.md): after a change, each approved one-time entry of
 * the users overlapping the changed work has its charge computed again, and the difference from what
 * the ledger holds for it is appended as a `time_off_adjustment` row naming the change (its action
 * and log entry). Nothing written is edited: the adjustment is dated now, in the open period; when
 * the change reached into a closed payroll period or a day finalized on one of the touched
 * assignments, the row carries that date (`flagged_date`) and payroll flags it. Runs in the change's
 * transaction, under the users' locks. Adjustments are never refused by a type's overdraft rule:
 * they follow a change already made.
 */
export async function reconcileBank(trx: Db, auth: AuthContext, change: ChargeChange): Promise<number> {
  const userIds = [...new Set(change.userIds)].sort((a, b) => a - b);
  if (userIds.length === 0) return 0;
  await lockUsers(trx, userIds);
  // work dated in the span may start a day before it or end a day after (a tour across midnight)
  const start = `${addDays(change.start.slice(0, 10), -1)} 00:00:00`;
  const end = change.end === null ? null : `${addDays(change.end.slice(0, 10), 2)} 00:00:00`;
  const entries = await approvedEntriesOverlapping(trx, auth.orgId, {
    userIds,
    start,
    end,
    timeOffTypeIds: change.timeOffTypeIds,
  });
  if (entries.length === 0) return 0;
  await followDates(trx, auth, entries);
  const [charges, ledger] = await Promise.all([
    chargesOf(trx, auth.orgId, entries, auth.timezone),
    ledgerOfEntries(
      trx,
      auth.orgId,
      entries.map((e) => e.id),
    ),
  ]);
  const users = await findUsersByIds(trx, auth.orgId, userIds);
  const { closed_through: closedThrough } = await findPayrollClose(trx, auth.orgId);
  const causeLogId = await latestLogId(trx, auth.orgId, change.action);
  const now = nowUtc();
  const rows = [];
  const balances = new Map<number, Map<number, number>>();
  for (const entry of entries) {
    const held = ledger.get(entry.id) ?? new Map<number, number>();
    const user = users.get(entry.user_id);
    if (!user) continue;
    if (!held.has(entry.time_off_type_id)) {
      // an entry that took nothing (no hours then) is charged when its user keeps a bank for the type
      const userBalances = balances.get(user.id) ?? (await balancesOf(trx, auth.orgId, user.id));
      balances.set(user.id, userBalances);
      if (held.size === 0 && !(await keepsBank(trx, auth, user, entry.time_off_type_id, userBalances))) continue;
    }
    const target = new Map([...held.keys()].map((typeId) => [typeId, 0]));
    target.set(entry.time_off_type_id, -round(charges.get(entry.id) ?? 0));
    const flagged = await firstSettledDate(trx, auth.orgId, change.assignmentIds, {
      startDate: later(entry.start, change.start).slice(0, 10),
      endDate: lastDateOf(earlier(closeMinute(entry.end), change.end)),
      closedThrough,
    });
    const settled = closedThrough !== null && flagged !== null && flagged <= closedThrough ? 'closed' : 'finalized';
    for (const [typeId, hours] of target) {
      const difference = round(hours - (held.get(typeId) ?? 0));
      if (difference === 0) continue;
      rows.push({
        organization_id: auth.orgId,
        user_id: entry.user_id,
        time_off_type_id: typeId,
        hours: difference,
        kind: 'time_off_adjustment' as const,
        admin_id: null,
        notes:
          `time off #${entry.id}: ${difference > 0 ? 'credited' : 'debited'} ${Math.abs(difference)} hours ` +
          `after ${change.action}${causeLogId === null ? '' : ` (log entry #${causeLogId})`}` +
          (flagged ? `, reaching into ${flagged}, ${settled}` : ''),
        time_off_id: entry.id,
        period_key: null,
        created_at: now,
        cause_action: change.action,
        cause_log_id: causeLogId,
        flagged_date: flagged,
      });
    }
  }
  await insertTransactions(trx, rows);
  return rows.length;
}

/** The earliest local datetime the engine schedules: a change "from the beginning". */
const BEGINNING = '1900-01-01 00:00:00';

/**
 * An assignment's times, recurrence or kind edited (`assignment.updated`, logged first): the approved
 * entries of everyone who works on it, from the earlier of its old and new first dates on, charge again.
 */
export async function reconcileAssignment(trx: Db, auth: AuthContext, assignmentId: number, from: string) {
  const userIds = await usersWorkingOn(trx, auth.orgId, assignmentId);
  return reconcileBank(trx, auth, {
    action: 'assignment.updated',
    userIds,
    start: from,
    end: null,
    assignmentIds: [assignmentId],
  });
}

/**
 * A type's `default_day_hours` edited (`time_off_type.updated`, logged first): every approved entry of
 * the type charges again. Default days are charged where no work is scheduled: no assignment's
 * finalized day flags them, a closed payroll period does.
 */
export async function reconcileTimeOffType(trx: Db, auth: AuthContext, timeOffTypeId: number) {
  const userIds = await usersWithApprovedEntriesOf(trx, auth.orgId, timeOffTypeId);
  return reconcileBank(trx, auth, {
    action: 'time_off_type.updated',
    userIds,
    start: BEGINNING,
    end: null,
    assignmentIds: [],
    timeOffTypeIds: [timeOffTypeId],
  });
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string | null) => (b === null || a < b ? a : b);
/** The last date an end reaches into (an end at midnight reaches into the day before). */
const lastDateOf = (end: string) => (end.endsWith(' 00:00:00') ? addDays(end.slice(0, 10), -1) : end.slice(0, 10));

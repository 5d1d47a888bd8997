import type { Insertable } from 'kysely';
import { deleteOrgRows, orgColumns, orgRows, rowsById } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import type { TimeOffTypeRow } from '../time-off-types/table.js';
import type { TimeOffRow } from '../time-offs/table.js';
import type { AccrualRuleRow, AccrualRuleTable, AccrualTrackStepTable, AccrualTransactionTable } from './table.js';

export function listProfiles(db: Db, orgId: number) {
  return orgColumns(db, 'accrual_profile', orgId, ['id', 'name'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

export async function findProfileOrThrow(db: Db, orgId: number, id: number) {
  return orgColumns(db, 'accrual_profile', orgId, ['id', 'name'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('AccrualProfile'));
}

export function listTracks(db: Db, orgId: number) {
  return orgColumns(db, 'accrual_track', orgId, ['id', 'name']).where('deleted_at', 'is', null).orderBy('id').execute();
}

export async function findTrackOrThrow(db: Db, orgId: number, id: number) {
  return orgColumns(db, 'accrual_track', orgId, ['id', 'name'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('AccrualTrack'));
}

/** Rules of the given profiles (all profiles when omitted), ordered by profile then type. */
export function listRules(db: Db, orgId: number, profileIds?: number[]): Promise<AccrualRuleRow[]> {
  return orgRows(db, 'accrual_rule', orgId)
    .$if(profileIds !== undefined, (qb) => qb.where('profile_id', 'in', profileIds!.length ? profileIds! : [0]))
    .orderBy('profile_id')
    .orderBy('time_off_type_id')
    .orderBy('id')
    .execute();
}

export function listSteps(db: Db, orgId: number, trackIds: number[]) {
  return orgRows(db, 'accrual_track_step', orgId)
    .where('track_id', 'in', trackIds.length ? trackIds : [0])
    .orderBy('track_id')
    .orderBy('from_years')
    .execute();
}

export async function insertProfile(db: Db, orgId: number, name: string): Promise<number> {
  const { id } = await db
    .insertInto('accrual_profile')
    .values({ organization_id: orgId, name, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function insertTrack(db: Db, orgId: number, name: string): Promise<number> {
  const { id } = await db
    .insertInto('accrual_track')
    .values({ organization_id: orgId, name, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function renameAccrualRecord(
  db: Db,
  orgId: number,
  table: 'accrual_profile' | 'accrual_track',
  id: number,
  name: string,
) {
  await db.updateTable(table).set({ name }).where('organization_id', '=', orgId).where('id', '=', id).execute();
}

export async function softDeleteAccrualRecord(
  db: Db,
  orgId: number,
  table: 'accrual_profile' | 'accrual_track',
  id: number,
  at: string,
) {
  await db
    .updateTable(table)
    .set({ deleted_at: at })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function replaceRules(
  db: Db,
  orgId: number,
  profileId: number,
  rules: Omit<Insertable<AccrualRuleTable>, 'organization_id' | 'profile_id'>[],
) {
  await deleteOrgRows(db, 'accrual_rule', orgId).where('profile_id', '=', profileId).execute();
  if (rules.length) {
    await db
      .insertInto('accrual_rule')
      .values(rules.map((rule) => ({ ...rule, organization_id: orgId, profile_id: profileId })))
      .execute();
  }
}

export async function replaceSteps(
  db: Db,
  orgId: number,
  trackId: number,
  steps: Omit<Insertable<AccrualTrackStepTable>, 'organization_id' | 'track_id'>[],
) {
  await deleteOrgRows(db, 'accrual_track_step', orgId).where('track_id', '=', trackId).execute();
  if (steps.length) {
    await db
      .insertInto('accrual_track_step')
      .values(steps.map((step) => ({ ...step, organization_id: orgId, track_id: trackId })))
      .execute();
  }
}

export async function existingIds(
  db: Db,
  orgId: number,
  table: 'accrual_profile' | 'time_off_type',
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('organization_id', '=', orgId)
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Balance per time off type of a user: the sum of the ledger. */
export async function balancesOf(db: Db, orgId: number, userId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('accrual_transaction')
    .select(['time_off_type_id', (eb) => eb.fn.sum<number | string>('hours').as('hours')])
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .groupBy('time_off_type_id')
    .execute();
  return new Map(rows.map((row) => [row.time_off_type_id, Number(row.hours)]));
}

export async function insertTransaction(db: Db, values: Insertable<AccrualTransactionTable>): Promise<number> {
  const { id } = await db.insertInto('accrual_transaction').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertTransactions(db: Db, values: Insertable<AccrualTransactionTable>[]): Promise<void> {
  if (values.length) await db.insertInto('accrual_transaction').values(values).execute();
}

export function listTransactions(db: Db, orgId: number, userId: number) {
  return orgRows(db, 'accrual_transaction', orgId).where('user_id', '=', userId).orderBy('id').execute();
}

/** Net hours the ledger holds for one time off entry (negative while its deduction stands). */
export async function netHoursOfTimeOff(
  db: Db,
  orgId: number,
  timeOffId: number,
): Promise<{ hours: number; userId: number; typeId: number } | undefined> {
  const rows = await orgColumns(db, 'accrual_transaction', orgId, ['user_id', 'time_off_type_id', 'hours'])
    .where('time_off_id', '=', timeOffId)
    .execute();
  if (rows.length === 0) return undefined;
  return {
    hours: rows.reduce((sum, row) => sum + Number(row.hours), 0),
    userId: rows[0].user_id,
    typeId: rows[0].time_off_type_id,
  };
}

export async function accrualPeriodKeys(db: Db, orgId: number, userId: number): Promise<Set<string>> {
  const rows = await orgColumns(db, 'accrual_transaction', orgId, ['period_key'])
    .where('user_id', '=', userId)
    .where('period_key', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.period_key!));
}

/** A user's approved, one-time time off entries overlapping [start, end) (local datetimes; null end: no end). */
export function approvedEntriesOverlapping(
  db: Db,
  orgId: number,
  filter: { userIds: number[]; start: string; end: string | null; timeOffTypeIds?: number[] },
): Promise<TimeOffRow[]> {
  return orgRows(db, 'time_off', orgId)
    .where('user_id', 'in', filter.userIds)
    .$if(filter.timeOffTypeIds !== undefined, (qb) => qb.where('time_off_type_id', 'in', filter.timeOffTypeIds!))
    .where('status', '=', 1) // APPROVED (time-offs/table.ts; a value import would make a folder cycle)
    .where('deleted_at', 'is', null)
    .where('rrule', 'is', null)
    .where('end', '>', filter.start)
    .$if(filter.end !== null, (qb) => qb.where('start', '<', filter.end!))
    .orderBy('id')
    .execute();
}

/** The users with approved one-time entries of a time off type (whose charge its default day may move). */
export async function usersWithApprovedEntriesOf(db: Db, orgId: number, timeOffTypeId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('time_off')
    .select('user_id')
    .distinct()
    .where('organization_id', '=', orgId)
    .where('time_off_type_id', '=', timeOffTypeId)
    .where('status', '=', 1)
    .where('deleted_at', 'is', null)
    .where('rrule', 'is', null)
    .execute();
  return rows.map((r) => r.user_id);
}

/** The users whose work an assignment's times shape: members of series on it and its one-off shifts' people. */
export async function usersWorkingOn(db: Db, orgId: number, assignmentId: number): Promise<number[]> {
  const [series, shifts] = await Promise.all([
    db
      .selectFrom('recurring_shift')
      .select(['user_id', 'assignment_ids'])
      .where('organization_id', '=', orgId)
      .execute(),
    db
      .selectFrom('shift')
      .select('user_id')
      .distinct()
      .where('organization_id', '=', orgId)
      .where('assignment_id', '=', assignmentId)
      .execute(),
  ]);
  const onIt = series.filter((s) => (JSON.parse(s.assignment_ids) as number[]).includes(assignmentId));
  return [...new Set([...onIt, ...shifts].map((r) => r.user_id))];
}

/** What the ledger holds for each entry, per time off type (negative while a debit stands). */
export async function ledgerOfEntries(
  db: Db,
  orgId: number,
  timeOffIds: number[],
): Promise<Map<number, Map<number, number>>> {
  const result = new Map<number, Map<number, number>>();
  if (timeOffIds.length === 0) return result;
  const rows = await db
    .selectFrom('accrual_transaction')
    .select(['time_off_id', 'time_off_type_id', (eb) => eb.fn.sum<number | string>('hours').as('hours')])
    .where('organization_id', '=', orgId)
    .where('time_off_id', 'in', timeOffIds)
    .groupBy(['time_off_id', 'time_off_type_id'])
    .execute();
  for (const row of rows) {
    const byType = result.get(row.time_off_id!) ?? new Map<number, number>();
    byType.set(row.time_off_type_id, Number(row.hours));
    result.set(row.time_off_id!, byType);
  }
  return result;
}

/**
 * The first date in [startDate, endDate] that payroll has settled, or null: a date of the closed
 * payroll periods (through `closedThrough`), or one on which one of the assignments is finalized.
 */
export async function firstSettledDate(
  db: Db,
  orgId: number,
  assignmentIds: number[],
  span: { startDate: string; endDate: string; closedThrough: string | null },
): Promise<string | null> {
  const { startDate, endDate, closedThrough } = span;
  if (endDate < startDate) return null;
  if (closedThrough !== null && startDate <= closedThrough) return startDate;
  if (assignmentIds.length === 0) return null;
  const row = await db
    .selectFrom('assignment_finalization')
    .select('date')
    .where('organization_id', '=', orgId)
    .where('assignment_id', 'in', assignmentIds)
    .where('date', '>=', startDate)
    .where('date', '<=', endDate)
    .orderBy('date')
    .limit(1)
    .executeTakeFirst();
  return row?.date ?? null;
}

/** The id of the organization's latest system-log entry of the action (the change being written). */
export async function latestLogId(db: Db, orgId: number, action: string): Promise<number | null> {
  const row = await orgColumns(db, 'system_log', orgId, ['id'])
    .where('action', '=', action)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Flagged adjustments (reaching into a finalized day) written in [fromUtc, toUtc), with their type's label. */
export function flaggedAdjustments(db: Db, orgId: number, range: { fromUtc: string; toUtc: string; userId?: number }) {
  return db
    .selectFrom('accrual_transaction as t')
    .innerJoin('time_off_type as y', (join) =>
      join.onRef('y.id', '=', 't.time_off_type_id').onRef('y.organization_id', '=', 't.organization_id'),
    )
    .select(['t.user_id', 't.hours', 't.notes', 't.created_at', 't.flagged_date', 'y.label', 'y.work_code'])
    .where('t.organization_id', '=', orgId)
    .where('t.flagged_date', 'is not', null)
    .where('t.created_at', '>=', range.fromUtc)
    .where('t.created_at', '<', range.toUtc)
    .$if(range.userId !== undefined, (qb) => qb.where('t.user_id', '=', range.userId!))
    .orderBy('t.id')
    .execute();
}

/*
 * The time off types a bank names, read here rather than through time-off-types/: a type's edit
 * reconciles banks (reconcile.ts), so that folder depends on this one and not the other way round.
 */

/** Types by id, deleted ones included (a ledger keeps naming its type). */
export function bankTypesByIds(db: Db, orgId: number, ids: Iterable<number>): Promise<Map<number, TimeOffTypeRow>> {
  return rowsById(ids, (unique) => orgRows(db, 'time_off_type', orgId).where('id', 'in', unique).execute());
}

/** The organization's live types, by label. */
export function liveBankTypes(db: Db, orgId: number): Promise<TimeOffTypeRow[]> {
  return orgRows(db, 'time_off_type', orgId).where('deleted_at', 'is', null).orderBy('label').orderBy('id').execute();
}

/** A live type named by a request's field, or a 422 naming it. */
export async function bankTypeOrInvalid(db: Db, orgId: number, id: number): Promise<TimeOffTypeRow> {
  const row = await orgRows(db, 'time_off_type', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw invalidParams('The selected time off type id is invalid.');
  return row;
}

import type { ExpressionBuilder } from 'kysely';
import { compiledOnce } from '../core/db/compiled-once.js';
import { jsonArrayFrom, parseJsonArray } from '../core/db/json.js';
import { orgColumns, orgRows, rowsById, sameOrg } from '../core/db/org-rows.js';
import type { Db } from '../core/db/transaction.js';
import type { Database } from '../core/db/types.js';
import type { AssignmentRow } from '../resources/assignments/table.js';
import type { RecurringShiftExceptionRow, RecurringShiftRow } from '../resources/rotations/table.js';
import type { UserRow } from '../resources/users/table.js';
import type { WorkTypeRow } from '../resources/work-types/table.js';
import type { FatigueSetting } from './fatigue.js';
import type { Qualification, Qualifications } from './staffing.js';

/*
 * Every statement the scheduling engine runs (docs/architecture.md, "The scheduling engine"): the
 * engine reads its tables here and nowhere else. Each table read here is watched by the engine
 * cache (cache.ts, WATCHED_TABLES; cache-coverage.test.ts proves it).
 */

/** The status of approved time off (time-offs/table.ts: the spec's 1). */
const APPROVED = 1;

/** The organization's zone. */
export async function timezoneOf(db: Db, orgId: number): Promise<string> {
  const org = await db.selectFrom('organization').select('timezone').where('id', '=', orgId).executeTakeFirstOrThrow();
  return org.timezone;
}

/** What an assignment needs of a qualifier: its minimum staffing with the qualifier's display fields. */
export interface QualifierNeeded {
  id: number;
  name: string;
  shortcode: string | null;
  color: string | null;
  text_color: string | null;
  minimum_staffing: number;
}

/**
 * Non-deleted assignments that may have occurrences dated in [startDate, endDate]: started by the
 * end, not ended by an until date before the start, and, when they do not recur, not over before it.
 */
export function mayOccurBetween(eb: ExpressionBuilder<Database, 'assignment'>, startDate: string, endDate: string) {
  return eb.and([
    eb('assignment.deleted_at', 'is', null),
    eb('assignment.date', '<=', endDate),
    eb.or([eb('assignment.until_date', 'is', null), eb('assignment.until_date', '>=', startDate)]),
    eb.or([eb('assignment.rrule', 'is not', null), eb('assignment.end', '>=', startDate)]),
  ]);
}

const assignmentsByIdsQuery = compiledOnce((db: Db, orgId: number, ids: number[]) =>
  orgRows(db, 'assignment', orgId).where('id', 'in', ids).where('deleted_at', 'is', null),
);

/** The organization's non-deleted assignments of the ids, by id. */
export async function findAssignmentsByIds(
  db: Db,
  orgId: number,
  ids: Iterable<number>,
): Promise<Map<number, AssignmentRow>> {
  return rowsById(
    [...ids].filter((id) => Number.isInteger(id)),
    (unique) => assignmentsByIdsQuery(db, orgId, unique),
  );
}

export interface ScheduleAssignments {
  assignments: AssignmentRow[];
  /** `assignment_id|date` of finalized days */
  finalized: Set<string>;
  qualifiersNeeded: Map<number, QualifierNeeded[]>;
}

/**
 * Non-deleted assignments that may have occurrences dated in [startDate, endDate], with their
 * finalized dates in the range and their qualifier minimums, in one statement.
 */
export async function assignmentsForSchedule(
  db: Db,
  orgId: number,
  startDate: string,
  endDate: string,
): Promise<ScheduleAssignments> {
  const rows = await db
    .selectFrom('assignment')
    .selectAll('assignment')
    .select((eb) => [
      jsonArrayFrom(
        db,
        eb
          .selectFrom('assignment_finalization as f')
          .select('f.date')
          .where('f.organization_id', '=', orgId)
          .whereRef('f.assignment_id', '=', 'assignment.id')
          .where('f.date', '>=', startDate)
          .where('f.date', '<=', endDate),
      ).as('finalized_dates'),
      jsonArrayFrom(
        db,
        eb
          .selectFrom('assignment_qualifier as aq')
          .innerJoin('qualifier as q', sameOrg('q.id', 'aq.qualifier_id'))
          .select(['q.id', 'q.name', 'q.shortcode', 'q.color', 'q.text_color', 'aq.minimum_staffing'])
          .where('aq.organization_id', '=', orgId)
          .whereRef('aq.assignment_id', '=', 'assignment.id')
          .where('q.deleted_at', 'is', null)
          .orderBy('aq.id'),
      ).as('qualifiers_needed'),
    ])
    .where('assignment.organization_id', '=', orgId)
    .where((eb) => mayOccurBetween(eb, startDate, endDate))
    .orderBy('assignment.position')
    .orderBy('assignment.id')
    .execute();
  const result: ScheduleAssignments = { assignments: [], finalized: new Set(), qualifiersNeeded: new Map() };
  for (const { finalized_dates, qualifiers_needed, ...assignment } of rows) {
    result.assignments.push(assignment);
    for (const { date } of parseJsonArray<{ date: string }>(finalized_dates))
      result.finalized.add(`${assignment.id}|${date}`);
    const needed = parseJsonArray<QualifierNeeded>(qualifiers_needed);
    if (needed.length > 0) result.qualifiersNeeded.set(assignment.id, needed);
  }
  return result;
}

export type ExceptionOfMember = Pick<RecurringShiftExceptionRow, 'date' | 'kind' | 'assignment_id' | 'start' | 'end'>;
export type MemberRow = RecurringShiftRow & {
  anchor_date: string;
  pattern: string;
  kelly_every: number | null;
  rotation_name: string;
  kelly_code: string;
  kelly_name: string;
  exceptions: unknown;
};

/** Members with their rotation and, in the same statement, their exceptions between the dates. */
function membersWithExceptions(db: Db, orgId: number, fromDate: string, toDate: string) {
  return db
    .selectFrom('recurring_shift')
    .innerJoin('rotation', sameOrg('rotation.id', 'recurring_shift.rotation_id'))
    .selectAll('recurring_shift')
    .select([
      'rotation.anchor_date',
      'rotation.pattern',
      'rotation.kelly_every',
      'rotation.name as rotation_name',
      'rotation.kelly_code',
      'rotation.kelly_name',
    ])
    .select((eb) =>
      jsonArrayFrom(
        db,
        eb
          .selectFrom('recurring_shift_exception as e')
          .select(['e.date', 'e.kind', 'e.assignment_id', 'e.start', 'e.end'])
          .where('e.organization_id', '=', orgId)
          .whereRef('e.recurring_shift_id', '=', 'recurring_shift.id')
          .where('e.date', '>=', fromDate)
          .where('e.date', '<=', toDate),
      ).as('exceptions'),
    )
    .where('recurring_shift.organization_id', '=', orgId)
    .orderBy('recurring_shift.id');
}

const activeMembersQuery = (db: Db, orgId: number, fromDate: string, toDate: string) =>
  membersWithExceptions(db, orgId, fromDate, toDate)
    .where('recurring_shift.start_date', '<=', toDate)
    .where((eb) => eb.or([eb('recurring_shift.end_date', 'is', null), eb('recurring_shift.end_date', '>=', fromDate)]))
    .execute();

/**
 * Every membership of the users, whatever its dates: SQLite's planner, given the dates too, would
 * take the date index and read every member of the organization who started before the end date,
 * where the user index reads the few rows of these users. The dates are checked on the rows.
 */
const membersOfUsersQuery = compiledOnce((db: Db, orgId: number, fromDate: string, toDate: string, userIds: number[]) =>
  membersWithExceptions(db, orgId, fromDate, toDate).where('recurring_shift.user_id', 'in', userIds),
);

/** The rotation members active between the dates (of the users, when named), with their exceptions there. */
export async function loadMembers(
  db: Db,
  orgId: number,
  fromDate: string,
  toDate: string,
  userIds?: number[],
): Promise<MemberRow[]> {
  if (userIds === undefined) return activeMembersQuery(db, orgId, fromDate, toDate);
  const rows = await membersOfUsersQuery(db, orgId, fromDate, toDate, userIds.length ? userIds : [0]);
  return rows.filter((m) => m.start_date <= toDate && (m.end_date === null || m.end_date >= fromDate));
}

const oneOffShiftsOfUsersQuery = compiledOnce((db: Db, orgId: number, start: string, end: string, userIds: number[]) =>
  orgRows(db, 'shift', orgId).where('start', '<', end).where('end', '>', start).where('user_id', 'in', userIds),
);

/** One-off shifts overlapping [start, end) (of the users, of the assignments, when named). */
export function loadOneOffShifts(
  db: Db,
  orgId: number,
  range: { start: string; end: string; userIds?: number[]; assignmentIds?: number[] },
) {
  if (range.userIds && !range.assignmentIds)
    return oneOffShiftsOfUsersQuery(db, orgId, range.start, range.end, range.userIds.length ? range.userIds : [0]);
  return orgRows(db, 'shift', orgId)
    .where('start', '<', range.end)
    .where('end', '>', range.start)
    .$if(range.userIds !== undefined, (qb) => qb.where('user_id', 'in', range.userIds!.length ? range.userIds! : [0]))
    .$if(range.assignmentIds !== undefined, (qb) =>
      qb.where('assignment_id', 'in', range.assignmentIds!.length ? range.assignmentIds! : [0]),
    )
    .execute();
}

function approvedQuery(db: Db, orgId: number, startLocal: string, endLocal: string, countedAsApproved: number[] = []) {
  return db
    .selectFrom('time_off')
    .innerJoin('time_off_type', sameOrg('time_off_type.id', 'time_off.time_off_type_id'))
    .select([
      'time_off.id',
      'time_off.user_id',
      'time_off.admin_id',
      'time_off.start',
      'time_off.end',
      'time_off.rrule',
      'time_off.status',
      'time_off_type.id as type_id',
      'time_off_type.label as type_label',
      'time_off_type.work_code as type_work_code',
      'time_off_type.primary_color as type_color',
      'time_off_type.secondary_color as type_text_color',
      'time_off_type.force_include as type_force_include',
      'time_off_type.default_day_hours as type_default_day_hours',
      'time_off_type.counts_as_worked as type_counts_as_worked',
      'time_off_type.callback_exclusion_hours as type_callback_exclusion_hours',
      'time_off_type.masked as type_masked',
      'time_off_type.public_name as type_public_name',
    ])
    .where('time_off.organization_id', '=', orgId)
    .where('time_off.deleted_at', 'is', null)
    .where((eb) =>
      countedAsApproved.length
        ? eb.or([eb('time_off.status', '=', APPROVED), eb('time_off.id', 'in', countedAsApproved)])
        : eb('time_off.status', '=', APPROVED),
    )
    .where('time_off.start', '<', endLocal)
    .where((eb) => eb.or([eb('time_off.until', 'is', null), eb('time_off.until', '>=', startLocal)]))
    .orderBy('time_off.start')
    .orderBy('time_off.id');
}

const approvedOfAllQuery = (db: Db, orgId: number, startLocal: string, endLocal: string) =>
  approvedQuery(db, orgId, startLocal, endLocal).execute();
const approvedOfUsersQuery = compiledOnce(
  (db: Db, orgId: number, startLocal: string, endLocal: string, userIds: number[]) =>
    approvedQuery(db, orgId, startLocal, endLocal).where('time_off.user_id', 'in', userIds),
);

/**
 * Time off rows approved (or named in `countedAsApproved`) that may have occurrences overlapping
 * [startLocal, endLocal), with their type; of the users when named. One statement.
 */
export function approvedTimeOffRows(
  db: Db,
  orgId: number,
  startLocal: string,
  endLocal: string,
  userIds?: number[],
  countedAsApproved: number[] = [],
) {
  if (countedAsApproved.length)
    return approvedQuery(db, orgId, startLocal, endLocal, countedAsApproved)
      .$if(userIds !== undefined, (qb) => qb.where('time_off.user_id', 'in', userIds!.length ? userIds! : [0]))
      .execute();
  return userIds
    ? approvedOfUsersQuery(db, orgId, startLocal, endLocal, userIds.length ? userIds : [0])
    : approvedOfAllQuery(db, orgId, startLocal, endLocal);
}

/** Hours a day of time off of each type charges a user with no scheduled work, by type id. */
export async function defaultDayHoursOf(db: Db, orgId: number, typeIds: number[]): Promise<Map<number, number>> {
  const unique = [...new Set(typeIds)];
  if (unique.length === 0) return new Map();
  const rows = await orgColumns(db, 'time_off_type', orgId, ['id', 'default_day_hours'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.default_day_hours)]));
}

/** Misc hours dated in [startDate, endDate] (of one user, when named): hours worked for overtime. */
export function miscHoursOf(db: Db, orgId: number, startDate: string, endDate: string, userId?: number) {
  return orgColumns(db, 'misc_hour', orgId, ['user_id', 'date', 'length'])
    .where('date', '>=', startDate)
    .where('date', '<=', endDate)
    .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId!))
    .orderBy('date')
    .orderBy('id')
    .execute();
}

/**
 * The timed misc hours (a sign-up's, or entered with a start and an end) of the users overlapping
 * [start, end): worked hours the fatigue rules weigh. Entries of a date and a length only have no
 * place in time and are left out.
 */
export function timedMiscHours(db: Db, orgId: number, userIds: number[], range: { start: string; end: string }) {
  if (userIds.length === 0) return Promise.resolve([]);
  return orgColumns(db, 'misc_hour', orgId, ['user_id', 'start', 'end', 'notes'])
    .where('user_id', 'in', userIds)
    .where('start', 'is not', null)
    .where('end', 'is not', null)
    .where('start', '<', range.end)
    .where('end', '>', range.start)
    .execute() as Promise<Array<{ user_id: number; start: string; end: string; notes: string | null }>>;
}

/**
 * The misc hours of the users entered with a date and a length only (no times), dated from
 * `firstDate` to `lastDate`: the fatigue rules count them in a work period's hours only.
 */
export async function datedMiscHours(db: Db, orgId: number, userIds: number[], firstDate: string, lastDate: string) {
  if (userIds.length === 0) return [];
  const rows = await orgColumns(db, 'misc_hour', orgId, ['user_id', 'date', 'length'])
    .where('user_id', 'in', userIds)
    .where('start', 'is', null)
    .where('date', '>=', firstDate)
    .where('date', '<=', lastDate)
    .execute();
  return rows.map((row) => ({ user_id: row.user_id, date: row.date, length: Number(row.length) }));
}

/*
 * What a person is qualified for: their user qualifiers, and each current certification whose
 * `cert_id` is a qualifier's shortcode (case ignored) grants that qualifier from `issued_on` to
 * `expires_on` (docs/schedule.md). Both come as JSON array columns of a user row, so a loader that
 * reads users (the schedule's) gets them in the same statement.
 */

type UserEb = ExpressionBuilder<Database & { user_account: Database['user_account'] }, 'user_account'>;

export function qualificationColumns(db: Db, eb: UserEb, orgId: number) {
  return [
    jsonArrayFrom(
      db,
      eb
        .selectFrom('user_qualifier as uq')
        .innerJoin('qualifier as uqq', sameOrg('uqq.id', 'uq.qualifier_id'))
        .select('uq.qualifier_id')
        .where('uq.organization_id', '=', orgId)
        .whereRef('uq.user_id', '=', 'user_account.id')
        .where('uqq.deleted_at', 'is', null),
    ).as('qualifier_ids'),
    jsonArrayFrom(
      db,
      eb
        .selectFrom('user_certification as uc')
        .innerJoin('certification as c', sameOrg('c.id', 'uc.certification_id'))
        .innerJoin('qualifier as cq', (join) =>
          join
            .onRef('cq.organization_id', '=', 'uc.organization_id')
            .on((e) => e(e.fn('lower', ['cq.shortcode']), '=', e.fn('lower', ['c.cert_id']))),
        )
        .select(['cq.id as qualifier_id', 'uc.issued_on', 'uc.expires_on'])
        .where('uc.organization_id', '=', orgId)
        .whereRef('uc.user_id', '=', 'user_account.id')
        .where('c.deleted_at', 'is', null)
        .where('cq.deleted_at', 'is', null),
    ).as('certified'),
  ] as const;
}

/** The two columns of qualificationColumns read back. */
export function qualificationOf(row: { qualifier_ids: unknown; certified: unknown }): Qualification {
  return {
    qualifierIds: parseJsonArray<{ qualifier_id: number }>(row.qualifier_ids).map((q) => Number(q.qualifier_id)),
    certifications: parseJsonArray<{ qualifier_id: number; issued_on: string | null; expires_on: string | null }>(
      row.certified,
    ).map((c) => ({
      ...c,
      qualifier_id: Number(c.qualifier_id),
    })),
  };
}

/** The qualifications of the users (every active user of the organization when none are named). One statement. */
export async function loadQualifications(db: Db, orgId: number, userIds?: number[]): Promise<Qualifications> {
  const rows = await db
    .selectFrom('user_account')
    .select('user_account.id')
    .select((eb) => qualificationColumns(db, eb, orgId))
    .where('user_account.organization_id', '=', orgId)
    .$if(userIds !== undefined, (qb) => qb.where('user_account.id', 'in', userIds!.length ? userIds! : [0]))
    .execute();
  return new Map(rows.map((row) => [row.id, qualificationOf(row)]));
}

export interface Person {
  user: UserRow;
  groups: { id: number; label: string }[];
  /** what the person is qualified for (staffing) */
  qualification: Qualification;
}

/** Above this many ids, reading the organization's users beats a long `in (…)` list. */
const WHOLE_ORGANIZATION_THRESHOLD = 300;

/** Users (deleted ones too: they are still named on old shifts) with their groups, in one statement. */
export async function peopleByIds(db: Db, orgId: number, ids: Iterable<number>): Promise<Map<number, Person>> {
  const unique = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0);
  // no early return when there is none: GET /schedule runs the same statements whatever it holds
  const rows = await db
    .selectFrom('user_account')
    .selectAll('user_account')
    .select((eb) =>
      jsonArrayFrom(
        db,
        eb
          .selectFrom('user_group_member as m')
          .innerJoin('user_group as g', sameOrg('g.id', 'm.group_id'))
          .select(['g.id', 'g.name as label'])
          .where('m.organization_id', '=', orgId)
          .whereRef('m.user_id', '=', 'user_account.id')
          .orderBy('g.name'),
      ).as('groups'),
    )
    .select((eb) => qualificationColumns(db, eb, orgId))
    .where('user_account.organization_id', '=', orgId)
    .$if(unique.length <= WHOLE_ORGANIZATION_THRESHOLD, (qb) =>
      qb.where('user_account.id', 'in', unique.length ? unique : [0]),
    )
    .execute();
  const wanted = new Set(unique);
  const people = new Map<number, Person>();
  for (const { groups, qualifier_ids, certified, ...user } of rows) {
    if (wanted.has(user.id))
      people.set(user.id, {
        user,
        groups: parseJsonArray(groups),
        qualification: qualificationOf({ qualifier_ids, certified }),
      });
  }
  return people;
}

/** The users' "not available" periods overlapping [start, end), with their reason's name, by start. */
export function availabilityPeriodsOf(db: Db, orgId: number, userIds: number[], span: { start: string; end: string }) {
  return db
    .selectFrom('availability_period')
    .leftJoin(
      'unavailability_reason',
      sameOrg('unavailability_reason.id', 'availability_period.unavailability_reason_id'),
    )
    .select([
      'availability_period.user_id',
      'availability_period.start',
      'availability_period.end',
      'unavailability_reason.name as reason',
    ])
    .where('availability_period.organization_id', '=', orgId)
    .where('availability_period.user_id', 'in', userIds)
    .where('availability_period.deleted_at', 'is', null)
    .where('availability_period.start', '<', span.end)
    .where('availability_period.end', '>', span.start)
    .orderBy('availability_period.start')
    .execute();
}

// availability (availability.ts)

/** Names of the assignments (deleted ones too, flagged), and whether their work counts as work. */
export async function assignmentsByIds(
  db: Db,
  orgId: number,
  ids: number[],
  known?: ReadonlyMap<number, AssignmentRow>,
): Promise<Map<number, { name: string; is_work_shift: number; deleted: boolean }>> {
  const unique = [...new Set(ids)].filter((id) => !known?.has(id));
  const rows =
    unique.length === 0
      ? []
      : await orgColumns(db, 'assignment', orgId, ['id', 'name', 'is_work_shift', 'deleted_at'])
          .where('id', 'in', unique)
          .execute();
  type Named = { name: string; is_work_shift: number; deleted: boolean };
  const byId = new Map<number, Named>();
  // the known rows: non-deleted assignments read in the same transaction
  for (const id of new Set(ids)) {
    const row = known?.get(id);
    if (row) byId.set(id, { name: row.name, is_work_shift: Number(row.is_work_shift), deleted: false });
  }
  for (const row of rows)
    byId.set(row.id, { name: row.name, is_work_shift: Number(row.is_work_shift), deleted: row.deleted_at !== null });
  return byId;
}

/** Work types whose hours do not count toward a callback list's limits (`excludes_from_callback`). */
export async function workTypesExcludedFromLimits(db: Db, orgId: number): Promise<Set<number>> {
  const rows = await orgColumns(db, 'work_type', orgId, ['id']).where('excludes_from_callback', '=', 1).execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * When each user was last forced (local datetime), the latest over the forced lists of their
 * groups (docs/contract-rules.md, "Forced hire"): a callback decision record's `last_forced` input
 * (read afresh by callbacks, never cached).
 */
export async function lastForced(db: Db, orgId: number, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('forced_member')
    .select((eb) => ['user_id', eb.fn.max('last_forced_at').as('last_forced')])
    .where('organization_id', '=', orgId)
    .where('user_id', 'in', userIds)
    .groupBy('user_id')
    .execute();
  return new Map(rows.filter((r) => r.last_forced !== null).map((r) => [r.user_id, String(r.last_forced)]));
}

/**
 * Accepted callbacks of the users overlapping the range, with the hours each user accepted (start, end):
 * of one list only with `listId`, and only those not on an assignment (no shift shows the work) with `unplacedOnly`.
 */
export async function acceptedCallbacks(
  db: Db,
  orgId: number,
  userIds: number[],
  range: { start: string; end: string },
  only: { listId?: number; unplacedOnly?: boolean } = {},
) {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('callback_user')
    .innerJoin('callback', sameOrg('callback.id', 'callback_user.callback_id'))
    .select([
      'callback_user.user_id',
      'callback.id as callback_id',
      'callback.start',
      'callback.end',
      'callback_user.start_time',
      'callback_user.end_time',
    ])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback_user.status', '=', 'accepted')
    .where('callback_user.user_id', 'in', userIds)
    .where('callback.end', '>', range.start)
    .where('callback.start', '<', range.end)
    .$if(only.listId !== undefined, (qb) => qb.where('callback.list_id', '=', only.listId!))
    .$if(only.unplacedOnly === true, (qb) => qb.where('callback.assignment_id', 'is', null))
    .execute();
  return rows.map((row) => ({
    user_id: row.user_id,
    callback_id: row.callback_id,
    start: row.start_time ?? row.start,
    end: row.end_time ?? row.end,
  }));
}

// the contract's rules: off limits (off-limits.ts) and group minimums (group-staffing.ts)

/** The organization's off-limit rules, by id. */
export function offLimitRules(db: Db, orgId: number) {
  return orgRows(db, 'off_limit', orgId).orderBy('id').execute();
}

/** The assignment groups each assignment belongs to (non-deleted groups), by assignment id. */
export async function groupsOfAssignments(db: Db, orgId: number, assignmentIds: number[]) {
  const unique = [...new Set(assignmentIds)];
  const result = new Map<number, number[]>();
  if (unique.length === 0) return result;
  const rows = await db
    .selectFrom('assignment_group_member as m')
    .innerJoin('assignment_group as g', sameOrg('g.id', 'm.group_id'))
    .select(['m.assignment_id', 'm.group_id'])
    .where('m.organization_id', '=', orgId)
    .where('m.assignment_id', 'in', unique)
    .where('g.deleted_at', 'is', null)
    .execute();
  for (const row of rows) result.set(row.assignment_id, [...(result.get(row.assignment_id) ?? []), row.group_id]);
  return result;
}

/** The non-deleted visual cycles of the names (case ignored) meeting the dates [firstDate, lastDate]. */
export async function platoonDates(db: Db, orgId: number, names: string[], firstDate: string, lastDate: string) {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  if (wanted.size === 0) return [];
  const rows = await orgRows(db, 'visual_cycle', orgId)
    .select(['name', 'start', 'end'])
    .where('deleted_at', 'is', null)
    .where('start', '<=', lastDate)
    .where('end', '>=', firstDate)
    .execute();
  return rows.filter((row) => wanted.has(row.name.toLowerCase()));
}

/** Names of the users, by id (deleted users too). */
export async function userNamesOf(db: Db, orgId: number, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await orgRows(db, 'user_account', orgId)
    .select(['id', 'first_name', 'last_name'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((row) => [row.id, `${row.first_name} ${row.last_name}`.trim()]));
}

/**
 * The group minimums (docs/contract-rules.md) with each group's name and assignments and the
 * shortcodes of the qualifiers they need, in one statement.
 */
export async function groupMinimums(db: Db, orgId: number) {
  const rows = await db
    .selectFrom('group_minimum as gm')
    .innerJoin('assignment_group as g', sameOrg('g.id', 'gm.assignment_group_id'))
    .select(['gm.assignment_group_id as id', 'g.name', 'g.color', 'gm.min_on_duty', 'gm.min_qualified'])
    .select((eb) =>
      jsonArrayFrom(
        db,
        eb
          .selectFrom('assignment_group_member as m')
          .select('m.assignment_id')
          .where('m.organization_id', '=', orgId)
          .whereRef('m.group_id', '=', 'gm.assignment_group_id'),
      ).as('assignments'),
    )
    .where('gm.organization_id', '=', orgId)
    .where('g.deleted_at', 'is', null)
    .orderBy('g.name')
    .orderBy('g.id')
    .execute();
  const qualifierIds = rows.flatMap((row) =>
    parseJsonArray<{ qualifier_id: number }>(row.min_qualified).map((q) => q.qualifier_id),
  );
  const qualifiers = qualifierIds.length
    ? await orgRows(db, 'qualifier', orgId).select(['id', 'shortcode']).where('id', 'in', qualifierIds).execute()
    : [];
  const shortcodes = new Map(qualifiers.map((q) => [q.id, q.shortcode]));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    color: row.color,
    min_on_duty: row.min_on_duty,
    min_qualified: parseJsonArray<{ qualifier_id: number; count: number }>(row.min_qualified).map((q) => ({
      ...q,
      shortcode: shortcodes.get(q.qualifier_id) ?? null,
    })),
    assignmentIds: parseJsonArray<{ assignment_id: number }>(row.assignments).map((a) => Number(a.assignment_id)),
  }));
}

/** Whose hours of work a trade's hours are in the organization (trade-hours.ts): `scheduled` or `worker`. */
export async function tradeHoursCountFor(db: Db, orgId: number): Promise<string> {
  const row = await db
    .selectFrom('organization')
    .select('trade_hours_count_for')
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  return row.trade_hours_count_for;
}

/** The users who work shifts traded with (taken over from) the named users overlapping [start, end). */
export async function tradeSubstitutesOf(
  db: Db,
  orgId: number,
  ownerIds: number[],
  span: { start: string; end: string },
): Promise<number[]> {
  if (ownerIds.length === 0) return [];
  const rows = await db
    .selectFrom('shift')
    .select('user_id')
    .distinct()
    .where('organization_id', '=', orgId)
    .where('traded_with', 'in', ownerIds)
    .where('start', '<', span.end)
    .where('end', '>', span.start)
    .execute();
  return rows.map((row) => row.user_id);
}

/** The organization's fatigue rules, work period and zone (fatigue.ts; null columns = rules off). */
const fatigueSettingQuery = compiledOnce((db: Db, orgId: number) =>
  db
    .selectFrom('organization')
    .select([
      'timezone',
      'work_period_days',
      'work_period_hours',
      'work_period_start',
      'fatigue_max_consecutive_hours',
      'fatigue_stretch_break_hours',
      'fatigue_rest_hours',
      'fatigue_rest_after_hours',
      'fatigue_rest_within_hours',
      'fatigue_max_period_hours',
    ])
    .where('id', '=', orgId),
);

export async function fatigueSettingOf(db: Db, orgId: number): Promise<FatigueSetting> {
  const [row] = await fatigueSettingQuery(db, orgId);
  if (!row) throw new Error(`organization ${orgId} not found`);
  const hours = (value: number | string | null) => (value === null ? null : Number(value));
  return {
    timezone: row.timezone,
    workPeriod: {
      days: Number(row.work_period_days),
      threshold_hours: Number(row.work_period_hours),
      start: row.work_period_start,
    },
    rules: {
      max_consecutive_hours: hours(row.fatigue_max_consecutive_hours),
      stretch_break_hours: Number(row.fatigue_stretch_break_hours),
      rest_hours: hours(row.fatigue_rest_hours),
      rest_after_hours: hours(row.fatigue_rest_after_hours),
      rest_within_hours: hours(row.fatigue_rest_within_hours),
      max_period_hours: hours(row.fatigue_max_period_hours),
    },
  };
}

/*
 * What the schedule's shifts name besides users (lookups.ts): work types with their subtypes, and
 * the labels and qualifiers of one-off shifts. The shifts resource reads them the same way.
 */

export interface LabelOfShift {
  shift_id: number;
  id: number;
  label: string;
  color: string;
  text_color: string;
}

export interface QualifierOfShift {
  shift_id: number;
  id: number;
  name: string;
  shortcode: string | null;
  color: string | null;
  text_color: string | null;
}

export interface SubtypeOfType {
  id: number;
  work_type_id: number;
  label: string;
  work_code: string | null;
}

/** Work types keyed by id, and their live subtypes, in one query. */
export async function workTypesByIds(
  db: Db,
  orgId: number,
  ids: number[],
): Promise<{ types: Map<number, WorkTypeRow>; subtypes: SubtypeOfType[] }> {
  const unique = [...new Set(ids)];
  // no early return when there is none: GET /schedule runs the same statements whatever it holds
  const rows = await db
    .selectFrom('work_type')
    .leftJoin('work_subtype', (join) =>
      join
        .onRef('work_subtype.work_type_id', '=', 'work_type.id')
        .onRef('work_subtype.organization_id', '=', 'work_type.organization_id')
        .on('work_subtype.deleted_at', 'is', null),
    )
    .selectAll('work_type')
    .select([
      'work_subtype.id as subtype_id',
      'work_subtype.label as subtype_label',
      'work_subtype.work_code as subtype_work_code',
    ])
    .where('work_type.organization_id', '=', orgId)
    .where('work_type.id', 'in', unique.length ? unique : [0])
    .orderBy('work_subtype.id')
    .execute();
  const types = new Map<number, WorkTypeRow>();
  const subtypes: SubtypeOfType[] = [];
  for (const { subtype_id, subtype_label, subtype_work_code, ...type } of rows) {
    types.set(type.id, type);
    if (subtype_id !== null && subtype_label !== null) {
      subtypes.push({ id: subtype_id, work_type_id: type.id, label: subtype_label, work_code: subtype_work_code });
    }
  }
  return { types, subtypes };
}

export interface ShiftTags {
  labels: Map<number, LabelOfShift[]>;
  qualifiers: Map<number, QualifierOfShift[]>;
}

/** One-off shifts' ids with their labels and qualifiers, as JSON array columns. */
function tagsQuery(db: Db, orgId: number) {
  return db
    .selectFrom('shift')
    .select('shift.id')
    .select((eb) => [
      jsonArrayFrom(
        db,
        eb
          .selectFrom('shift_label as sl')
          .innerJoin('label as l', sameOrg('l.id', 'sl.label_id'))
          .select(['sl.shift_id', 'l.id', 'l.label', 'l.color', 'l.text_color'])
          .where('sl.organization_id', '=', orgId)
          .whereRef('sl.shift_id', '=', 'shift.id')
          .where('l.deleted_at', 'is', null)
          .orderBy('l.position')
          .orderBy('l.id'),
      ).as('labels'),
      jsonArrayFrom(
        db,
        eb
          .selectFrom('shift_qualifier as sq')
          .innerJoin('qualifier as q', sameOrg('q.id', 'sq.qualifier_id'))
          .select(['sq.shift_id', 'q.id', 'q.name', 'q.shortcode', 'q.color', 'q.text_color'])
          .where('sq.organization_id', '=', orgId)
          .whereRef('sq.shift_id', '=', 'shift.id')
          .where('q.deleted_at', 'is', null)
          .orderBy('q.name')
          .orderBy('q.id'),
      ).as('qualifiers'),
    ])
    .where('shift.organization_id', '=', orgId);
}

function tagsOfRows(rows: Array<{ id: number; labels: unknown; qualifiers: unknown }>): ShiftTags {
  const tags: ShiftTags = { labels: new Map(), qualifiers: new Map() };
  for (const row of rows) {
    const labels = parseJsonArray<LabelOfShift>(row.labels);
    const qualifiers = parseJsonArray<QualifierOfShift>(row.qualifiers);
    if (labels.length > 0) tags.labels.set(row.id, labels);
    if (qualifiers.length > 0) tags.qualifiers.set(row.id, qualifiers);
  }
  return tags;
}

/** Labels and qualifiers of one-off shifts, in one statement. */
export async function tagsOfShifts(db: Db, orgId: number, shiftIds: number[]): Promise<ShiftTags> {
  // no early return when there is none: GET /schedule runs the same statements whatever it holds
  const ids = shiftIds.length ? [...new Set(shiftIds)] : [0];
  return tagsOfRows(await tagsQuery(db, orgId).where('shift.id', 'in', ids).execute());
}

const tagsOfUsersQuery = compiledOnce((db: Db, orgId: number, start: string, end: string, userIds: number[]) =>
  tagsQuery(db, orgId)
    .where('shift.start', '<', end)
    .where('shift.end', '>', start)
    .where('shift.user_id', 'in', userIds),
);

/**
 * Labels and qualifiers of the users' one-off shifts overlapping [start, end), with the ids of
 * every such shift (tagged or not), in one statement: read without waiting for the shifts' ids.
 */
export async function tagsOfUsersShifts(
  db: Db,
  orgId: number,
  userIds: number[],
  span: { start: string; end: string },
): Promise<ShiftTags & { shiftIds: Set<number> }> {
  const rows = await tagsOfUsersQuery(db, orgId, span.start, span.end, userIds.length ? userIds : [0]);
  return { ...tagsOfRows(rows), shiftIds: new Set(rows.map((row) => row.id)) };
}

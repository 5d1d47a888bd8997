import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { href } from '../../core/pagination.js';
import { addDays, datesFromTo, formatLocalDateTime, hoursBetween, MAX_SPAN_DAYS, normalizeLocalDateTime, parseLocalDateTime, Temporal } from '../../core/time.js';
import type { QualifierNeeded } from '../assignments/repository.js';
import { assignmentOccurrences, type AssignmentOccurrence } from '../assignments/recurrence.js';
import type { AssignmentRow } from '../assignments/table.js';
import { expandWork, LOOKBACK_DAYS, type WorkItem } from '../rotations/expand.js';
import { tagsOfShifts, workTypesByIds, type LabelOfShift, type QualifierOfShift } from '../shifts/repository.js';
import { approvedTimeOffs, type ApprovedTimeOff } from '../time-offs/schedule.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { WorkSubtypeRow, WorkTypeRow } from '../work-types/table.js';
import { callbacksForSchedule } from '../callbacks/schedule.js';
import { notesForRange } from '../day-notes/repository.js';
import { miscForRange } from '../misc-hours/repository.js';
import { tradesForSchedule } from '../trades/schedule.js';
import { assignmentsForSchedule, peopleByIds } from './repository.js';
import type { ScheduleAssignment, ScheduleDay, ScheduleResponse, ScheduleShift, ScheduleTimeOff, ScheduleUserRef } from './schemas.js';

type Request = FastifyRequest;

/** A time off belongs to the dates from its start date to the day before its end date (at least its start date). */
export function datesCovered(start: string, end: string): string[] {
  const first = start.slice(0, 10);
  const endDate = end.slice(0, 10);
  const last = endDate > first ? addDays(endDate, -1) : first;
  return datesFromTo(first, last);
}

/** The spec's day.callbacks / day.trades items have no `date`: the day they sit under is theirs. */
function withoutDate<T extends { date: string }>({ date: _date, ...item }: T): Omit<T, 'date'> {
  return item;
}

/** Time off removes a user from the rotation occurrences it covers entirely. */
export function withoutTimeOff(items: WorkItem[], timeOff: ApprovedTimeOff[]): WorkItem[] {
  return items.filter(
    (item) => !item.recurring || !timeOff.some((t) => t.user_id === item.user_id && t.start <= item.start && t.end >= item.end),
  );
}

function periodOf(query: { start: string; end: string }) {
  const start = normalizeLocalDateTime(query.start);
  const end = normalizeLocalDateTime(query.end);
  if (end <= start) throw invalidParams('The end must be a date after start.');
  // before the dates are listed: 0001 to 9999 would be 3.6 million of them
  if (hoursBetween(start, end, 'UTC') > (MAX_SPAN_DAYS + 1) * 24) throw invalidParams(`The period may not be longer than ${MAX_SPAN_DAYS} days.`);
  const startDt = parseLocalDateTime(start)!;
  const endDt = parseLocalDateTime(end)!;
  const endDate = end.slice(0, 10);
  const days = datesFromTo(start.slice(0, 10), end.endsWith(' 00:00:00') ? addDays(endDate, -1) : endDate);
  if (days.length > MAX_SPAN_DAYS) throw invalidParams(`The period may not be longer than ${MAX_SPAN_DAYS} days.`);
  return { start, end, startDt, endDt, days };
}

/** `start=2015-03-08%2008:00:00`: spaces escaped, colons kept, as the samples write the links. */
function scheduleLink(request: Request, start: Temporal.PlainDateTime, end: Temporal.PlainDateTime): { href: string } {
  const encode = (dt: Temporal.PlainDateTime) => encodeURIComponent(formatLocalDateTime(dt)).replace(/%3A/g, ':');
  return { href: `${href(request, '/schedule')}?start=${encode(start)}&end=${encode(end)}` };
}

/** Rows grouped by a key, in their order. */
function groupBy<T, K>(items: T[], keysOf: (item: T) => K[]): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    for (const key of keysOf(item)) {
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
  }
  return groups;
}

interface Lookups {
  users: Map<number, UserRow>;
  workTypes: Map<number, WorkTypeRow>;
  subtypesByType: Map<number, Pick<WorkSubtypeRow, 'id' | 'label'>[]>;
  labelsByShift: Map<number, LabelOfShift[]>;
  qualifiersByShift: Map<number, QualifierOfShift[]>;
  groupsByUser: Map<number, { id: number; label: string }[]>;
}

function userRefOf(request: Request, users: Map<number, UserRow>, id: number): ScheduleUserRef {
  const user = users.get(id);
  return { id, href: href(request, `/users/${id}`), name: user ? fullName(user) : '' };
}

function shiftItem(request: Request, item: WorkItem, lookups: Lookups): ScheduleShift {
  const workType = lookups.workTypes.get(item.work_type_id);
  const shiftLabels = item.shift_id === null ? [] : lookups.labelsByShift.get(item.shift_id) ?? [];
  const shiftQualifiers = item.shift_id === null ? [] : lookups.qualifiersByShift.get(item.shift_id) ?? [];
  return {
    id: item.id,
    href: href(request, item.recurring ? `/recurring_shifts/${item.id}` : `/shifts/${item.id}`),
    start: item.start,
    end: item.end,
    length: item.length,
    break_start: item.break_start,
    break_end: item.break_end,
    break_length: item.break_length,
    hold_over: item.hold_over,
    recurring: item.recurring,
    user: userRefOf(request, lookups.users, item.user_id),
    scheduled_by: item.scheduled_by === null ? null : userRefOf(request, lookups.users, item.scheduled_by),
    work_type: {
      id: item.work_type_id,
      href: href(request, `/work_types/${item.work_type_id}`),
      name: workType?.label ?? '',
      work_code: workType?.work_code ?? null,
      color: workType?.primary_color ?? '',
      text_color: workType?.secondary_color ?? '',
      subtypes: (lookups.subtypesByType.get(item.work_type_id) ?? []).map((s) => ({ id: s.id, label: s.label })),
    },
    labels: shiftLabels.map((l) => ({ id: l.id, href: href(request, `/labels/${l.id}`), label: l.label, color: l.color, text_color: l.text_color })),
    qualifiers: shiftQualifiers.map((q) => ({
      id: q.id,
      href: href(request, `/qualifiers/${q.id}`),
      shortcode: q.shortcode,
      name: q.name,
      color: q.color,
      text_color: q.text_color,
    })),
    groups: lookups.groupsByUser.get(item.user_id) ?? [],
  };
}

function timeOffItem(request: Request, timeOff: ApprovedTimeOff, users: Map<number, UserRow>): ScheduleTimeOff {
  const type = timeOff.time_off_type;
  return {
    id: timeOff.id,
    href: href(request, `/time_offs/${timeOff.id}`),
    start: timeOff.start,
    end: timeOff.end,
    user: userRefOf(request, users, timeOff.user_id),
    admin: timeOff.admin_id === null ? null : userRefOf(request, users, timeOff.admin_id),
    time_off_type: {
      id: type.id,
      href: href(request, `/time_off_types/${type.id}`),
      name: type.name,
      work_code: type.work_code,
      color: type.color,
      text_color: type.text_color,
      subtypes: [],
    },
  };
}

/** The day's assignments: every assignment with an occurrence or a shift on the date, in position order. */
function assignmentsOfDay(
  request: Request,
  date: string,
  assignments: AssignmentRow[],
  occurrences: Map<string, AssignmentOccurrence>,
  shiftsByKey: Map<string, ScheduleShift[]>,
  finalized: Set<string>,
  qualifiersNeeded: Map<number, QualifierNeeded[]>,
): ScheduleAssignment[] {
  return assignments.flatMap((assignment) => {
    const key = `${assignment.id}|${date}`;
    const occurrence = occurrences.get(key);
    const shifts = shiftsByKey.get(key);
    if (!occurrence && !shifts) return [];
    return [
      {
        id: assignment.id,
        href: href(request, `/assignments/${assignment.id}`),
        date,
        start: occurrence?.start ?? shifts![0]!.start,
        end: occurrence?.end ?? shifts![0]!.end,
        name: assignment.name,
        qualifiers_needed: qualifiersNeeded.get(assignment.id) ?? [],
        minimum_staffing: assignment.positions_to_fill,
        is_finalized: finalized.has(key),
        notes: assignment.notes,
        shifts: shifts ?? [],
      },
    ];
  });
}

/**
 * GET /schedule: every day of the period with its assignments and shifts, time off, callbacks,
 * trades, misc hours, notes and activities. The number of queries does not depend on the period.
 */
export async function buildSchedule(db: Db, request: Request, query: { start: string; end: string }): Promise<ScheduleResponse> {
  const { orgId, timezone } = request.auth;
  const period = periodOf(query);
  const firstDay = period.days[0]!;
  const lastDay = period.days[period.days.length - 1]!;
  // Assignments from the lookback on, so that expandWork can reuse them for occurrences that began before the period.
  const assignmentsFrom = addDays(firstDay, -LOOKBACK_DAYS);
  const assignmentsTo = period.end.slice(0, 10);
  const { assignments, finalized, qualifiersNeeded } = await assignmentsForSchedule(db, orgId, assignmentsFrom, assignmentsTo);
  const [work, timeOff, callbacks, trades, misc, notes] = await Promise.all([
    expandWork(db, orgId, { start: period.start, end: period.end, timezone, assignments }),
    approvedTimeOffs(db, orgId, period.start, period.end),
    callbacksForSchedule(db, request, period.start, period.end),
    tradesForSchedule(db, request, period.start, period.end),
    miscForRange(db, orgId, firstDay, lastDay),
    notesForRange(db, orgId, firstDay, lastDay),
  ]);
  const scheduled = withoutTimeOff(work, timeOff);
  const shiftIds = scheduled.flatMap((item) => (item.shift_id === null ? [] : [item.shift_id]));
  const userIds = [
    ...scheduled.flatMap((i) => [i.user_id, i.scheduled_by ?? 0]),
    ...timeOff.flatMap((t) => [t.user_id, t.admin_id ?? 0]),
    ...misc.map((m) => m.user_id),
  ];
  const [people, workTypes, tags] = await Promise.all([
    peopleByIds(db, orgId, userIds),
    workTypesByIds(db, orgId, scheduled.map((i) => i.work_type_id)),
    tagsOfShifts(db, orgId, shiftIds),
  ]);
  const users = new Map([...people].map(([id, person]) => [id, person.user]));
  const lookups: Lookups = {
    users,
    workTypes: workTypes.types,
    subtypesByType: groupBy(workTypes.subtypes, (s) => [s.work_type_id]),
    labelsByShift: tags.labels,
    qualifiersByShift: tags.qualifiers,
    groupsByUser: new Map([...people].map(([id, person]) => [id, person.groups])),
  };
  const occurrenceList = assignments.flatMap((assignment) => assignmentOccurrences(assignment, firstDay, lastDay, timezone));
  const occurrences = new Map<string, AssignmentOccurrence>(
    occurrenceList.filter((o) => o.start < period.end && o.end > period.start).map((o) => [`${o.assignment_id}|${o.date}`, o]),
  );
  const shiftsByKey = new Map(
    [...groupBy(scheduled, (item) => [`${item.assignment_id}|${item.date}`])].map(([key, items]) => [key, items.map((item) => shiftItem(request, item, lookups))]),
  );
  const timeOffByDate = groupBy(timeOff, (t) => datesCovered(t.start, t.end));
  const callbacksByDate = groupBy(callbacks.map(withoutDate), (c) => datesCovered(c.start, c.end));
  const tradesByDate = groupBy(trades.map(withoutDate), (t) => datesCovered(t.start, t.end));
  const miscByDate = groupBy(misc, (m) => [m.date]);
  const days: ScheduleDay[] = period.days.map((date) => ({
    date,
    assignments: assignmentsOfDay(request, date, assignments, occurrences, shiftsByKey, finalized, qualifiersNeeded),
    time_off: (timeOffByDate.get(date) ?? []).map((t) => timeOffItem(request, t, users)),
    callbacks: callbacksByDate.get(date) ?? [],
    trades: tradesByDate.get(date) ?? [],
    misc: (miscByDate.get(date) ?? []).map((m) => ({
      id: m.id,
      href: href(request, `/misc/${m.id}`),
      date: m.date,
      length: m.length,
      user: userRefOf(request, users, m.user_id),
      work_type: m.work_type,
    })),
    notes: notes.get(date)?.notes ?? [],
    activities: notes.get(date)?.activities ?? [],
  }));
  const span = period.startDt.until(period.endDt, { largestUnit: 'hours' });
  return {
    start: period.start,
    end: period.end,
    days,
    prev: scheduleLink(request, period.startDt.subtract(span), period.startDt),
    next: scheduleLink(request, period.endDt, period.endDt.add(span)),
  };
}


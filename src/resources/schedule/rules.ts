import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { addDays, datesFromTo, formatLocalDateTime, type Temporal } from '../../core/time.js';
import { adjacentPeriods, assignmentsForSchedule, LOOKBACK_DAYS, periodOf, scheduleFacts, staffingOf, type ApprovedTimeOff, type KellyDay, type Qualifications, type WorkedPiece } from '../../scheduling/index.js';
import type { QualifierNeeded } from '../assignments/repository.js';
import { assignmentOccurrences, type AssignmentOccurrence } from '../assignments/recurrence.js';
import type { AssignmentRow } from '../assignments/table.js';
import { tagsOfShifts, workTypesByIds, type LabelOfShift, type QualifierOfShift } from '../shifts/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { WorkSubtypeRow, WorkTypeRow } from '../work-types/table.js';
import { callbacksForSchedule } from '../callbacks/day-items.js';
import { notesForRange } from '../day-notes/repository.js';
import { miscForRange } from '../misc-hours/repository.js';
import { tradesForSchedule } from '../trades/day-items.js';
import { peopleByIds } from './repository.js';
import type { ScheduleAssignment, ScheduleDay, ScheduleKellyDay, ScheduleResponse, ScheduleShift, ScheduleTimeOff, ScheduleUserRef } from './schemas.js';

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

function shiftItem(request: Request, item: WorkedPiece, lookups: Lookups): ScheduleShift {
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
    end: timeOff.written_end,
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

function kellyDayItem(request: Request, day: KellyDay, users: Map<number, UserRow>): ScheduleKellyDay {
  return {
    user: userRefOf(request, users, day.user_id),
    recurring_shift_id: day.recurring_shift_id,
    rotation: day.rotation,
    code: day.code,
    name: day.name,
    assignment_id: day.assignment_id,
    start: day.start,
    end: day.end,
  };
}

interface DayContext {
  assignments: AssignmentRow[];
  occurrences: Map<string, AssignmentOccurrence>;
  piecesByKey: Map<string, WorkedPiece[]>;
  finalized: Set<string>;
  qualifiersNeeded: Map<number, QualifierNeeded[]>;
  qualifications: Qualifications;
  lookups: Lookups;
}

/** The day's assignments: every assignment with an occurrence or a shift on the date, in position order, with its staffing. */
function assignmentsOfDay(request: Request, date: string, context: DayContext): ScheduleAssignment[] {
  return context.assignments.flatMap((assignment) => {
    const key = `${assignment.id}|${date}`;
    const occurrence = context.occurrences.get(key);
    const pieces = context.piecesByKey.get(key);
    if (!occurrence && !pieces) return [];
    const counts = occurrence !== undefined && assignment.is_work_shift === 1;
    const needs = context.qualifiersNeeded.get(assignment.id) ?? [];
    const { short_from, short_until, ...staffing } = staffingOf({
      occurrence: occurrence ?? null,
      date,
      needed: counts ? assignment.positions_to_fill : 0,
      qualifiersNeeded: counts ? needs.map((q) => ({ id: q.id, shortcode: q.shortcode ?? '', minimum_staffing: q.minimum_staffing })) : [],
      pieces: pieces ?? [],
      qualifications: context.qualifications,
    });
    return [
      {
        id: assignment.id,
        href: href(request, `/assignments/${assignment.id}`),
        date,
        start: occurrence?.start ?? pieces![0]!.scheduled_start,
        end: occurrence?.end ?? pieces![0]!.scheduled_end,
        name: assignment.name,
        qualifiers_needed: needs,
        minimum_staffing: assignment.positions_to_fill,
        is_finalized: context.finalized.has(key),
        notes: assignment.notes,
        shifts: (pieces ?? []).map((piece) => shiftItem(request, piece, context.lookups)),
        staffing: {
          ...staffing,
          qualifier_shortfalls: staffing.qualifier_shortfalls.map((q) => ({ ...q, shortcode: needs.find((n) => n.id === q.id)?.shortcode ?? null })),
          short_from,
          short_until,
        },
      },
    ];
  });
}

/**
 * GET /schedule: every day of the period with its assignments (shifts and staffing), time off,
 * callbacks, trades, misc hours, notes, activities and Kelly days, from the scheduling engine. The
 * number of queries does not depend on the period.
 */
export async function buildSchedule(db: Db, request: Request, query: { start: string; end: string }): Promise<ScheduleResponse> {
  const { orgId, timezone } = request.auth;
  const period = periodOf(query);
  const firstDay = period.days[0]!;
  const lastDay = period.days[period.days.length - 1]!;
  // Assignments from the lookback on, so that the engine can reuse them for occurrences that began before the period.
  const assignmentsFrom = addDays(firstDay, -LOOKBACK_DAYS);
  const assignmentsTo = period.end.slice(0, 10);
  const { assignments, finalized, qualifiersNeeded } = await assignmentsForSchedule(db, orgId, assignmentsFrom, assignmentsTo);
  const [facts, callbacks, trades, misc, notes] = await Promise.all([
    scheduleFacts(db, orgId, { start: period.start, end: period.end, timezone, assignments }),
    callbacksForSchedule(db, request, period.start, period.end),
    tradesForSchedule(db, request, period.start, period.end),
    miscForRange(db, orgId, firstDay, lastDay),
    notesForRange(db, orgId, firstDay, lastDay),
  ]);
  const days = new Set(period.days);
  // work dated in the period, as worked (time off cuts it), for every item that meets the period
  const pieces = facts.worked.filter((p) => days.has(p.date) && p.scheduled_start < period.end && p.scheduled_end > period.start);
  const timeOff = facts.timeOff.map((cover) => ({ ...cover, dates: [...new Set(cover.segments.map((s) => s.date))].filter((d) => days.has(d)) }));
  const kellyDays = facts.kellyDays.filter((k) => days.has(k.date));
  const shiftIds = pieces.flatMap((item) => (item.shift_id === null ? [] : [item.shift_id]));
  const userIds = [
    ...pieces.flatMap((i) => [i.user_id, i.scheduled_by ?? 0]),
    ...timeOff.flatMap((t) => [t.timeOff.user_id, t.timeOff.admin_id ?? 0]),
    ...misc.map((m) => m.user_id),
    ...kellyDays.map((k) => k.user_id),
  ];
  const [people, workTypes, tags] = await Promise.all([
    peopleByIds(db, orgId, userIds),
    workTypesByIds(db, orgId, pieces.map((i) => i.work_type_id)),
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
  const context: DayContext = {
    assignments,
    occurrences: new Map(occurrenceList.filter((o) => o.start < period.end && o.end > period.start).map((o) => [`${o.assignment_id}|${o.date}`, o])),
    piecesByKey: groupBy(pieces, (item) => [`${item.assignment_id}|${item.date}`]),
    finalized,
    qualifiersNeeded,
    qualifications: new Map([...people].map(([id, person]) => [id, person.qualification])),
    lookups,
  };
  const timeOffByDate = groupBy(timeOff, (t) => t.dates);
  const callbacksByDate = groupBy(callbacks.map(withoutDate), (c) => datesCovered(c.start, c.end));
  const tradesByDate = groupBy(trades.map(withoutDate), (t) => datesCovered(t.start, t.end));
  const miscByDate = groupBy(misc, (m) => [m.date]);
  const kellyByDate = groupBy(kellyDays, (k) => [k.date]);
  const scheduleDays: ScheduleDay[] = period.days.map((date) => {
    const kelly = kellyByDate.get(date);
    return {
    date,
    assignments: assignmentsOfDay(request, date, context),
    time_off: (timeOffByDate.get(date) ?? []).map((t) => timeOffItem(request, t.timeOff, users)),
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
    ...(kelly ? { kelly_days: kelly.map((k) => kellyDayItem(request, k, users)) } : {}),
    };
  });
  const links = adjacentPeriods(period);
  return {
    start: period.start,
    end: period.end,
    days: scheduleDays,
    prev: scheduleLink(request, ...links.prev),
    next: scheduleLink(request, ...links.next),
  };
}

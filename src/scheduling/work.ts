import { parseJsonArray } from '../core/db/json.js';
import type { Db } from '../core/db/transaction.js';
import {
  addDays,
  datesFromTo,
  formatLocalDateTime,
  hoursBetween,
  normalizeLocalDateTime,
  parseLocalDateTime,
  Temporal,
} from '../core/time.js';
import { assignmentOccurrences, type AssignmentOccurrence } from './recurrence.js';
import type { AssignmentRow } from '../resources/assignments/table.js';
import { dutyOn } from './rotation-pattern.js';
import {
  findAssignmentsByIds,
  loadMembers,
  loadOneOffShifts,
  timezoneOf,
  type ExceptionOfMember,
  type MemberRow,
} from './reads.js';

/** One piece of scheduled work: a rotation occurrence (after exceptions) or a one-off shift. */
export interface WorkItem {
  kind: 'recurring' | 'one_off';
  /** the recurring shift id for a rotation occurrence, the shift id for a one-off shift */
  id: number;
  recurring: boolean;
  /** the one-off shift id, null for a rotation occurrence */
  shift_id: number | null;
  assignment_id: number;
  user_id: number;
  date: string;
  start: string;
  end: string;
  /** real hours including the break (23 or 25 across DST changes) */
  length: number;
  break_start: string | null;
  break_end: string | null;
  break_length: number;
  hold_over: number;
  /** worked even where approved time off covers it (a one-off shift booked with force or from a callback) */
  overrides_time_off: boolean;
  work_type_id: number;
  work_subtype_id: number | null;
  scheduled_by: number | null;
  traded_with: number | null;
  from_callback: number | null;
  notes: string | null;
}

export interface WorkRange {
  /** local datetimes, [start, end) */
  start: string;
  end: string;
  userIds?: number[];
  assignmentIds?: number[];
  /** the organization's zone when the caller knows it (saves a query) */
  timezone?: string;
  /**
   * The assignments the caller already loaded (saves a query): they must include every non-deleted
   * assignment with occurrences from LOOKBACK_DAYS before the start's date to the end's date.
   */
  assignments?: AssignmentRow[];
  /** Non-deleted assignments the caller read in this transaction, by id: only the others are read (saves a query). */
  knownAssignments?: ReadonlyMap<number, AssignmentRow>;
}

/** The longest single occurrence the expansion looks back for (a shift started days before the range). */
export const LOOKBACK_DAYS = 3;

/** A Kelly day of a rotation member: the occurrence the rotation skips, never worked or paid. */
export interface KellyDay {
  user_id: number;
  recurring_shift_id: number;
  rotation: { id: number; name: string };
  code: string;
  name: string;
  assignment_id: number;
  date: string;
  start: string;
  end: string;
}

/** The dates a user follows a rotation (active recurring shift series), for the time off rules. */
export interface SeriesSpan {
  start_date: string;
  end_date: string | null;
}

export interface ExpandedWork {
  items: WorkItem[];
  kellyDays: KellyDay[];
  /** every rotation series of the loaded users active somewhere in the range, by user */
  seriesByUser: Map<number, SeriesSpan[]>;
}

async function loadAssignmentOccurrences(
  db: Db,
  orgId: number,
  ids: number[],
  range: {
    fromDate: string;
    toDate: string;
    timeZone: string;
    loaded?: AssignmentRow[];
    known?: ReadonlyMap<number, AssignmentRow>;
  },
) {
  if (ids.length === 0) return new Map<string, AssignmentOccurrence>();
  const wanted = new Set(ids);
  const assignments = range.loaded
    ? range.loaded.filter((assignment) => wanted.has(assignment.id))
    : await assignmentsKnownOrRead(db, orgId, ids, range.known);
  const occurrences = assignments.flatMap((assignment) =>
    assignmentOccurrences(assignment, range.fromDate, range.toDate, range.timeZone),
  );
  return new Map(occurrences.map((o) => [`${o.assignment_id}|${o.date}`, o]));
}

/** The non-deleted assignments of the ids: those in `known` as given, the others read. */
async function assignmentsKnownOrRead(
  db: Db,
  orgId: number,
  ids: number[],
  known: ReadonlyMap<number, AssignmentRow> | undefined,
): Promise<AssignmentRow[]> {
  const missing = known ? ids.filter((id) => !known.has(id)) : ids;
  const read = missing.length > 0 ? await findAssignmentsByIds(db, orgId, missing) : undefined;
  return ids.flatMap((id) => known?.get(id) ?? read?.get(id) ?? []);
}

/** The break of an occurrence: the first time the wall-clock break time comes at or after the start. */
export function breakWithin(
  start: string,
  breakTime: string | null,
  breakLength: number,
): { start: string; end: string } | null {
  if (!breakTime || breakLength <= 0) return null;
  const shiftStart = parseLocalDateTime(start)!;
  let breakStart = shiftStart.toPlainDate().toPlainDateTime(Temporal.PlainTime.from(breakTime));
  if (Temporal.PlainDateTime.compare(breakStart, shiftStart) < 0) breakStart = breakStart.add({ days: 1 });
  const breakEnd = breakStart.add({ minutes: Math.round(breakLength * 60) });
  return { start: formatLocalDateTime(breakStart), end: formatLocalDateTime(breakEnd) };
}

function workPiece(base: Omit<WorkItem, 'length' | 'break_length'>, timeZone: string): WorkItem {
  return {
    ...base,
    length: hoursBetween(base.start, base.end, timeZone),
    break_length: base.break_start && base.break_end ? hoursBetween(base.break_start, base.break_end, timeZone) : 0,
  };
}

function occurrencesOfMember(
  member: MemberRow,
  dates: string[],
  assignmentDays: Map<string, AssignmentOccurrence>,
  timeZone: string,
  kellyDays: KellyDay[],
): WorkItem[] {
  const exceptions = new Map(parseJsonArray<ExceptionOfMember>(member.exceptions).map((e) => [e.date, e]));
  const rotation = {
    anchorDate: member.anchor_date,
    pattern: JSON.parse(member.pattern) as number[],
    kellyEvery: member.kelly_every,
  };
  const assignmentIds = JSON.parse(member.assignment_ids) as number[];
  const items: WorkItem[] = [];
  for (const date of dates) {
    if (date < member.start_date || (member.end_date !== null && date > member.end_date)) continue;
    const duty = dutyOn(rotation, { crewOffset: member.crew_offset, kellyOffset: member.kelly_offset }, date);
    const assignmentId = duty.slot > 0 ? assignmentIds[duty.slot - 1] : undefined;
    const occurrence = assignmentId === undefined ? undefined : assignmentDays.get(`${assignmentId}|${date}`);
    if (!occurrence) continue;
    const exception = exceptions.get(date);
    if (duty.kelly) {
      if (exception?.kind !== 'removed') {
        kellyDays.push({
          user_id: member.user_id,
          recurring_shift_id: member.id,
          rotation: { id: member.rotation_id, name: member.rotation_name },
          code: member.kelly_code,
          name: member.kelly_name,
          assignment_id: occurrence.assignment_id,
          date,
          start: occurrence.start,
          end: occurrence.end,
        });
      }
      continue;
    }
    if (exception?.kind === 'removed') continue;
    const start = exception?.start ?? occurrence.start;
    const end = exception?.end ?? occurrence.end;
    const pause = breakWithin(start, member.break_start, member.break_length);
    items.push(
      workPiece(
        {
          kind: 'recurring',
          id: member.id,
          recurring: true,
          shift_id: null,
          assignment_id: exception?.assignment_id ?? occurrence.assignment_id,
          user_id: member.user_id,
          date,
          start,
          end,
          break_start: pause?.start ?? null,
          break_end: pause?.end ?? null,
          hold_over: 0,
          overrides_time_off: false,
          work_type_id: member.work_type_id,
          work_subtype_id: member.work_subtype_id,
          scheduled_by: member.scheduled_by,
          traded_with: null,
          from_callback: null,
          notes: member.notes,
        },
        timeZone,
      ),
    );
  }
  return items;
}

/** By start; at the same start rotation occurrences before one-off shifts, then by user. */
const byStart = (a: WorkItem, b: WorkItem) =>
  a.start < b.start
    ? -1
    : a.start > b.start
      ? 1
      : Number(b.recurring) - Number(a.recurring) || a.user_id - b.user_id || a.id - b.id;

/**
 * Every piece of scheduled work overlapping [start, end): rotation occurrences after their
 * exceptions, and one-off shifts; the rotations' Kelly days there; the users' rotation series.
 * Time off is not removed here (the engine does). At most four queries whatever the range, the
 * number of users or assignments.
 */
export async function expandSchedule(db: Db, orgId: number, requested: WorkRange): Promise<ExpandedWork> {
  const range = {
    ...requested,
    start: normalizeLocalDateTime(requested.start),
    end: normalizeLocalDateTime(requested.end),
  };
  const fromDate = addDays(range.start.slice(0, 10), -LOOKBACK_DAYS);
  const toDate = range.end.slice(0, 10);
  const [timeZone, members, shifts] = await Promise.all([
    range.timezone ?? timezoneOf(db, orgId),
    loadMembers(db, orgId, fromDate, toDate, range.userIds),
    loadOneOffShifts(db, orgId, range),
  ]);
  const assignmentIds = [...new Set(members.flatMap((m) => JSON.parse(m.assignment_ids) as number[]))];
  const assignmentDays = await loadAssignmentOccurrences(db, orgId, assignmentIds, {
    fromDate,
    toDate,
    timeZone,
    loaded: range.assignments,
    known: range.knownAssignments,
  });
  const dates = datesFromTo(fromDate, toDate);
  const allKellyDays: KellyDay[] = [];
  const recurring = members.flatMap((member) =>
    occurrencesOfMember(member, dates, assignmentDays, timeZone, allKellyDays),
  );
  const oneOff = shifts.map((shift) =>
    workPiece(
      {
        kind: 'one_off',
        id: shift.id,
        recurring: false,
        shift_id: shift.id,
        assignment_id: shift.assignment_id,
        user_id: shift.user_id,
        date: shift.date,
        start: shift.start,
        end: shift.end,
        break_start: shift.break_start,
        break_end: shift.break_end,
        hold_over: shift.hold_over,
        overrides_time_off: shift.overrides_time_off === 1,
        work_type_id: shift.work_type_id,
        work_subtype_id: shift.work_subtype_id,
        scheduled_by: shift.scheduled_by,
        traded_with: shift.traded_with,
        from_callback: shift.from_callback,
        notes: shift.notes,
      },
      timeZone,
    ),
  );
  const wanted = range.assignmentIds ? new Set(range.assignmentIds) : undefined;
  const inRange = (item: { start: string; end: string; assignment_id: number }) =>
    item.start < range.end && item.end > range.start && (!wanted || wanted.has(item.assignment_id));
  const seriesByUser = new Map<number, SeriesSpan[]>();
  for (const member of members) {
    const spans = seriesByUser.get(member.user_id) ?? [];
    spans.push({ start_date: member.start_date, end_date: member.end_date });
    seriesByUser.set(member.user_id, spans);
  }
  return {
    items: [...recurring, ...oneOff].filter(inRange).sort(byStart),
    kellyDays: allKellyDays.filter(inRange),
    seriesByUser,
  };
}

/** Scheduled work overlapping [start, end), before time off (see expandSchedule). */
export async function expandWork(db: Db, orgId: number, requested: WorkRange): Promise<WorkItem[]> {
  return (await expandSchedule(db, orgId, requested)).items;
}

import type { Db } from '../core/db/transaction.js';
import { addDays } from '../core/time.js';
import type { AssignmentRow } from '../resources/assignments/table.js';
import { scheduleFacts, workedOrder, type ScheduleFacts, type TimeOffCover } from './engine.js';
import type { Period } from './period.js';
import { assignmentsForSchedule, peopleByIds, type Person, type QualifierNeeded } from './reads.js';
import { assignmentOccurrences, type AssignmentOccurrence } from './recurrence.js';
import { assignmentStaffing, type Staffing } from './staffing.js';
import { LOOKBACK_DAYS, type KellyDay } from './work.js';
import type { WorkedPiece } from './worked.js';

/*
 * The days of a period as GET /schedule shows them (docs/schedule.md): each assignment's
 * occurrence, the pieces worked on it and its staffing, the approved time off listed on each
 * date, and Kelly days. Kept in the engine cache (cache.ts) and patched for the users whose shifts
 * or time off changed (patchPeriodDays), so that a change of a few users is not computed anew
 * for everyone.
 */

/** Approved time off meeting the period, with the period's dates it is listed on. */
export interface ListedTimeOff extends TimeOffCover {
  dates: string[];
}

/** The pieces, time off and Kelly days that belong to the period's days (of some users, in a patch). */
export interface DayFacts {
  pieces: WorkedPiece[];
  timeOff: ListedTimeOff[];
  kellyDays: KellyDay[];
}

export interface PeriodDays {
  /** the assignments that may occur in the period (from the lookback on), in their order */
  assignments: AssignmentRow[];
  /** by dayKey: each assignment's occurrence meeting the period */
  occurrences: Map<string, AssignmentOccurrence>;
  /** by dayKey: the pieces worked on the assignment's day, in the engine's order */
  piecesByKey: Map<string, WorkedPiece[]>;
  piecesByUser: Map<number, WorkedPiece[]>;
  /** dayKeys of finalized days */
  finalized: Set<string>;
  qualifiersNeeded: Map<number, QualifierNeeded[]>;
  /** every user the days name (and those asked for besides), with groups and qualifications */
  people: Map<number, Person>;
  timeOff: ListedTimeOff[];
  kellyDays: KellyDay[];
}

/** An assignment's day: the key of its occurrence and of the pieces worked on it. */
export const dayKey = (assignmentId: number, date: string) => `${assignmentId}|${date}`;

/** Items grouped by keys, in their order. */
export function groupBy<T, K>(items: T[], keysOf: (item: T) => K[]): Map<K, T[]> {
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

/** A copy of `map` without the keys of `without`, then with `entries` set over it. */
export function withEntries<K, V>(
  map: Map<K, V>,
  entries: Iterable<readonly [K, V]>,
  without: Iterable<K> = [],
): Map<K, V> {
  const copy = new Map(map);
  for (const key of without) copy.delete(key);
  for (const [key, value] of entries) copy.set(key, value);
  return copy;
}

/** The engine's facts that belong to the period's days. */
function inPeriod(facts: ScheduleFacts, period: Period): DayFacts {
  const days = new Set(period.days);
  return {
    // work dated in the period, as worked (time off cuts it), for every item that meets the period
    pieces: facts.worked.filter(
      (p) => days.has(p.date) && p.scheduled_start < period.end && p.scheduled_end > period.start,
    ),
    timeOff: facts.timeOff.map((cover) => ({
      ...cover,
      dates: [...new Set(cover.segments.map((s) => s.date))].filter((d) => days.has(d)),
    })),
    kellyDays: facts.kellyDays.filter((k) => days.has(k.date)),
  };
}

/** Every user the pieces, time off and Kelly days name. */
export const namedUsers = (found: DayFacts) => [
  ...found.pieces.flatMap((i) => [i.user_id, i.scheduled_by ?? 0]),
  ...found.timeOff.flatMap((t) => [t.timeOff.user_id, t.timeOff.admin_id ?? 0]),
  ...found.kellyDays.map((k) => k.user_id),
];

/**
 * The period's days. The users of `extraUserIds` are read with the users the days name, in the
 * same statement; `alongside` (given the pieces) runs beside that read, its result returned.
 */
export async function computePeriodDays<T>(
  db: Db,
  orgId: number,
  period: Period,
  timezone: string,
  extraUserIds: () => Promise<number[]>,
  alongside: (pieces: WorkedPiece[]) => Promise<T>,
): Promise<{ days: PeriodDays; alongside: T }> {
  const firstDay = period.days[0]!;
  const lastDay = period.days[period.days.length - 1]!;
  // assignments from the lookback on, so that the engine reuses them for occurrences begun before the period
  const { assignments, finalized, qualifiersNeeded } = await assignmentsForSchedule(
    db,
    orgId,
    addDays(firstDay, -LOOKBACK_DAYS),
    period.end.slice(0, 10),
  );
  const [facts, extraUsers] = await Promise.all([
    scheduleFacts(db, orgId, { start: period.start, end: period.end, timezone, assignments }),
    extraUserIds(),
  ]);
  const found = inPeriod(facts, period);
  const [people, other] = await Promise.all([
    peopleByIds(db, orgId, [...namedUsers(found), ...extraUsers]),
    alongside(found.pieces),
  ]);
  const occurrences = assignments
    .flatMap((assignment) => assignmentOccurrences(assignment, firstDay, lastDay, timezone))
    .filter((o) => o.start < period.end && o.end > period.start);
  const days: PeriodDays = {
    assignments,
    occurrences: new Map(occurrences.map((o) => [dayKey(o.assignment_id, o.date), o])),
    piecesByKey: groupBy(found.pieces, (item) => [dayKey(item.assignment_id, item.date)]),
    piecesByUser: groupBy(found.pieces, (item) => [item.user_id]),
    finalized,
    qualifiersNeeded,
    people,
    timeOff: found.timeOff,
    kellyDays: found.kellyDays,
  };
  return { days, alongside: other };
}

const timeOffOrder = (a: ListedTimeOff, b: ListedTimeOff) =>
  a.timeOff.start < b.timeOff.start ? -1 : a.timeOff.start > b.timeOff.start ? 1 : a.timeOff.id - b.timeOff.id;
const kellyOrder = (a: KellyDay, b: KellyDay) =>
  a.recurring_shift_id - b.recurring_shift_id || (a.start < b.start ? -1 : a.start > b.start ? 1 : 0);

/**
 * The days computed before, with the shifts and time off of `userIds` read again: only their work,
 * time off and Kelly days are asked of the engine. What it yields is what computePeriodDays would
 * (cache.test.ts compares them), with what the users had (`removed`) and have (`found`), so that
 * only the days they were or are on are rendered again. `alongside` runs beside the read of the
 * users not named before.
 */
export async function patchPeriodDays<T>(
  db: Db,
  orgId: number,
  period: Period,
  timezone: string,
  before: PeriodDays,
  userIds: number[],
  alongside: (pieces: WorkedPiece[]) => Promise<T>,
): Promise<{ days: PeriodDays; removed: DayFacts; found: DayFacts; alongside: T }> {
  const changed = new Set(userIds);
  const facts = await scheduleFacts(db, orgId, {
    start: period.start,
    end: period.end,
    timezone,
    assignments: before.assignments,
    userIds,
  });
  const found = inPeriod(facts, period);
  const removed: DayFacts = {
    pieces: userIds.flatMap((id) => before.piecesByUser.get(id) ?? []),
    timeOff: before.timeOff.filter((t) => changed.has(t.timeOff.user_id)),
    kellyDays: before.kellyDays.filter((k) => changed.has(k.user_id)),
  };
  const newUsers = namedUsers(found).filter((id) => id > 0 && !before.people.has(id));
  const [people, other] = await Promise.all([
    newUsers.length ? peopleByIds(db, orgId, newUsers) : new Map<number, Person>(),
    alongside(found.pieces),
  ]);
  // the assignment days the users were or are on, each again in the engine's order
  const piecesByKey = new Map(before.piecesByKey);
  const addedByKey = groupBy(found.pieces, (p) => [dayKey(p.assignment_id, p.date)]);
  for (const key of new Set([...removed.pieces, ...found.pieces].map((p) => dayKey(p.assignment_id, p.date)))) {
    const kept = (piecesByKey.get(key) ?? []).filter((p) => !changed.has(p.user_id));
    const group = [...kept, ...(addedByKey.get(key) ?? [])].sort(workedOrder);
    if (group.length > 0) piecesByKey.set(key, group);
    else piecesByKey.delete(key);
  }
  const days: PeriodDays = {
    ...before,
    piecesByKey,
    piecesByUser: withEntries(
      before.piecesByUser,
      groupBy(found.pieces, (p) => [p.user_id]),
      userIds,
    ),
    people: withEntries(before.people, people),
    timeOff: [...before.timeOff.filter((t) => !changed.has(t.timeOff.user_id)), ...found.timeOff].sort(timeOffOrder),
    kellyDays: [...before.kellyDays.filter((k) => !changed.has(k.user_id)), ...found.kellyDays].sort(kellyOrder),
  };
  return { days, removed, found, alongside: other };
}

/** An assignment's day: its occurrence (if any), the pieces worked on it and its staffing. */
export interface AssignmentDay {
  occurrence: AssignmentOccurrence | undefined;
  pieces: WorkedPiece[];
  needs: QualifierNeeded[];
  finalized: boolean;
  staffing: Staffing;
}

/** The assignment's day, or undefined when it has neither an occurrence nor a shift that day. */
export function assignmentDay(days: PeriodDays, assignment: AssignmentRow, date: string): AssignmentDay | undefined {
  const key = dayKey(assignment.id, date);
  const occurrence = days.occurrences.get(key);
  const pieces = days.piecesByKey.get(key) ?? [];
  if (!occurrence && pieces.length === 0) return undefined;
  const needs = days.qualifiersNeeded.get(assignment.id) ?? [];
  const qualifications = { get: (userId: number) => days.people.get(userId)?.qualification };
  return {
    occurrence,
    pieces,
    needs,
    finalized: days.finalized.has(key),
    staffing: assignmentStaffing(assignment, { date, occurrence, pieces }, needs, qualifications),
  };
}

import type { Db } from '../core/db/transaction.js';
import { groupBy, withEntries } from '../core/maps.js';
import { addDays } from '../core/time.js';
import type { EngineCache } from './cache.js';
import type { AssignmentRow } from '../resources/assignments/table.js';
import { scheduleFacts, workedOrder, type ScheduleFacts, type TimeOffCover } from './engine.js';
import { lookupsOf, lookupsOfUsers, type Lookups } from './lookups.js';
import type { Period } from './period.js';
import { assignmentsForSchedule, groupMinimums, peopleByIds, type Person, type QualifierNeeded } from './reads.js';
import { assignmentOccurrences, type AssignmentOccurrence } from './recurrence.js';
import { assignmentStaffing, type GroupNeed, type Staffing } from './staffing.js';
import { LOOKBACK_DAYS, type KellyDay, type WorkItem } from './work.js';
import type { WorkedPiece } from './worked.js';

/*
 * The days of a period as GET /schedule shows them (docs/schedule.md): each assignment's
 * occurrence, the pieces worked on it and its staffing, the approved time off listed on each
 * date, and Kelly days. Kept in the engine cache (cache.ts) and patched for the users whose shifts
 * or time off changed (patchPeriodDays), so that a change of a few users is not computed anew
 * for everyone.
 */

/** Approved time off meeting the period, with the period's dates it is listed on and the seats it takes. */
export interface ListedTimeOff extends TimeOffCover {
  dates: string[];
  /** the scheduled work it covers (by the covered work's start), on the period's dates */
  seats: TimeOffSeat[];
}

/** A seat a time off takes: the assignment of the work a segment covers, on the segment's date. */
export interface TimeOffSeat {
  date: string;
  assignment_id: number;
  start: string;
  end: string;
}

/** The key of scheduled work by its user and start: a segment covers the work that starts at its anchor. */
const workKey = (userId: number, start: string, date: string) => `${userId}|${start}|${date}`;

/** The seats of a time off's segments on the period's days (`work` keyed by workKey). */
function seatsOf(cover: TimeOffCover, work: Map<string, WorkItem>, days: Set<string>): TimeOffSeat[] {
  return cover.segments.flatMap((segment) => {
    const item = days.has(segment.date)
      ? work.get(workKey(cover.timeOff.user_id, segment.anchor, segment.date))
      : undefined;
    return item
      ? [{ date: segment.date, assignment_id: item.assignment_id, start: segment.start, end: segment.end }]
      : [];
  });
}

/** The pieces, time off and Kelly days that belong to the period's days (of some users, in a patch). */
interface DayFacts {
  pieces: WorkedPiece[];
  timeOff: ListedTimeOff[];
  kellyDays: KellyDay[];
}

/** What a patch touched: by date, the places (in `assignments`) of the assignments; the dates whose lists changed. */
export interface Touched {
  assignments: Map<string, Set<number>>;
  lists: Set<string>;
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
  /** the assignment groups with a minimum on duty (group-staffing.ts judges their days) */
  groups: GroupNeed[];
}

/** An assignment's day: the key of its occurrence and of the pieces worked on it. */
export const dayKey = (assignmentId: number, date: string) => `${assignmentId}|${date}`;

/** The engine's facts that belong to the period's days. */
function inPeriod(facts: ScheduleFacts, period: Period): DayFacts {
  const days = new Set(period.days);
  // read only when some time off is to place
  const work = new Map(facts.timeOff.length ? facts.work.map((w) => [workKey(w.user_id, w.start, w.date), w]) : []);
  return {
    // work dated in the period, as worked (time off cuts it), for every item that meets the period
    pieces: facts.worked.filter(
      (p) => days.has(p.date) && p.scheduled_start < period.end && p.scheduled_end > period.start,
    ),
    timeOff: facts.timeOff.map((cover) => ({
      ...cover,
      dates: [...new Set(cover.segments.map((s) => s.date))].filter((d) => days.has(d)),
      seats: seatsOf(cover, work, days),
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
  const [{ assignments, finalized, qualifiersNeeded }, groups] = await Promise.all([
    assignmentsForSchedule(db, orgId, addDays(firstDay, -LOOKBACK_DAYS), period.end.slice(0, 10)),
    groupMinimums(db, orgId),
  ]);
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
    groups,
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
 * (cache.test.ts compares them), with what it `touched`: the assignment days and lists the users
 * were or are on, the only ones to render again. `alongside` runs beside the read of the
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
): Promise<{ days: PeriodDays; touched: Touched; alongside: T }> {
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
  // the assignment days and the dates' lists any of it was or is on
  const places = new Map(before.assignments.map((a, at) => [a.id, at]));
  const touched: Touched = { assignments: new Map(), lists: new Set() };
  for (const piece of [...removed.pieces, ...found.pieces]) {
    const at = places.get(piece.assignment_id);
    if (at !== undefined)
      touched.assignments.set(piece.date, (touched.assignments.get(piece.date) ?? new Set()).add(at));
  }
  for (const t of [...removed.timeOff, ...found.timeOff]) for (const date of t.dates) touched.lists.add(date);
  for (const k of [...removed.kellyDays, ...found.kellyDays]) touched.lists.add(k.date);
  return { days, touched, alongside: other };
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

/**
 * How a consumer renders the period's days, kept beside the engine's facts and what the pieces
 * name besides users (lookups.ts), read by the engine (GET /schedule's JSON).
 */
export interface PeriodRendering<D> {
  /** each date's rendering; with `previous`, only what the users changed touched is rendered again */
  render(facts: PeriodDays, lookups: Lookups, previous?: { days: D[]; touched: Touched }): D[];
  /** the rendered days' size in bytes, roughly */
  bytes(days: D[]): number;
}

export interface KeptPeriod<D> {
  facts: PeriodDays;
  lookups: Lookups;
  days: D[];
}

/**
 * The period's days rendered: from the engine cache while nothing the engine reads has changed,
 * patched for the users whose shifts or time off changed, else computed. `key` names the
 * rendering (its base URL, its zone); `extraUserIds` as computePeriodDays.
 */
export async function keptPeriodDays<D>(
  kept: { cache: EngineCache; dataRevision: number | undefined },
  db: Db,
  orgId: number,
  period: Period & { timezone: string; key: string },
  extraUserIds: () => Promise<number[]>,
  rendering: PeriodRendering<D>,
): Promise<KeptPeriod<D>> {
  const { timezone } = period;
  const key = `schedule|${orgId}|${period.key}|${timezone}|${period.start}|${period.end}`;
  const stamp = await kept.cache.stamp(orgId, kept.dataRevision);
  const held = await kept.cache.get<KeptPeriod<D>>(orgId, key, stamp);
  if (held && !held.changedUsers) return held.value;
  let computed: KeptPeriod<D>;
  if (held?.changedUsers) {
    const previous = held.value;
    // the tags of the users' shifts are read beside the engine's reads of the users
    const lookups = lookupsOfUsers(db, orgId, held.changedUsers, period, previous.lookups);
    const patch = await patchPeriodDays(db, orgId, period, timezone, previous.facts, held.changedUsers, lookups);
    const days = rendering.render(patch.days, patch.alongside, { ...patch, days: previous.days });
    computed = { facts: patch.days, lookups: patch.alongside, days };
  } else {
    const whole = await computePeriodDays(db, orgId, period, timezone, extraUserIds, (p) => lookupsOf(db, orgId, p));
    computed = { facts: whole.days, lookups: whole.alongside, days: rendering.render(whole.days, whole.alongside) };
  }
  // a user row about 600 bytes, a worked piece 500, and the rendered days
  let bytes = computed.facts.people.size * 600 + rendering.bytes(computed.days);
  for (const pieces of computed.facts.piecesByUser.values()) bytes += pieces.length * 500;
  kept.cache.set(key, stamp, computed, bytes);
  return computed;
}

import type { Interval } from './segments.js';

/** Whether work on the assignment counts as work (staffing, payroll, overtime, callback limits). */
export function countsAsWork(assignment: { is_work_shift: number | boolean | null }): boolean {
  return Boolean(assignment.is_work_shift);
}

/**
 * Staffing of one assignment occurrence, judged by the people on it (docs/schedule.md,
 * "Staffing and vacancies"). Pure.
 */

export interface QualifierNeed {
  id: number;
  shortcode: string;
  minimum_staffing: number;
}

/** What a person holds: qualifier ids, and certifications granting a qualifier while current. */
export interface Qualification {
  qualifierIds: number[];
  certifications: Array<{ qualifier_id: number; issued_on: string | null; expires_on: string | null }>;
}

/** What each user holds, by user id (a Map of them will do). */
export interface Qualifications {
  get(userId: number): Qualification | undefined;
}

/** Whether the user holds the qualifier on the date: as a user qualifier, or by a current certification. */
export function holds(qualifications: Qualifications, userId: number, qualifierId: number, date: string): boolean {
  const held = qualifications.get(userId);
  if (!held) return false;
  if (held.qualifierIds.includes(qualifierId)) return true;
  return held.certifications.some(
    (c) =>
      c.qualifier_id === qualifierId &&
      (c.issued_on === null || c.issued_on <= date) &&
      (c.expires_on === null || c.expires_on >= date),
  );
}

export interface QualifierShortfall {
  id: number;
  shortcode: string;
  needed: number;
  have: number;
}

export interface Staffing {
  /** people on the occurrence for all of it (the fewest on duty at any moment of it) */
  scheduled: number;
  /** people needed: the assignment's positions to fill (0 when it is not a work shift or does not occur) */
  needed: number;
  /** seats open: needed − scheduled, at least 0 */
  open: number;
  qualifier_shortfalls: QualifierShortfall[];
  /** the first moment and the end of the last moment the occurrence is short (null when it is not) */
  short_from: string | null;
  short_until: string | null;
}

interface Presence extends Interval {
  user_id: number;
}

export interface StaffingInput {
  /** the occurrence's span; null when the assignment does not occur that day (shifts only) */
  occurrence: Interval | null;
  date: string;
  needed: number;
  qualifiersNeeded: QualifierNeed[];
  /** the worked pieces on the assignment that day */
  pieces: Presence[];
  qualifications: Qualifications;
}

export function staffingOf(input: StaffingInput): Staffing {
  const { occurrence, date, pieces } = input;
  if (!occurrence) {
    const people = new Set(pieces.map((p) => p.user_id)).size;
    return { scheduled: people, needed: 0, open: 0, qualifier_shortfalls: [], short_from: null, short_until: null };
  }
  const inside = pieces.filter((p) => p.start < occurrence.end && p.end > occurrence.start);
  const times = new Set([occurrence.start, occurrence.end]);
  for (const p of inside) {
    if (p.start > occurrence.start) times.add(p.start);
    if (p.end < occurrence.end) times.add(p.end);
  }
  const bounds = [...times].sort();
  let scheduled = Number.POSITIVE_INFINITY;
  const have = new Map(input.qualifiersNeeded.map((q) => [q.id, Number.POSITIVE_INFINITY]));
  let shortFrom: string | null = null;
  let shortUntil: string | null = null;
  for (let i = 0; i + 1 < bounds.length; i += 1) {
    const [from, to] = [bounds[i]!, bounds[i + 1]!];
    const users = new Set(inside.filter((p) => p.start <= from && p.end >= to).map((p) => p.user_id));
    scheduled = Math.min(scheduled, users.size);
    let short = users.size < input.needed;
    for (const need of input.qualifiersNeeded) {
      const count = [...users].filter((userId) => holds(input.qualifications, userId, need.id, date)).length;
      have.set(need.id, Math.min(have.get(need.id)!, count));
      if (count < need.minimum_staffing) short = true;
    }
    if (short) {
      shortFrom ??= from;
      shortUntil = to;
    }
  }
  if (!Number.isFinite(scheduled)) scheduled = 0;
  const shortfalls = input.qualifiersNeeded
    .map((q) => ({
      id: q.id,
      shortcode: q.shortcode,
      needed: q.minimum_staffing,
      have: Number.isFinite(have.get(q.id)!) ? have.get(q.id)! : 0,
    }))
    .filter((q) => q.have < q.needed);
  return {
    scheduled,
    needed: input.needed,
    open: Math.max(0, input.needed - scheduled),
    qualifier_shortfalls: shortfalls,
    short_from: shortFrom,
    short_until: shortUntil,
  };
}

/** What an assignment needs of a qualifier on each occurrence (reads.ts loads it with the assignment). */
interface NeedOfAssignment {
  id: number;
  shortcode: string | null;
  minimum_staffing: number;
}

/**
 * Staffing of an assignment's day, the one computation behind GET /schedule, GET /vacancies, the
 * candidates, callbacks and time off impact: the people on it (its worked pieces) against its
 * positions to fill and qualifier minimums. Only the occurrence of a work-shift assignment needs
 * anyone; shifts on a day it does not occur are counted, needing no one.
 */
export function assignmentStaffing(
  assignment: { is_work_shift: number; positions_to_fill: number },
  day: { date: string; occurrence: Interval | undefined; pieces: Presence[] },
  needs: NeedOfAssignment[],
  qualifications: Qualifications,
): Staffing {
  const counts = day.occurrence !== undefined && countsAsWork(assignment);
  return staffingOf({
    occurrence: day.occurrence ?? null,
    date: day.date,
    needed: counts ? assignment.positions_to_fill : 0,
    qualifiersNeeded: counts
      ? needs.map((q) => ({ id: q.id, shortcode: q.shortcode ?? '', minimum_staffing: q.minimum_staffing }))
      : [],
    pieces: day.pieces,
    qualifications,
  });
}

/** What an assignment group needs on duty (group_minimum, docs/contract-rules.md), with its assignments. */
export interface GroupNeed {
  id: number;
  name: string;
  color: string;
  min_on_duty: number;
  min_qualified: Array<{ qualifier_id: number; count: number; shortcode: string | null }>;
  assignmentIds: number[];
}

/** An assignment of the group on the date: its occurrence (if any) and the pieces worked on it. */
interface GroupAssignmentDay {
  assignment: { is_work_shift: number };
  occurrence: Interval | undefined;
  pieces: Presence[];
}

/**
 * Staffing of an assignment group (a station, a battalion) on a date, beside each assignment's
 * own: the people on the group's work-shift assignments dated that day (one person on two of
 * them counts once) against its minimum on duty and per-qualifier minimums, at every moment from
 * the first occurrence's start to the last one's end. Needs no one when none of them occurs.
 */
export function groupStaffing(
  group: GroupNeed,
  date: string,
  days: GroupAssignmentDay[],
  qualifications: Qualifications,
): Staffing {
  const working = days.filter((d) => countsAsWork(d.assignment));
  const occurrences = working.flatMap((d) => (d.occurrence ? [d.occurrence] : []));
  const span =
    occurrences.length === 0
      ? null
      : {
          start: occurrences.reduce((min, o) => (o.start < min ? o.start : min), occurrences[0]!.start),
          end: occurrences.reduce((max, o) => (o.end > max ? o.end : max), occurrences[0]!.end),
        };
  return staffingOf({
    occurrence: span,
    date,
    needed: group.min_on_duty,
    qualifiersNeeded: group.min_qualified.map((q) => ({
      id: q.qualifier_id,
      shortcode: q.shortcode ?? '',
      minimum_staffing: q.count,
    })),
    pieces: working.flatMap((d) => d.pieces),
    qualifications,
  });
}

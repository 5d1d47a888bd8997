import type { Db } from '../core/db/transaction.js';
import type { EngineCache } from './cache.js';
import { addDays, normalizeLocalDateTime } from '../core/time.js';
import { assignmentOccurrences } from './recurrence.js';
import { scheduleFacts } from './engine.js';
import { assignmentsForSchedule, loadQualifications } from './reads.js';
import type { Interval } from './segments.js';
import { assignmentStaffing, countsAsWork, type Qualifications, type Staffing } from './staffing.js';
import { LOOKBACK_DAYS } from './work.js';

/** One assignment occurrence with its staffing. */
export interface OccurrenceStaffing {
  assignment: { id: number; name: string };
  date: string;
  start: string;
  end: string;
  staffing: Staffing;
  /** the people on it (worked pieces' users) */
  userIds: number[];
}

/**
 * Staffing of every occurrence of the work-shift assignments (of the named ones, when given) that
 * overlaps the span: the people on it judged by their own qualifications (docs/schedule.md).
 */
export async function occurrenceStaffing(
  db: Db,
  orgId: number,
  span: Interval,
  timeZone: string,
  assignmentIds?: number[],
  countedAsApproved?: number[],
  /** qualifiers counted as held by these people whatever their certifications say (a renewal) */
  renewed?: Array<{ userId: number; qualifierId: number }>,
): Promise<OccurrenceStaffing[]> {
  const start = normalizeLocalDateTime(span.start);
  const end = normalizeLocalDateTime(span.end);
  const firstDay = addDays(start.slice(0, 10), -1);
  const lastDay = end.slice(0, 10);
  const loaded = await assignmentsForSchedule(db, orgId, addDays(firstDay, -LOOKBACK_DAYS), lastDay);
  const wanted = assignmentIds ? new Set(assignmentIds) : undefined;
  const assignments = loaded.assignments.filter((a) => countsAsWork(a) && (!wanted || wanted.has(a.id)));
  const occurrences = assignments
    .flatMap((assignment) =>
      assignmentOccurrences(assignment, firstDay, lastDay, timeZone).map((o) => ({ assignment, occurrence: o })),
    )
    .filter(({ occurrence }) => occurrence.start < end && occurrence.end > start);
  if (occurrences.length === 0) return [];
  const widest = {
    start: occurrences.reduce((min, o) => (o.occurrence.start < min ? o.occurrence.start : min), start),
    end: occurrences.reduce((max, o) => (o.occurrence.end > max ? o.occurrence.end : max), end),
  };
  const facts = await scheduleFacts(db, orgId, {
    ...widest,
    timezone: timeZone,
    assignments: loaded.assignments,
    assignmentIds: assignments.map((a) => a.id),
    countedAsApproved,
  });
  const loadedQualifications = await loadQualifications(db, orgId, [...new Set(facts.worked.map((p) => p.user_id))]);
  const qualifications: Qualifications = renewed?.length
    ? {
        get: (userId) => {
          const held = loadedQualifications.get(userId);
          const extra = renewed.filter((r) => r.userId === userId).map((r) => r.qualifierId);
          return held && { ...held, qualifierIds: [...held.qualifierIds, ...extra] };
        },
      }
    : loadedQualifications;
  return occurrences.map(({ assignment, occurrence }) => {
    const pieces = facts.worked.filter((p) => p.assignment_id === assignment.id && p.date === occurrence.date);
    const needs = loaded.qualifiersNeeded.get(assignment.id) ?? [];
    return {
      assignment: { id: assignment.id, name: assignment.name },
      date: occurrence.date,
      start: occurrence.start,
      end: occurrence.end,
      userIds: [...new Set(pieces.map((p) => p.user_id))],
      staffing: assignmentStaffing(assignment, { date: occurrence.date, occurrence, pieces }, needs, qualifications),
    };
  });
}

/** Where a request's staffing may be kept: the engine cache, under the data revision read with the credential. */
export interface KeptStaffing {
  cache: EngineCache;
  dataRevision: number | undefined;
}

/**
 * occurrenceStaffing, kept in the engine cache while nothing it reads changes (a change of any
 * user's shifts or time off computes it anew). The value is shared: callers must not change it.
 */
export async function keptOccurrenceStaffing(
  kept: KeptStaffing,
  db: Db,
  orgId: number,
  span: Interval,
  timeZone: string,
  assignmentIds?: number[],
): Promise<readonly OccurrenceStaffing[]> {
  const key = `staffing|${orgId}|${timeZone}|${span.start}|${span.end}|${assignmentIds?.join(',') ?? '*'}`;
  const stamp = await kept.cache.stamp(orgId, kept.dataRevision);
  const held = await kept.cache.get<OccurrenceStaffing[]>(orgId, key, stamp);
  if (held && !held.changedUsers) return held.value;
  const value = await occurrenceStaffing(db, orgId, span, timeZone, assignmentIds);
  kept.cache.set(key, stamp, value, 256 + value.length * 512);
  return value;
}

/** The occurrences in the span that are short: seats open or qualifiers short (kept when `kept` says where). */
export async function vacanciesOf(
  db: Db,
  orgId: number,
  span: Interval,
  timeZone: string,
  assignmentIds?: number[],
  kept?: KeptStaffing,
): Promise<OccurrenceStaffing[]> {
  const staffing = kept
    ? await keptOccurrenceStaffing(kept, db, orgId, span, timeZone, assignmentIds)
    : await occurrenceStaffing(db, orgId, span, timeZone, assignmentIds);
  return staffing.filter((o) => o.staffing.open > 0 || o.staffing.qualifier_shortfalls.length > 0);
}

/** One occurrence whose staffing an entry's approval changes. */
export interface StaffingChange {
  assignment: { id: number; name: string };
  date: string;
  start: string;
  end: string;
  before: Staffing;
  after: Staffing;
  /** the people on it after the approval */
  userIds: number[];
}

const isShort = (s: Staffing) => s.open > 0 || s.qualifier_shortfalls.length > 0;

/**
 * What approving a time off entry would do to staffing (docs/time-off.md, "Approval impact"): the
 * occurrences in the span whose staffing changes when the entry counts as approved, each before
 * and after, judged by the same staffing as GET /vacancies. `seats_opened` adds up the seats
 * opened; `new_vacancies` counts occurrences short after and not before.
 */
export async function approvalImpact(db: Db, orgId: number, entryId: number, span: Interval, timeZone: string) {
  const [before, after] = await Promise.all([
    occurrenceStaffing(db, orgId, span, timeZone),
    occurrenceStaffing(db, orgId, span, timeZone, undefined, [entryId]),
  ]);
  const key = (o: OccurrenceStaffing) => `${o.assignment.id}|${o.date}`;
  const was = new Map(before.map((o) => [key(o), o.staffing]));
  const changes: StaffingChange[] = after.flatMap((o) => {
    const previous = was.get(key(o));
    if (!previous || JSON.stringify(previous) === JSON.stringify(o.staffing)) return [];
    return [
      {
        assignment: o.assignment,
        date: o.date,
        start: o.start,
        end: o.end,
        before: previous,
        after: o.staffing,
        userIds: o.userIds,
      },
    ];
  });
  return {
    changes,
    seats_opened: changes.reduce((sum, c) => sum + Math.max(0, c.after.open - c.before.open), 0),
    new_vacancies: changes.filter((c) => isShort(c.after) && !isShort(c.before)).length,
  };
}

/** A certification about to lapse: who holds it, the qualifier it grants and its last valid date. */
export interface Expiring {
  userId: number;
  qualifierId: number;
  expiresOn: string;
}

/** One occurrence the lapse leaves short of the qualifier (or shorter): its staffing of that qualifier after. */
export interface ExpiryCost {
  assignment: { id: number; name: string };
  date: string;
  start: string;
  end: string;
  qualifier: { id: number; shortcode: string; needed: number; have: number };
}

/**
 * What each lapse costs in staffing (docs/contract-rules.md, "Certification expiry"): the
 * occurrences the person works from the day after the expiry for `horizonDays` days that the staffing
 * computation finds short of the qualifier, and less short were the certification renewed. Index by
 * index with `expiring`.
 */
export async function expiryCosts(
  db: Db,
  orgId: number,
  expiring: Expiring[],
  timeZone: string,
  horizonDays: number,
): Promise<ExpiryCost[][]> {
  if (expiring.length === 0) return [];
  const dates = expiring.map((e) => e.expiresOn).sort();
  const span = {
    start: `${addDays(dates[0]!, 1)} 00:00:00`,
    end: `${addDays(dates.at(-1)!, horizonDays + 1)} 00:00:00`,
  };
  const renewed = expiring.map(({ userId, qualifierId }) => ({ userId, qualifierId }));
  const [lapsed, kept] = await Promise.all([
    occurrenceStaffing(db, orgId, span, timeZone),
    occurrenceStaffing(db, orgId, span, timeZone, undefined, undefined, renewed),
  ]);
  const key = (o: OccurrenceStaffing) => `${o.assignment.id}|${o.date}`;
  const whenKept = new Map(kept.map((o) => [key(o), o.staffing]));
  return expiring.map((e) => {
    const last = addDays(e.expiresOn, horizonDays);
    return lapsed.flatMap((o) => {
      if (o.date <= e.expiresOn || o.date > last || !o.userIds.includes(e.userId)) return [];
      const short = o.staffing.qualifier_shortfalls.find((q) => q.id === e.qualifierId);
      if (!short) return [];
      const renewedHave =
        whenKept.get(key(o))?.qualifier_shortfalls.find((q) => q.id === e.qualifierId)?.have ?? short.needed;
      if (renewedHave <= short.have) return [];
      return [
        {
          assignment: o.assignment,
          date: o.date,
          start: o.start,
          end: o.end,
          qualifier: { id: short.id, shortcode: short.shortcode, needed: short.needed, have: short.have },
        },
      ];
    });
  });
}

import type { Db } from '../core/db/transaction.js';
import { addDays } from '../core/time.js';
import type { EngineCache } from './cache.js';
import { scheduleFacts } from './engine.js';
import { dayKey, type PeriodDays } from './period-days.js';
import type { Period } from './period.js';
import { assignmentsForSchedule, groupMinimums, loadQualifications } from './reads.js';
import { assignmentOccurrences } from './recurrence.js';
import { groupStaffing, type GroupNeed, type Qualifications, type Staffing } from './staffing.js';
import { LOOKBACK_DAYS } from './work.js';
import type { WorkedPiece } from './worked.js';

/*
 * Minimum staffing of assignment groups (docs/contract-rules.md, "Minimum staffing for a group of
 * assignments"): each group's day judged by groupStaffing (staffing.ts) over the pieces worked on
 * its assignments, for GET /schedule (from the period's days) and GET /vacancies.
 */

/** A group's staffing on a date. */
export interface GroupDayStaffing {
  group: { id: number; name: string; color: string };
  date: string;
  /** from the first occurrence's start to the last one's end (null when none occurs) */
  start: string | null;
  end: string | null;
  staffing: Staffing;
  /** the people on the group's assignments that day */
  userIds: number[];
}

interface AssignmentOfDay {
  assignment: { id: number; is_work_shift: number };
  occurrence: { start: string; end: string } | undefined;
  pieces: WorkedPiece[];
}

function judge(
  group: GroupNeed,
  date: string,
  days: AssignmentOfDay[],
  qualifications: Qualifications,
): GroupDayStaffing | undefined {
  const present = days.filter((d) => d.occurrence !== undefined || d.pieces.length > 0);
  if (present.length === 0) return undefined;
  const staffing = groupStaffing(group, date, present, qualifications);
  const starts = present.flatMap((d) => (d.occurrence ? [d.occurrence] : []));
  return {
    group: { id: group.id, name: group.name, color: group.color },
    date,
    start: starts.length ? starts.map((o) => o.start).sort()[0]! : null,
    end: starts.length ? starts.map((o) => o.end).sort()[starts.length - 1]! : null,
    staffing,
    userIds: [...new Set(present.flatMap((d) => d.pieces.map((p) => p.user_id)))],
  };
}

/** The groups' staffing on a date of GET /schedule's period (its computed days hold the groups). */
export function groupDaysOf(days: PeriodDays, date: string): GroupDayStaffing[] {
  const byId = new Map(days.assignments.map((a) => [a.id, a]));
  const qualifications = { get: (userId: number) => days.people.get(userId)?.qualification };
  return days.groups.flatMap((group) => {
    const of = group.assignmentIds.flatMap((id) => {
      const assignment = byId.get(id);
      if (!assignment) return [];
      const key = dayKey(id, date);
      return [{ assignment, occurrence: days.occurrences.get(key), pieces: days.piecesByKey.get(key) ?? [] }];
    });
    const judged = judge(group, date, of, qualifications);
    return judged ? [judged] : [];
  });
}

/** Every group's staffing on each date of the period (groups with a minimum only). */
export async function groupStaffingOf(db: Db, orgId: number, period: Period, timeZone: string) {
  const groups = await groupMinimums(db, orgId);
  if (groups.length === 0) return [];
  const [firstDay, lastDay] = [period.days[0]!, period.days[period.days.length - 1]!];
  const loaded = await assignmentsForSchedule(db, orgId, addDays(firstDay, -LOOKBACK_DAYS), lastDay);
  const wanted = new Set(groups.flatMap((g) => g.assignmentIds));
  const assignments = loaded.assignments.filter((a) => wanted.has(a.id));
  const occurrences = new Map(
    assignments
      .flatMap((a) => assignmentOccurrences(a, firstDay, lastDay, timeZone))
      .map((o) => [dayKey(o.assignment_id, o.date), o]),
  );
  const ends = [...occurrences.values()].map((o) => o.end).sort();
  const end = ends.length && ends[ends.length - 1]! > period.end ? ends[ends.length - 1]! : period.end;
  const facts = await scheduleFacts(db, orgId, {
    start: `${firstDay} 00:00:00`,
    end,
    timezone: timeZone,
    assignments: loaded.assignments,
    assignmentIds: [...wanted],
  });
  const worked = facts.worked.filter((p) => wanted.has(p.assignment_id));
  const qualifications = await loadQualifications(db, orgId, [...new Set(worked.map((p) => p.user_id))]);
  const byAssignment = new Map(assignments.map((a) => [a.id, a]));
  return period.days.flatMap((date) =>
    groups.flatMap((group) => {
      const of = group.assignmentIds.flatMap((id) => {
        const assignment = byAssignment.get(id);
        if (!assignment) return [];
        const pieces = worked.filter((p) => p.assignment_id === id && p.date === date);
        return [{ assignment, occurrence: occurrences.get(dayKey(id, date)), pieces }];
      });
      const judged = judge(group, date, of, qualifications);
      return judged ? [judged] : [];
    }),
  );
}

/** The groups short on a date of the period (seats or qualifiers), kept in the engine cache when `kept` says where. */
export async function groupShortfalls(
  db: Db,
  orgId: number,
  period: Period,
  timeZone: string,
  kept?: { cache: EngineCache; dataRevision: number | undefined },
): Promise<readonly GroupDayStaffing[]> {
  let all: readonly GroupDayStaffing[];
  const key = `groups|${orgId}|${timeZone}|${period.start}|${period.end}`;
  const stamp = kept ? await kept.cache.stamp(orgId, kept.dataRevision) : undefined;
  const held = kept ? await kept.cache.get<GroupDayStaffing[]>(orgId, key, stamp) : undefined;
  if (held && !held.changedUsers) all = held.value;
  else {
    const computed = await groupStaffingOf(db, orgId, period, timeZone);
    kept?.cache.set(key, stamp, computed, 256 + computed.length * 512);
    all = computed;
  }
  return all.filter((g) => g.staffing.open > 0 || g.staffing.qualifier_shortfalls.length > 0);
}

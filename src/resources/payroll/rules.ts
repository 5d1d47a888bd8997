import type { Db } from '../../core/db/transaction.js';
import { invalidParams } from '../../core/errors.js';
import { assertSpanWithinLimit, hoursBetween, normalizeLocalDateTime, round, Temporal } from '../../core/time.js';
import { expandWork, type WorkItem } from '../rotations/expand.js';
import { findAssignmentsByIds } from '../assignments/repository.js';
import { miscForRange, type MiscHourWithType } from '../misc-hours/repository.js';
import { withoutTimeOff } from '../schedule/rules.js';
import { labelsOfShifts, workTypesByIds } from '../shifts/repository.js';
import { approvedTimeOffs, type ApprovedTimeOff } from '../time-offs/schedule.js';
import { findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { PayrollRow } from './schemas.js';

/** The last date the period touches: an end at midnight does not reach into its date. */
const lastDateOf = (end: string) =>
  end.endsWith(' 00:00:00') ? Temporal.PlainDate.from(end.slice(0, 10)).subtract({ days: 1 }).toString() : end.slice(0, 10);

function periodOf(query: { start: string; end: string }) {
  const start = normalizeLocalDateTime(query.start);
  const end = normalizeLocalDateTime(query.end);
  if (end <= start) throw invalidParams('The end must be a date after start.');
  assertSpanWithinLimit(start, end);
  return { start, end };
}

/** Hours of [start, end) that the user's approved time off covers. */
function timeOffOverlap(item: WorkItem, timeOff: ApprovedTimeOff[], timeZone: string): number {
  return timeOff
    .filter((t) => t.user_id === item.user_id && t.start < item.end && t.end > item.start)
    .reduce((sum, t) => sum + hoursBetween(t.start > item.start ? t.start : item.start, t.end < item.end ? t.end : item.end, timeZone), 0);
}

function personOf(users: Map<number, UserRow>, userId: number) {
  const user = users.get(userId);
  return { user_id: String(userId), employee_id: user?.employee_id ?? null, name: user ? fullName(user) : '' };
}

/**
 * Payroll rows of the period: worked shifts (rotation occurrences and one-off shifts on work-shift
 * assignments, starting in [start, end), less approved time off, breaks not counted), approved time
 * off starting in the period, and misc hours dated in it. Ordered by start, then user.
 */
export async function payrollRows(db: Db, orgId: number, timeZone: string, query: { start: string; end: string; userId?: number }): Promise<PayrollRow[]> {
  const { start, end } = periodOf(query);
  const userIds = query.userId === undefined ? undefined : [query.userId];
  const [work, allTimeOff, misc] = await Promise.all([
    expandWork(db, orgId, { start, end, userIds, timezone: timeZone }),
    approvedTimeOffs(db, orgId, start, end),
    miscForRange(db, orgId, start.slice(0, 10), lastDateOf(end), query.userId),
  ]);
  const timeOff = allTimeOff.filter((t) => !userIds || userIds.includes(t.user_id));
  const worked = withoutTimeOff(work, timeOff).filter((item) => item.start >= start && item.start < end);
  const miscRows = misc.filter((m) => !userIds || userIds.includes(m.user_id));
  const assignmentIds = [...new Set(worked.map((i) => i.assignment_id))];
  const [users, workTypes, labels, assignments] = await Promise.all([
    findUsersByIds(db, orgId, [...worked.map((i) => i.user_id), ...timeOff.map((t) => t.user_id), ...miscRows.map((m) => m.user_id)]),
    workTypesByIds(db, orgId, [...worked.map((i) => i.work_type_id), ...miscRows.map((m) => m.work_type_id)]),
    labelsOfShifts(db, orgId, worked.flatMap((i) => (i.shift_id === null ? [] : [i.shift_id]))),
    findAssignmentsByIds(db, orgId, assignmentIds),
  ]);
  const subtypeById = new Map(workTypes.subtypes.map((s) => [s.id, s]));

  const shiftRows = worked.flatMap((item): PayrollRow[] => {
    const assignment = assignments.get(item.assignment_id);
    if (!assignment || !assignment.is_work_shift) return [];
    const type = workTypes.types.get(item.work_type_id);
    const subtype = item.work_subtype_id === null ? undefined : subtypeById.get(item.work_subtype_id);
    const hours = round(Math.max(0, item.length - item.break_length - timeOffOverlap(item, timeOff, timeZone)));
    const labelText = labels.filter((l) => l.shift_id !== null && l.shift_id === item.shift_id).map((l) => l.label);
    return [
      {
        type: 'work shift',
        ...personOf(users, item.user_id),
        work_type: type?.label ?? null,
        work_subtype: subtype?.label ?? null,
        work_code: subtype?.work_code ?? type?.work_code ?? null,
        start: item.start,
        end: item.end,
        assignment_id: item.assignment_id,
        assignment_name: assignment.name,
        labels: labelText.length ? labelText.join(', ') : null,
        notes: item.notes,
        total_hours: hours,
      },
    ];
  });
  const timeOffRows = timeOff
    .filter((t) => t.start >= start && t.start < end)
    .map((t): PayrollRow => ({
      type: 'time off',
      ...personOf(users, t.user_id),
      work_type: t.time_off_type.name,
      work_subtype: null,
      work_code: t.time_off_type.work_code,
      start: t.start,
      end: t.end,
      assignment_id: null,
      assignment_name: null,
      labels: null,
      notes: null,
      total_hours: hoursBetween(t.start, t.end, timeZone),
    }));
  const miscPayRows = miscRows.map((m: MiscHourWithType): PayrollRow => {
    const type = workTypes.types.get(m.work_type_id);
    const subtype = m.work_subtype_id ? subtypeById.get(m.work_subtype_id) : undefined;
    return {
      type: 'misc',
      ...personOf(users, m.user_id),
      work_type: m.work_type,
      work_subtype: subtype?.label ?? null,
      work_code: subtype?.work_code ?? type?.work_code ?? null,
      start: m.start ?? `${m.date} 00:00:00`,
      end: m.end ?? null,
      assignment_id: null,
      assignment_name: null,
      labels: null,
      notes: m.notes,
      total_hours: m.length,
    };
  });
  return [...shiftRows, ...timeOffRows, ...miscPayRows].sort(
    (a, b) => (a.start ?? '').localeCompare(b.start ?? '') || Number(a.user_id) - Number(b.user_id) || a.type.localeCompare(b.type),
  );
}

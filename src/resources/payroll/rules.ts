import type { Db } from '../../core/db/transaction.js';
import { localToUtc, utcToLocal } from '../../core/time.js';
import { flaggedAdjustments } from '../accruals/repository.js';
import { countsAsWork, paidFacts, periodOf, tagsOfShifts } from '../../scheduling/index.js';
import { findAssignmentsByIds } from '../assignments/repository.js';
import { miscForRange, type MiscHourWithType } from '../misc-hours/repository.js';
import { workTypesByIds } from '../../scheduling/index.js';
import { findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { PayrollRow } from './schemas.js';

/** The last date of the period's days. */
const lastDateOf = (days: string[]) => days[days.length - 1]!;

function personOf(users: Map<number, UserRow>, userId: number) {
  const user = users.get(userId);
  return { user_id: String(userId), employee_id: user?.employee_id ?? null, name: user ? fullName(user) : '' };
}

/**
 * Payroll rows of the period, from the scheduling engine: `work shift` rows for the worked pieces
 * of shifts and rotation occurrences on work-shift assignments whose scheduled start lies in
 * [start, end) (breaks not counted, hold-over added), paid to whose hours they are (a trade's to
 * the scheduled person by default, with `worked_by`: src/scheduling/trade-hours.ts); `time off`
 * rows for each segment of approved time off placed in the period, with the hours it charges;
 * `misc` rows for misc hours dated in it; `adjustment` rows (extension) for bank adjustments
 * written in the period by a change that reached into a finalized day, flagged with that day.
 * Ordered by start, then user.
 */
export async function payrollRows(
  db: Db,
  orgId: number,
  timeZone: string,
  query: { start: string; end: string; userId?: number },
): Promise<PayrollRow[]> {
  const period = periodOf(query);
  const userIds = query.userId === undefined ? undefined : [query.userId];
  const [paid, misc, flagged] = await Promise.all([
    paidFacts(db, orgId, period, timeZone, userIds),
    miscForRange(db, orgId, period.days[0]!, lastDateOf(period.days), query.userId),
    flaggedAdjustments(db, orgId, {
      fromUtc: localToUtc(period.start, timeZone),
      toUtc: localToUtc(period.end, timeZone),
      userId: query.userId,
    }),
  ]);
  const miscRows = misc.filter((m) => !userIds || userIds.includes(m.user_id));
  const assignmentIds = [...new Set(paid.worked.map((i) => i.assignment_id))];
  const [users, workTypes, tags, assignments] = await Promise.all([
    findUsersByIds(db, orgId, [
      ...flagged.map((a) => a.user_id),
      ...paid.worked.flatMap((i) => [i.user_id, i.worked_by]),
      ...paid.timeOff.map((t) => t.timeOff.user_id),
      ...miscRows.map((m) => m.user_id),
    ]),
    workTypesByIds(db, orgId, [...paid.worked.map((i) => i.work_type_id), ...miscRows.map((m) => m.work_type_id)]),
    tagsOfShifts(
      db,
      orgId,
      paid.worked.flatMap((i) => (i.shift_id === null ? [] : [i.shift_id])),
    ),
    findAssignmentsByIds(db, orgId, assignmentIds),
  ]);
  const subtypeById = new Map(workTypes.subtypes.map((s) => [s.id, s]));

  const shiftRows = paid.worked.flatMap((item): PayrollRow[] => {
    const assignment = assignments.get(item.assignment_id);
    if (!assignment || !countsAsWork(assignment)) return [];
    const type = workTypes.types.get(item.work_type_id);
    const subtype = item.work_subtype_id === null ? undefined : subtypeById.get(item.work_subtype_id);
    const labelText = (item.shift_id === null ? [] : (tags.labels.get(item.shift_id) ?? [])).map((l) => l.label);
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
        total_hours: item.worked_hours,
        ...(item.hold_over > 0 ? { hold_over: item.hold_over } : {}),
        ...(item.worked_by !== item.user_id
          ? { worked_by: { user_id: String(item.worked_by), name: personOf(users, item.worked_by).name } }
          : {}),
      },
    ];
  });
  // a segment that takes no hours (leave on a day off) pays nothing: no row
  const timeOffRows = paid.timeOff
    .filter(({ segment }) => segment.length > 0)
    .map(
      ({ timeOff, segment }): PayrollRow => ({
        type: 'time off',
        ...personOf(users, timeOff.user_id),
        work_type: timeOff.time_off_type.name,
        work_subtype: null,
        work_code: timeOff.time_off_type.work_code,
        start: segment.start,
        end: segment.end,
        assignment_id: null,
        assignment_name: null,
        labels: null,
        notes: null,
        total_hours: segment.length,
      }),
    );
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
  // a change that reached into a finalized day: its bank adjustment lands here, flagged for the clerk
  const adjustmentRows = flagged.map(
    (a): PayrollRow => ({
      type: 'adjustment',
      ...personOf(users, a.user_id),
      work_type: a.label,
      work_subtype: null,
      work_code: a.work_code,
      start: utcToLocal(a.created_at, timeZone),
      end: null,
      assignment_id: null,
      assignment_name: null,
      labels: null,
      notes: a.notes,
      // time off no longer taken (a credit) is time off paid less
      total_hours: -Number(a.hours),
      flagged_date: a.flagged_date!,
    }),
  );
  return [...shiftRows, ...timeOffRows, ...miscPayRows, ...adjustmentRows].sort(
    (a, b) =>
      (a.start ?? '').localeCompare(b.start ?? '') ||
      Number(a.user_id) - Number(b.user_id) ||
      a.type.localeCompare(b.type),
  );
}

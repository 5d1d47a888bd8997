import type { Db } from '../core/db/transaction.js';
import { addDays } from '../core/time.js';
import { occurrencesInRange } from '../resources/time-offs/recurrence.js';
import { APPROVED } from '../resources/time-offs/table.js';
import { compiledOnce } from '../core/db/compiled-once.js';

/** Approved time off as the engine sees it: one item per occurrence, its end closed (closeMinute). */
export interface ApprovedTimeOff {
  id: number;
  user_id: number;
  admin_id: number | null;
  start: string;
  /** the end the engine works with: the written end with its minute closed (closeMinute) */
  end: string;
  /** the end as written */
  written_end: string;
  status: number;
  time_off_type: {
    id: number;
    name: string;
    work_code: string | null;
    color: string;
    text_color: string;
    /** time off of this type does not exclude the user from callbacks */
    force_include: boolean;
    /** hours charged per day to a user with no scheduled work */
    default_day_hours: number;
    /** its hours count as hours worked for overtime */
    counts_as_worked: boolean;
    /** no callback offers within this many hours of the time off */
    callback_exclusion_hours: number;
  };
}

/**
 * An end written as `hh:mm:59` closes that minute: `2026-12-14 23:59:59` is read as
 * `2026-12-15 00:00:00`, so a day "to 23:59:59" is a whole day (17 h of a 07:00 shift, not 16.9997).
 */
export function closeMinute(end: string): string {
  if (!end.endsWith(':59')) return end;
  const hour = Number(end.slice(11, 13));
  const minute = Number(end.slice(14, 16));
  if (minute < 59) return `${end.slice(0, 14)}${String(minute + 1).padStart(2, '0')}:00`;
  if (hour < 23) return `${end.slice(0, 11)}${String(hour + 1).padStart(2, '0')}:00:00`;
  return `${addDays(end.slice(0, 10), 1)} 00:00:00`;
}

function approvedQuery(db: Db, orgId: number, startLocal: string, endLocal: string, countedAsApproved: number[] = []) {
  return db
    .selectFrom('time_off')
    .innerJoin('time_off_type', (join) =>
      join
        .onRef('time_off_type.id', '=', 'time_off.time_off_type_id')
        .onRef('time_off_type.organization_id', '=', 'time_off.organization_id'),
    )
    .select([
      'time_off.id',
      'time_off.user_id',
      'time_off.admin_id',
      'time_off.start',
      'time_off.end',
      'time_off.rrule',
      'time_off.status',
      'time_off_type.id as type_id',
      'time_off_type.label as type_label',
      'time_off_type.work_code as type_work_code',
      'time_off_type.primary_color as type_color',
      'time_off_type.secondary_color as type_text_color',
      'time_off_type.force_include as type_force_include',
      'time_off_type.default_day_hours as type_default_day_hours',
      'time_off_type.counts_as_worked as type_counts_as_worked',
      'time_off_type.callback_exclusion_hours as type_callback_exclusion_hours',
    ])
    .where('time_off.organization_id', '=', orgId)
    .where('time_off.deleted_at', 'is', null)
    .where((eb) =>
      countedAsApproved.length
        ? eb.or([eb('time_off.status', '=', APPROVED), eb('time_off.id', 'in', countedAsApproved)])
        : eb('time_off.status', '=', APPROVED),
    )
    .where('time_off.start', '<', endLocal)
    .where((eb) => eb.or([eb('time_off.until', 'is', null), eb('time_off.until', '>=', startLocal)]))
    .orderBy('time_off.start')
    .orderBy('time_off.id');
}

const approvedOfAllQuery = (db: Db, orgId: number, startLocal: string, endLocal: string) =>
  approvedQuery(db, orgId, startLocal, endLocal).execute();
const approvedOfUsersQuery = compiledOnce(
  (db: Db, orgId: number, startLocal: string, endLocal: string, userIds: number[]) =>
    approvedQuery(db, orgId, startLocal, endLocal).where('time_off.user_id', 'in', userIds),
);

/**
 * Every occurrence of approved time off overlapping [startLocal, endLocal) (local datetimes),
 * recurring leave expanded, ends closed, ordered by start. One query. `userIds` narrows it to
 * those users (the (organization_id, user_id, start) index then reads only their entries).
 * `countedAsApproved` names entries (pending ones) to count as approved: what approving them would do.
 */
export async function approvedTimeOffs(
  db: Db,
  orgId: number,
  startLocal: string,
  endLocal: string,
  userIds?: number[],
  countedAsApproved: number[] = [],
): Promise<ApprovedTimeOff[]> {
  const rows = countedAsApproved.length
    ? await approvedQuery(db, orgId, startLocal, endLocal, countedAsApproved)
        .$if(userIds !== undefined, (qb) => qb.where('time_off.user_id', 'in', userIds!.length ? userIds! : [0]))
        .execute()
    : userIds
      ? await approvedOfUsersQuery(db, orgId, startLocal, endLocal, userIds.length ? userIds : [0])
      : await approvedOfAllQuery(db, orgId, startLocal, endLocal);
  const result = rows.flatMap((row) =>
    occurrencesInRange(row, startLocal, endLocal).flatMap((occurrence) => {
      const end = closeMinute(occurrence.end);
      if (!(occurrence.start < endLocal && end > startLocal)) return [];
      return [
        {
          id: row.id,
          user_id: row.user_id,
          admin_id: row.admin_id,
          start: occurrence.start,
          end,
          written_end: occurrence.end,
          status: row.status,
          time_off_type: {
            id: row.type_id,
            name: row.type_label,
            work_code: row.type_work_code,
            color: row.type_color,
            text_color: row.type_text_color,
            force_include: row.type_force_include === 1,
            default_day_hours: Number(row.type_default_day_hours),
            counts_as_worked: row.type_counts_as_worked === 1,
            callback_exclusion_hours: Number(row.type_callback_exclusion_hours),
          },
        },
      ];
    }),
  );
  return result.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id));
}

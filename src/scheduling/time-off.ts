import type { Db } from '../core/db/transaction.js';
import { addDays } from '../core/time.js';
import { approvedTimeOffRows } from './reads.js';
import { occurrencesInRange } from './recurrence.js';

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
    /** shown as `public_name` ("Off") to those who may not see it (core/masked-types.ts) */
    masked: boolean;
    public_name: string | null;
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
  const rows = await approvedTimeOffRows(db, orgId, startLocal, endLocal, userIds, countedAsApproved);
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
            masked: row.type_masked === 1,
            public_name: row.type_public_name,
          },
        },
      ];
    }),
  );
  return result.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id));
}

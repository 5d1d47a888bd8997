import { preparedQuery } from '../../core/db/prepared.js';
import type { Db } from '../../core/db/transaction.js';
import { occurrencesInRange } from './recurrence.js';
import { APPROVED } from './table.js';

/** Approved time off as the schedule, callbacks and trades see it: one item per occurrence. */
export interface ApprovedTimeOff {
  id: number;
  user_id: number;
  admin_id: number | null;
  start: string;
  end: string;
  status: number;
  time_off_type: {
    id: number;
    name: string;
    work_code: string | null;
    color: string;
    text_color: string;
    /** time off of this type does not exclude the user from callbacks */
    force_include: boolean;
  };
}

function approvedQuery(db: Db, orgId: number, startLocal: string, endLocal: string) {
  return db
    .selectFrom('time_off')
    .innerJoin('time_off_type', (join) =>
      join.onRef('time_off_type.id', '=', 'time_off.time_off_type_id').onRef('time_off_type.organization_id', '=', 'time_off.organization_id'),
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
    ])
    .where('time_off.organization_id', '=', orgId)
    .where('time_off.deleted_at', 'is', null)
    .where('time_off.status', '=', APPROVED)
    .where('time_off.start', '<', endLocal)
    .where((eb) => eb.or([eb('time_off.until', 'is', null), eb('time_off.until', '>', startLocal)]))
    .orderBy('time_off.start')
    .orderBy('time_off.id');
}

const approvedOfAllQuery = preparedQuery(approvedQuery);
const approvedOfUsersQuery = preparedQuery((db: Db, orgId: number, startLocal: string, endLocal: string, userIds: number[]) =>
  approvedQuery(db, orgId, startLocal, endLocal).where('time_off.user_id', 'in', userIds),
);

/**
 * Every occurrence of approved time off overlapping [startLocal, endLocal) (local datetimes),
 * recurring leave expanded, ordered by start. One query. `userIds` narrows it to those users (the
 * (organization_id, user_id, start) index then reads only their entries, not every entry that
 * started before the range: what keeps POST /shifts fast in a large organization).
 */
export async function approvedTimeOffs(db: Db, orgId: number, startLocal: string, endLocal: string, userIds?: number[]): Promise<ApprovedTimeOff[]> {
  const rows = userIds
    ? await approvedOfUsersQuery(db, orgId, startLocal, endLocal, userIds.length ? userIds : [0])
    : await approvedOfAllQuery(db, orgId, startLocal, endLocal);
  const result = rows.flatMap((row) =>
    occurrencesInRange(row, startLocal, endLocal).map((occurrence) => ({
      id: row.id,
      user_id: row.user_id,
      admin_id: row.admin_id,
      start: occurrence.start,
      end: occurrence.end,
      status: row.status,
      time_off_type: {
        id: row.type_id,
        name: row.type_label,
        work_code: row.type_work_code,
        color: row.type_color,
        text_color: row.type_text_color,
        force_include: row.type_force_include === 1,
      },
    })),
  );
  return result.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id));
}

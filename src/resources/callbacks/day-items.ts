import { sameOrg } from '../../core/db/org-rows.js';
import type { FastifyRequest } from 'fastify';
import { jsonArrayFrom, parseJsonArray, type RowOf } from '../../core/db/json.js';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { nowUtc } from '../../core/time.js';
import { fullName } from '../users/serialize.js';
import type { ScheduleCallback } from './schemas.js';

export type ScheduleCallbackItem = ScheduleCallback & { date: string };

type Request = Pick<FastifyRequest, 'auth' | 'baseUrl'>;

interface AcceptedRecord {
  id: number;
  user_id: number;
  start_time: string | null;
  end_time: string | null;
  first_name: string;
  last_name: string;
}

/**
 * day.callbacks: finalized callbacks (filled, or partially filled once the deadline passed) that
 * are not placed on an assignment, overlapping [startLocal, endLocal); `date` is the start date.
 * Callbacks placed on an assignment show as that assignment's shifts instead. One query.
 */
export async function callbacksForSchedule(
  db: Db,
  request: Request,
  startLocal: string,
  endLocal: string,
): Promise<ScheduleCallbackItem[]> {
  return scheduleCallbackItems(
    request,
    await scheduleCallbacksQuery(db, request.auth.orgId, startLocal, endLocal).execute(),
  );
}

/**
 * The statement of {@link callbacksForSchedule}, for GET /schedule to read with others in one;
 * `now` (UTC) tells which active callbacks' deadline passed.
 */
export function scheduleCallbacksQuery(db: Db, orgId: number, startLocal: string, endLocal: string, now = nowUtc()) {
  return (
    db
      .selectFrom('callback')
      .innerJoin('callback_list', sameOrg('callback_list.id', 'callback.list_id'))
      .select([
        'callback.id',
        'callback.start',
        'callback.end',
        'callback.positions_to_fill',
        'callback.list_id',
        'callback_list.name as list_name',
      ])
      // the accepted responders come with their callback, in the same statement
      .select((eb) =>
        jsonArrayFrom(
          db,
          eb
            .selectFrom('callback_user as r')
            .innerJoin('user_account as u', sameOrg('u.id', 'r.user_id'))
            .select(['r.id', 'r.user_id', 'r.start_time', 'r.end_time', 'u.first_name', 'u.last_name'])
            .where('r.organization_id', '=', orgId)
            .whereRef('r.callback_id', '=', 'callback.id')
            .where('r.status', '=', 'accepted')
            .orderBy('r.position'),
        ).as('records'),
      )
      .where('callback.organization_id', '=', orgId)
      .where('callback.assignment_id', 'is', null)
      .where('callback.accepted_count', '>', 0)
      .where('callback.start', '<', endLocal)
      .where('callback.end', '>', startLocal)
      .where((eb) =>
        eb.or([
          eb('callback.status', '=', 'filled'),
          eb.and([eb('callback.status', '=', 'active'), eb('callback.deadline', '<=', now)]),
        ]),
      )
      .orderBy('callback.start')
      .orderBy('callback.id')
  );
}

type ScheduleCallbackRow = RowOf<typeof scheduleCallbacksQuery>;

/** day.callbacks items of the rows {@link scheduleCallbacksQuery} read. */
export function scheduleCallbackItems(request: Request, callbacks: ScheduleCallbackRow[]): ScheduleCallbackItem[] {
  return callbacks.map((callback) => ({
    date: callback.start.slice(0, 10),
    id: callback.id,
    href: href(request, `/callbacks/${callback.id}`),
    start: callback.start,
    end: callback.end,
    minimum_staffing: callback.positions_to_fill,
    records: parseJsonArray<AcceptedRecord>(callback.records).map((record) => ({
      id: record.id,
      user: { id: record.user_id, href: href(request, `/users/${record.user_id}`), name: fullName(record) },
      start: record.start_time ?? callback.start,
      end: record.end_time ?? callback.end,
      work_site: null,
    })),
    title: { id: callback.list_id, href: href(request, `/titles/${callback.list_id}`), name: callback.list_name },
  }));
}

import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { nowUtc } from '../../core/time.js';
import { fullName } from '../users/serialize.js';
import type { ScheduleCallback } from './schemas.js';

export type ScheduleCallbackItem = ScheduleCallback & { date: string };

type Request = Pick<FastifyRequest, 'auth' | 'baseUrl'>;

/**
 * day.callbacks: finalized callbacks (filled, or partially filled once the deadline passed) that
 * are not placed on an assignment, overlapping [startLocal, endLocal); `date` is the start date.
 * Callbacks placed on an assignment show as that assignment's shifts instead. Two queries.
 */
export async function callbacksForSchedule(db: Db, request: Request, startLocal: string, endLocal: string): Promise<ScheduleCallbackItem[]> {
  const orgId = request.auth.orgId;
  const now = nowUtc();
  const callbacks = await db
    .selectFrom('callback')
    .innerJoin('callback_list', (join) =>
      join.onRef('callback_list.id', '=', 'callback.list_id').onRef('callback_list.organization_id', '=', 'callback.organization_id'),
    )
    .select(['callback.id', 'callback.start', 'callback.end', 'callback.positions_to_fill', 'callback.list_id', 'callback_list.name as list_name'])
    .where('callback.organization_id', '=', orgId)
    .where('callback.assignment_id', 'is', null)
    .where('callback.accepted_count', '>', 0)
    .where('callback.start', '<', endLocal)
    .where('callback.end', '>', startLocal)
    .where((eb) =>
      eb.or([eb('callback.status', '=', 'filled'), eb.and([eb('callback.status', '=', 'active'), eb('callback.deadline', '<=', now)])]),
    )
    .orderBy('callback.start')
    .orderBy('callback.id')
    .execute();
  if (callbacks.length === 0) return [];

  const records = await db
    .selectFrom('callback_user')
    .innerJoin('user_account', (join) =>
      join.onRef('user_account.id', '=', 'callback_user.user_id').onRef('user_account.organization_id', '=', 'callback_user.organization_id'),
    )
    .select([
      'callback_user.id',
      'callback_user.callback_id',
      'callback_user.user_id',
      'callback_user.start_time',
      'callback_user.end_time',
      'user_account.first_name',
      'user_account.last_name',
    ])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback_user.callback_id', 'in', callbacks.map((c) => c.id))
    .where('callback_user.status', '=', 'accepted')
    .orderBy('callback_user.position')
    .execute();

  return callbacks.map((callback) => ({
    date: callback.start.slice(0, 10),
    id: callback.id,
    href: href(request, `/callbacks/${callback.id}`),
    start: callback.start,
    end: callback.end,
    minimum_staffing: callback.positions_to_fill,
    records: records
      .filter((record) => record.callback_id === callback.id)
      .map((record) => ({
        id: record.id,
        user: { id: record.user_id, href: href(request, `/users/${record.user_id}`), name: fullName(record) },
        start: record.start_time ?? callback.start,
        end: record.end_time ?? callback.end,
        work_site: null,
      })),
    title: { id: callback.list_id, href: href(request, `/titles/${callback.list_id}`), name: callback.list_name },
  }));
}

import { formatIsoOffset } from '../../core/time.js';
import type { UserRow } from '../users/table.js';
import { fullName } from '../users/serialize.js';
import { callbackStatus, endedAt } from './rules.js';
import type { CallbackResponse, CallbackUserResponse } from './schemas.js';
import type { CallbackRow, CallbackUserRow } from './table.js';

export interface CallbackNames {
  lists: Map<number, { id: number; name: string }>;
  users: Map<number, UserRow>;
}

export function serializeCallback(
  callback: CallbackRow,
  names: CallbackNames,
  timeZone: string,
  nowInstant: string,
): CallbackResponse {
  const list = names.lists.get(callback.list_id);
  const admin = names.users.get(callback.initiated_by);
  return {
    id: callback.id,
    title: { id: callback.list_id, name: list?.name ?? '' },
    initiated_by: { id: callback.initiated_by, name: admin ? fullName(admin) : '' },
    start: callback.start,
    end: callback.end,
    positions_to_fill: callback.positions_to_fill,
    scheduled_to: formatIsoOffset(callback.scheduled_to, timeZone)!,
    started_at: formatIsoOffset(callback.started_at, timeZone)!,
    ended_at: formatIsoOffset(endedAt(callback, nowInstant), timeZone),
    deadline: formatIsoOffset(callback.deadline, timeZone)!,
    status: callbackStatus(callback, nowInstant),
    assignment_id: callback.assignment_id,
  };
}

const flag = (value: number) => (value ? '1' : '0');

export function serializeCallbackUser(row: CallbackUserRow): CallbackUserResponse {
  return {
    id: String(row.user_id),
    position: String(row.position),
    status: row.status,
    contact_method: row.contact_method,
    contact_time: row.contact_time,
    response_time: row.response_time,
    start_time: row.start_time,
    end_time: row.end_time,
    uses_opportunity: flag(row.uses_opportunity),
    do_not_disturb: flag(row.do_not_disturb),
    auto_accepted: flag(row.auto_accepted),
  };
}

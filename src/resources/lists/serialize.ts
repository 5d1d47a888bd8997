import type { CallbackListResponse, CallbackListSingleResponse } from './schemas.js';
import type { CallbackListRow } from './table.js';

export function serializeList(row: CallbackListRow): CallbackListResponse {
  return {
    id: row.id,
    name: row.name,
    max_consecutive_hours: Number(row.max_consecutive_hours),
    weekly_limit: Number(row.weekly_limit),
    monthly_limit: Number(row.monthly_limit),
    yearly_limit: Number(row.yearly_limit),
    position: Number(row.position),
  };
}

export function serializeListSingle(row: CallbackListRow): CallbackListSingleResponse {
  return {
    ...serializeList(row),
    deleted: row.deleted_at !== null,
    contact_window_minutes: row.contact_window_minutes === null ? null : Number(row.contact_window_minutes),
    contact_at_once: Number(row.contact_at_once),
    notify_group_id: row.notify_group_id === null ? null : Number(row.notify_group_id),
  };
}

import type { Generated, Selectable } from 'kysely';

/** Stored status; `partially filled` and `not filled` are derived at the deadline (rules.ts). */
export type StoredCallbackStatus = 'active' | 'filled' | 'cancelled';
export type CallbackOrdering = 'rotating' | 'hours' | 'seniority';
export type CallbackUserStatus = 'pending' | 'accepted' | 'denied' | 'no answer';

export interface CallbackTable {
  id: Generated<number>;
  organization_id: number;
  /** the callback list (title) offered */
  list_id: number;
  /** the assignment the accepted users' shifts are placed on; null: listed under day.callbacks */
  assignment_id: number | null;
  work_type_id: number;
  initiated_by: number;
  ordering: CallbackOrdering;
  /** local datetimes */
  start: string;
  end: string;
  positions_to_fill: number;
  /** kept in step with accepted callback_user rows, under the callback's row lock */
  accepted_count: number;
  status: StoredCallbackStatus;
  /** instants (UTC ISO) */
  scheduled_to: string;
  started_at: string;
  ended_at: string | null;
  deadline: string;
  notes: string | null;
  /** JSON: the vacancy the callback was started for (CallbackVacancy), null when not on an assignment */
  vacancy: string | null;
  cancelled_by: number | null;
  created_at: string;
}

export interface CallbackUserTable {
  id: Generated<number>;
  organization_id: number;
  callback_id: number;
  user_id: number;
  /** 1-based place in the contact order computed when the callback started */
  position: number;
  status: CallbackUserStatus;
  contact_method: string | null;
  /** local datetimes */
  contact_time: string | null;
  response_time: string | null;
  start_time: string | null;
  end_time: string | null;
  uses_opportunity: number;
  do_not_disturb: number;
  auto_accepted: number;
  /** the shift created on acceptance (callbacks placed on an assignment) */
  shift_id: number | null;
  updated_at: string;
}

export type CallbackRow = Selectable<CallbackTable>;
export type CallbackUserRow = Selectable<CallbackUserTable>;

declare module '../../core/db/types.js' {
  interface Database {
    callback: CallbackTable;
    callback_user: CallbackUserTable;
  }
}

import type { CallbackOrdering } from './ordering/candidates.js';
import type { Generated, Selectable } from 'kysely';

export type { CallbackOrdering };

/** Stored status; `partially filled` and `not filled` are derived at the deadline (rules.ts). */
export type StoredCallbackStatus = 'active' | 'filled' | 'cancelled';
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
  /** UTC instant until which one callback runner owns this callback (core/db/lease.ts). */
  lease_until: string | null;
  /** UTC instant the runner handled the callback's end (the initiating admin told); null while open. */
  runner_closed_at: string | null;
  /** UTC instant the runner told that the callback reached the end of its list; null until then. */
  list_ended_at: string | null;
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
  /** UTC instant the runner's offer to this user lapses (contact time + the list's window). */
  offer_expires_at: string | null;
  /** Why the runner passed over this user when their turn came (no longer eligible). */
  skip_reason: string | null;
  /** UTC instant the confirmation of an accepted offer was sent. */
  confirmed_at: string | null;
}

/** One accept/decline link: the database keeps only the keyed hash of its token. */
export interface CallbackOfferTable {
  id: Generated<number>;
  organization_id: number;
  callback_id: number;
  callback_user_id: number;
  user_id: number;
  token_hash: string;
  /** UTC instants */
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** where the person's replies come from (the E.164 number the SMS went to); inbound replies find the offer by it */
  reply_address: string | null;
  /** the code an SMS reply must carry (`YES 0042`), unique among the open offers to one reply address */
  reply_code: string | null;
  /**
   * who revoked this one link (DELETE /callbacks/{id}/users/{user_id}/offer): the admin id, 0 for
   * the API client; null when the runner withdrew it
   */
  revoked_by: number | null;
}

export type CallbackRow = Selectable<CallbackTable>;
export type CallbackOfferRow = Selectable<CallbackOfferTable>;
export type CallbackUserRow = Selectable<CallbackUserTable>;

declare module '../../core/db/types.js' {
  interface Database {
    callback: CallbackTable;
    callback_user: CallbackUserTable;
    callback_offer: CallbackOfferTable;
  }
}

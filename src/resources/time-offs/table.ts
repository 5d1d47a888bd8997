import type { Generated, Selectable } from 'kysely';

/** Status values: the spec's 0 pending and 1 approved, plus crewplan's internal 2 denied. */
export const PENDING = 0;
export const APPROVED = 1;
export const DENIED = 2;

export interface TimeOffTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  time_off_type_id: number;
  /** first occurrence, local datetimes */
  start: string;
  end: string;
  /** RFC 5545 RRULE text (extension) or null: does not recur */
  rrule: string | null;
  /** last date an occurrence may start on (from the rule's UNTIL), null when unbounded */
  until: string | null;
  status: number;
  /** JSON array of the admin ids the request was addressed to */
  admin_ids: string;
  /** the approving (or denying) admin; before a decision, the first addressed admin */
  admin_id: number | null;
  requested_by_user: number;
  user_note: string | null;
  traded_with: number | null;
  request_date: string;
  approval_date: string | null;
  denial_date: string | null;
  acknowledgement_date: string | null;
  deleted_at: string | null;
  /** leave entered as dates: its first and last date (its span follows the person's work); else null */
  first_date: string | null;
  last_date: string | null;
}

export type TimeOffRow = Selectable<TimeOffTable>;

declare module '../../core/db/types.js' {
  interface Database {
    time_off: TimeOffTable;
  }
}

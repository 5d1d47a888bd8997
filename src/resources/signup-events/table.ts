import type { Generated, Selectable } from 'kysely';

export interface SignupEventTable {
  id: Generated<number>;
  organization_id: number;
  title: string;
  /** local datetimes */
  start: string;
  end: string;
  /** sanitized HTML */
  description: string;
  work_type_id: number;
  work_subtype_id: number | null;
  employees_needed: number;
  /** kept in step with signup_event_user rows, under the event's row lock */
  signed_up_count: number;
  created_by: number;
  modified_by: number;
  created_at: string;
  modified_at: string;
  deleted_by: number | null;
  deleted_at: string | null;
}

export interface SignupEventUserTable {
  id: Generated<number>;
  organization_id: number;
  event_id: number;
  user_id: number;
  misc_hour_id: number | null;
  created_at: string;
}

export type SignupEventRow = Selectable<SignupEventTable>;
export type SignupEventUserRow = Selectable<SignupEventUserTable>;

declare module '../../core/db/types.js' {
  interface Database {
    signup_event: SignupEventTable;
    signup_event_user: SignupEventUserTable;
  }
}

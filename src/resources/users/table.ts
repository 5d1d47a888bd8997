import type { Generated, Selectable } from 'kysely';

export interface UserAccountTable {
  id: Generated<number>;
  organization_id: number;
  username: string;
  password_hash: string | null;
  employee_id: string | null;
  first_name: string;
  last_name: string;
  role: string | null;
  avatar_url: string | null;
  date_of_hire: string | null;
  date_of_birth: string | null;
  accrual_start_date: string | null;
  /** JSON array of strings */
  emails: string;
  /** JSON array of strings */
  phone_numbers: string;
  accrual_track_id: number | null;
  accrual_profile_id: number | null;
  active: number;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserFieldTable {
  id: Generated<number>;
  organization_id: number;
  label: string;
  position: number;
  deleted_at: string | null;
}

export interface UserFieldValueTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  field_id: number;
  value: string | null;
}

/** Accrual profiles and tracks: the time-off resources add their rules; users reference them. */
export interface AccrualProfileTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  deleted_at: string | null;
}
export interface AccrualTrackTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  deleted_at: string | null;
}

export type UserRow = Selectable<UserAccountTable>;

declare module '../../core/db/types.js' {
  interface Database {
    user_account: UserAccountTable;
    user_field: UserFieldTable;
    user_field_value: UserFieldValueTable;
    accrual_profile: AccrualProfileTable;
    accrual_track: AccrualTrackTable;
  }
}

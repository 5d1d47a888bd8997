import type { Generated, Selectable } from 'kysely';

export interface SpecialtyFilterTable {
  id: Generated<number>;
  organization_id: number;
  label: string;
  /** The user who created the filter (the request's `user_id`), or null when created by the API client. */
  created_by: number | null;
  /** UTC ISO instant. */
  created_at: string;
  deleted_at: string | null;
}

export interface UserFilterTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  filter_id: number;
}

export type SpecialtyFilterRow = Selectable<SpecialtyFilterTable>;

declare module '../../core/db/types.js' {
  interface Database {
    specialty_filter: SpecialtyFilterTable;
    user_filter: UserFilterTable;
  }
}

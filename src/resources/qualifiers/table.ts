import type { Generated, Selectable } from 'kysely';

export interface QualifierTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  shortcode: string | null;
  color: string | null;
  text_color: string | null;
  /** The callback list (title) the qualifier belongs to, when any. */
  title_id: number | null;
  partner_credential_id: number | null;
  created_by: number | null;
  /** UTC ISO instant; shown as a local datetime. */
  created_at: string;
  modified_by: number | null;
  modified_at: string | null;
  deleted_by: number | null;
  deleted_at: string | null;
}

export interface UserQualifierTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  qualifier_id: number;
  ranking: number;
}

export type QualifierRow = Selectable<QualifierTable>;

declare module '../../core/db/types.js' {
  interface Database {
    qualifier: QualifierTable;
    user_qualifier: UserQualifierTable;
  }
}

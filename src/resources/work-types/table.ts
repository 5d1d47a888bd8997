import type { Generated, Selectable } from 'kysely';

export interface WorkTypeTable {
  id: Generated<number>;
  organization_id: number;
  label: string;
  work_code: string | null;
  primary_color: string;
  secondary_color: string;
  excludes_from_callback: number;
  position: number;
  deleted_at: string | null;
}

export interface WorkSubtypeTable {
  id: Generated<number>;
  organization_id: number;
  work_type_id: number;
  label: string;
  work_code: string | null;
  deleted_at: string | null;
}

export type WorkTypeRow = Selectable<WorkTypeTable>;
export type WorkSubtypeRow = Selectable<WorkSubtypeTable>;

declare module '../../core/db/types.js' {
  interface Database {
    work_type: WorkTypeTable;
    work_subtype: WorkSubtypeTable;
  }
}

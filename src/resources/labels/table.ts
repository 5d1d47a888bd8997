import type { Generated, Selectable } from 'kysely';

export interface LabelTable {
  id: Generated<number>;
  organization_id: number;
  label: string;
  color: string;
  text_color: string;
  position: number;
  created_at: string;
  deleted_at: string | null;
}

export type LabelRow = Selectable<LabelTable>;

declare module '../../core/db/types.js' {
  interface Database {
    label: LabelTable;
  }
}

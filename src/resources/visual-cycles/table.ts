import type { Generated, Selectable } from 'kysely';

export interface VisualCycleTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  /** YYYY-MM-DD */
  start: string;
  /** YYYY-MM-DD */
  end: string;
  color: string;
  text_color: string;
  created_by: number | null;
  /** UTC ISO instant; shown as a local datetime. */
  created_at: string;
  deleted_by: number | null;
  deleted_at: string | null;
}

export type VisualCycleRow = Selectable<VisualCycleTable>;

declare module '../../core/db/types.js' {
  interface Database {
    visual_cycle: VisualCycleTable;
  }
}

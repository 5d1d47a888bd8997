import type { Generated, Selectable } from 'kysely';

/** How many people an assignment group needs on duty, and of them how many holding each qualifier. */
export interface GroupMinimumTable {
  id: Generated<number>;
  organization_id: number;
  assignment_group_id: number;
  min_on_duty: number;
  /** JSON array of {qualifier_id, count} */
  min_qualified: string;
  created_at: string;
  updated_at: string;
}

export type GroupMinimumRow = Selectable<GroupMinimumTable>;

declare module '../../core/db/types.js' {
  interface Database {
    group_minimum: GroupMinimumTable;
  }
}

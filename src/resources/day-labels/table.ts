import type { Generated, Selectable } from 'kysely';

export interface DayLabelTable {
  id: Generated<number>;
  organization_id: number;
  date: string;
  label: string;
  color: string;
}

export type DayLabelRow = Selectable<DayLabelTable>;

declare module '../../core/db/types.js' {
  interface Database {
    day_label: DayLabelTable;
  }
}

import type { Generated, Selectable } from 'kysely';

/** Miscellaneous hours of a user on a date (training, meetings, sign-up events). */
export interface MiscHourTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  date: string;
  start: string | null;
  end: string | null;
  length: number;
  work_type_id: number;
  work_subtype_id: number | null;
  notes: string | null;
  /** What created the entry, e.g. `signup_event`; null when entered directly. */
  source: string | null;
  source_id: number | null;
  created_at: string;
}

export type MiscHourRow = Selectable<MiscHourTable>;

declare module '../../core/db/types.js' {
  interface Database {
    misc_hour: MiscHourTable;
  }
}

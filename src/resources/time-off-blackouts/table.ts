import type { Generated, Selectable } from 'kysely';

/** Dates (both included) on which time off of the type may not be requested. */
export interface TimeOffBlackoutTable {
  id: Generated<number>;
  organization_id: number;
  time_off_type_id: number;
  start_date: string;
  end_date: string;
  reason: string | null;
  created_at: string;
}

export type TimeOffBlackoutRow = Selectable<TimeOffBlackoutTable>;

declare module '../../core/db/types.js' {
  interface Database {
    time_off_blackout: TimeOffBlackoutTable;
  }
}

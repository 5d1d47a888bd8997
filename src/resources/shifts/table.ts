import type { Generated, Selectable } from 'kysely';

export interface ShiftTable {
  id: Generated<number>;
  organization_id: number;
  assignment_id: number;
  user_id: number;
  date: string;
  start: string;
  end: string;
  work_type_id: number;
  work_subtype_id: number | null;
  break_start: string | null;
  break_end: string | null;
  /** whole hours the user was held over past the scheduled end */
  hold_over: number;
  /** 1: the shift is worked even where approved time off covers it (booked with force, or from a callback) */
  overrides_time_off: Generated<number>;
  notes: string | null;
  from_callback: number | null;
  traded_with: number | null;
  scheduled_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ShiftLabelTable {
  id: Generated<number>;
  organization_id: number;
  shift_id: number;
  label_id: number;
}

export interface ShiftQualifierTable {
  id: Generated<number>;
  organization_id: number;
  shift_id: number;
  qualifier_id: number;
}

export type ShiftRow = Selectable<ShiftTable>;

declare module '../../core/db/types.js' {
  interface Database {
    shift: ShiftTable;
    shift_label: ShiftLabelTable;
    shift_qualifier: ShiftQualifierTable;
  }
}

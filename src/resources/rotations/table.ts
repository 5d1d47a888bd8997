import type { Generated, Selectable } from 'kysely';

export interface RotationTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  anchor_date: string;
  /** JSON array, one entry per day of the cycle: 0 off, k ≥ 1 on at the k-th assignment of the member */
  pattern: string;
  /** JSON object crew name → day offset, e.g. {"A":0,"B":1,"C":2} */
  crews: string;
  /** every Nth on-duty shift is a Kelly day (not scheduled); null: no Kelly days */
  kelly_every: number | null;
  /** how a Kelly day shows on the schedule */
  kelly_code: Generated<string>;
  kelly_name: Generated<string>;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RecurringShiftTable {
  id: Generated<number>;
  organization_id: number;
  rotation_id: number;
  user_id: number;
  /** JSON array of assignment ids: slot k of the pattern works at the k-th */
  assignment_ids: string;
  crew_offset: number;
  kelly_offset: number;
  start_date: string;
  end_date: string | null;
  work_type_id: number;
  work_subtype_id: number | null;
  /** wall-clock `hh:mm:ss` of the break in each occurrence, or null */
  break_start: string | null;
  break_length: number;
  notes: string | null;
  scheduled_by: number | null;
  /** the series this one continues after a "this and following" edit */
  previous_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface RecurringShiftExceptionTable {
  id: Generated<number>;
  organization_id: number;
  recurring_shift_id: number;
  date: string;
  /** `removed` or `moved` */
  kind: string;
  assignment_id: number | null;
  start: string | null;
  end: string | null;
  reason: string | null;
  created_at: string;
}

export type RotationRow = Selectable<RotationTable>;
export type RecurringShiftRow = Selectable<RecurringShiftTable>;
export type RecurringShiftExceptionRow = Selectable<RecurringShiftExceptionTable>;

declare module '../../core/db/types.js' {
  interface Database {
    rotation: RotationTable;
    recurring_shift: RecurringShiftTable;
    recurring_shift_exception: RecurringShiftExceptionTable;
  }
}
